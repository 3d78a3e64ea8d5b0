import { addRuleIssue } from './across-fields.js';
import { SUBSCRIBABLE_EVENTS } from './constants.js';
import { isHttpUrl, isMediaRef, utf8Length } from './fast-rules.js';
import { z } from './zod.js';

// spec: Video — "Base64 or data-URL images are not accepted; upload first."
const INLINE_DATA_HINT =
  'inline data (base64 or a data: URL) is not accepted: upload the file with client.uploads.image() and pass its url';

function looksInline(value: string): boolean {
  return /^data:/i.test(value) || (value.length > 64 && /^[A-Za-z0-9+/=\s]+$/.test(value));
}

/** A reference to media for a generation request: an `http(s)://` URL or an `asset://` ID. */
export const mediaUrl = z.string().superRefine((value, ctx) => {
  if (isMediaRef(value)) return;
  addRuleIssue(
    ctx,
    looksInline(value) ? INLINE_DATA_HINT : 'must be an http(s):// URL or an asset:// reference',
  );
});

/** A public `http(s)://` URL (no `asset://`). */
export const httpUrl = z.string().superRefine((value, ctx) => {
  if (isHttpUrl(value)) return;
  addRuleIssue(ctx, looksInline(value) ? INLINE_DATA_HINT : 'must be a public http(s):// URL');
});

/** spec: Webhook management — `{webhook: {endpoint_id: string, events: string[]}}`. */
export const notificationsSchema = z.strictObject({
  /** Delivery by signed webhook. */
  webhook: z.strictObject({
    /** `whep_...` ID of a verified, enabled endpoint of your account. */
    endpoint_id: z.string().min(1, 'must be the id of a verified webhook endpoint (whep_...)'),
    /** Which of `task.completed`, `task.failed`, `batch.completed` to send for this task. */
    events: z.array(
      z.enum(SUBSCRIBABLE_EVENTS, {
        message: `must be one of ${SUBSCRIBABLE_EVENTS.join(', ')}`,
      }),
    ),
  }),
});

// The `notifications` field of a task request, written out as a type of its own so that it
// accepts what a caller writes: a readonly `events` list, or an object `as const`. The rule
// that checks it is `notificationsSchema` above.

/**
 * A task event a request may subscribe to (spec: Events — the `notifications.webhook.events`
 * list selects which of the first three event types are sent): one of `SUBSCRIBABLE_EVENTS`,
 * which the rule checks against.
 */
export type SubscribableEvent = (typeof SUBSCRIBABLE_EVENTS)[number];

/**
 * Webhook subscription of one task request: `{ webhook: { endpoint_id, events } }`. There is no
 * account-wide default endpoint; each task request names one, and it must be verified, enabled
 * and yours, else the request is rejected before submission.
 *
 * @example
 * const notifications: Notifications = {
 *   webhook: { endpoint_id: 'whep_123', events: ['task.completed', 'task.failed'] },
 * };
 */
export interface Notifications {
  /** Delivery by signed webhook. */
  webhook: {
    /** `whep_...` ID of a verified, enabled endpoint of your account. */
    endpoint_id: string;
    /** Which of `task.completed`, `task.failed`, `batch.completed` to send for this task. */
    events: readonly SubscribableEvent[];
  };
}

/** spec: Limits — `client_reference_id` is at most 128 bytes. */
export const clientReferenceId = z
  .string()
  .refine((value) => utf8Length(value) <= 128, { message: 'must be at most 128 bytes of UTF-8' });

/**
 * spec: Webhook management — `notifications` is "not combined with legacy `webhook` or
 * `callback_url` provider parameters". Adds an issue at `notifications` when both are set.
 */
export function refuseLegacyWebhookWithNotifications(
  value: { notifications?: unknown; webhook?: unknown; callback_url?: unknown },
  ctx: z.RefinementCtx,
): void {
  if (value.notifications === undefined) return;
  for (const legacy of ['webhook', 'callback_url'] as const) {
    if (value[legacy] !== undefined) {
      addRuleIssue(
        ctx,
        `must not be combined with the legacy \`${legacy}\` parameter; use notifications alone`,
        ['notifications'],
      );
    }
  }
}

/** Adds a "must not be sent" issue for each named field that is present (even when null, false or 0). */
export function refuseFields(
  value: Record<string, unknown>,
  fields: readonly string[],
  ctx: z.RefinementCtx,
  why: string,
): void {
  for (const field of fields) {
    if (Object.hasOwn(value, field) && value[field] !== undefined) {
      addRuleIssue(ctx, `must not be sent ${why}`, [field]);
    }
  }
}
