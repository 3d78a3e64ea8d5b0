/**
 * How the mock renders webhook records on the wire. The document shows only `endpoint.id`,
 * `endpoint.key_id` and `signing_secret`; the other fields are the mock's own.
 */
import type { MockWebhooks } from '../state/webhooks/state.js';
import type { MockDeliveryAttempt, MockWebhookEndpoint, MockWebhookEvent } from '../state/webhooks/types.js';

const seconds = (ms: number | undefined) => (ms === undefined ? null : Math.floor(ms / 1000));

/** An endpoint without its secret. */
export function renderEndpoint(webhooks: MockWebhooks, endpoint: MockWebhookEndpoint) {
  const previous = webhooks.livePrevious(endpoint);
  return {
    id: endpoint.id,
    url: endpoint.url,
    key_id: endpoint.keyId,
    enabled: endpoint.enabled,
    verified: endpoint.verified,
    /** `request` (PATCH `enabled: false`) or `gone` (a delivery answered 410); null when enabled. */
    paused_reason: endpoint.enabled ? null : (endpoint.pausedBy ?? 'request'),
    previous_key_id: previous?.keyId ?? null,
    previous_key_expires_at: seconds(previous?.expiresAt),
    created_at: seconds(endpoint.createdAt),
  };
}

/** An event record with its delivery state and payload. */
export function renderEvent(webhooks: MockWebhooks, event: MockWebhookEvent) {
  return {
    id: event.id,
    type: event.type,
    endpoint_id: event.endpointId,
    task_id:
      event.batchId === undefined || event.type !== 'batch.completed' ? (event.taskIds[0] ?? null) : null,
    batch_id: event.batchId ?? null,
    status: event.status,
    created_at: seconds(event.createdAt),
    attempts: event.attempts.length,
    next_attempt_at: seconds(event.nextAttemptAt),
    window_ends_at: seconds(event.deadline),
    redeliveries_today: webhooks.replaysToday(event),
    payload: JSON.parse(webhooks.bodyOf(event)) as unknown,
  };
}

/** One delivery attempt. */
export function renderAttempt(attempt: MockDeliveryAttempt) {
  return {
    id: attempt.id,
    attempt: attempt.attempt,
    status: attempt.outcome,
    status_code: attempt.statusCode ?? null,
    error: attempt.error ?? null,
    key_id: attempt.keyId,
    started_at: seconds(attempt.startedAt),
    finished_at: seconds(attempt.finishedAt),
    duplicate: attempt.duplicate,
  };
}
