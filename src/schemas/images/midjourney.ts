import { acrossFields } from '../shared/across-fields.js';
import {
  clientReferenceId,
  type Notifications,
  notificationsSchema,
  refuseLegacyWebhookWithNotifications,
} from '../shared/common.js';
import { parseParams } from '../shared/validate.js';
import { z } from '../shared/zod.js';

/**
 * `POST /v1/midjourney/generations`. The document does not list this route's fields, so they pass
 * through as given; only the task request additions are checked.
 */
export interface MidjourneyGenerateParams {
  /** `notifications`: the verified endpoint and events (`batch.completed` among them); not with legacy `webhook`/`callback_url`. */
  notifications?: Notifications | undefined;
  /** `client_reference_id`: at most 128 bytes of UTF-8, echoed in events; not an idempotency key. */
  client_reference_id?: string | undefined;
  /** The route's own fields, sent unchanged. */
  [field: string]: unknown;
}

/** `midjourney.generate` body: an open record whose task additions follow the common rules. */
export const midjourneyGenerateSchema = z
  .looseObject({
    notifications: notificationsSchema.optional(),
    client_reference_id: clientReferenceId.optional(),
  })
  .superRefine(...acrossFields(refuseLegacyWebhookWithNotifications));

/** Checks a `midjourney.generate` request. @throws RequestValidationError naming each broken rule. */
export function parseMidjourneyGenerateParams(params: unknown): MidjourneyGenerateParams {
  return parseParams(midjourneyGenerateSchema, params, 'midjourney.generate');
}
