import type { APIPromise } from '../../core/api-promise.js';
import type { RequestOptions } from '../../internal/request-spec.js';
import { parseWebhookEventListParams } from '../../internal/schemas.js';
import { path } from '../../internal/url.js';
import type { WebhookEventListParams } from '../../schemas/webhook-endpoints/index.js';
import { APIResource } from '../resource.js';
import type { WebhookManagementResponse } from './types.js';

/** Webhook events and their delivery attempts: `/v1/webhook-events`. Records are kept 30 days. */
export class WebhookEvents extends APIResource {
  /**
   * The events of a task (`GET /v1/webhook-events?task_id=`), as received.
   *
   * @throws RequestValidationError before sending when `task_id` is missing or empty.
   * @throws NotFoundError for a task of another account; other APIError subclasses by status.
   * @example
   * const events = await client.webhooks.events.list({ task_id: 'cgt-123' });
   */
  list(params: WebhookEventListParams, options?: RequestOptions): APIPromise<WebhookManagementResponse> {
    return this.jsonCall<WebhookManagementResponse>(
      'GET',
      'safe',
      () => ({ path: '/webhook-events', query: { task_id: parseWebhookEventListParams(params).task_id } }),
      options,
    );
  }

  /**
   * The delivery attempts of an event (`GET /v1/webhook-events/{id}/deliveries`), as received.
   *
   * @throws NotFoundError for an unknown event or one of another account.
   * @example
   * const attempts = await client.webhooks.events.deliveries('evt_123');
   */
  deliveries(eventId: string, options?: RequestOptions): APIPromise<WebhookManagementResponse> {
    return this.jsonCall<WebhookManagementResponse>(
      'GET',
      'safe',
      () => ({ path: path`/webhook-events/${{ eventId }}/deliveries` }),
      options,
    );
  }

  /**
   * Replays an event (same ID and payload, a new 72-hour window). At most 5 per event per UTC
   * day, refused while a delivery is in flight. Does not regenerate media or bill again, and
   * does not extend the media's availability.
   *
   * @throws APIError when the gateway refuses the replay: past 5 replays of the event in a UTC
   * day (the mock gateway answers 429, a RateLimitError) or while a delivery lease is active
   * (409, a ConflictError); NotFoundError for an unknown event.
   *
   * @example
   * await client.webhooks.events.redeliver('evt_123');
   */
  redeliver(eventId: string, options?: RequestOptions): APIPromise<WebhookManagementResponse> {
    return this.jsonCall<WebhookManagementResponse>(
      'POST',
      'create',
      () => ({ path: path`/webhook-events/${{ eventId }}/redeliver` }),
      options,
    );
  }
}
