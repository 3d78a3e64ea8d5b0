import { createHmac } from 'node:crypto';
import type { WebhookEvent } from '../../src/webhooks/index.js';

export const KEY_ID = 'kid_current';
export const SECRET = 'whsec_current_0123456789';
export const OLD_KEY_ID = 'kid_previous';
export const OLD_SECRET = 'whsec_previous_9876543210';
/** A fixed "now" in Unix seconds. */
export const NOW = 1_790_000_000;

/** A `task.completed` event as the gateway sends it, with overridable fields. */
export function completedEvent(overrides: Partial<Record<string, unknown>> = {}): WebhookEvent {
  return {
    id: 'evt_0001',
    type: 'task.completed',
    api_version: '2026-10-03',
    created_at: NOW - 5,
    data: {
      task_id: 'task_abc',
      model: 'vidmodel-2.5',
      kind: 'video',
      status: 'completed',
      client_reference_id: 'order-42',
      completed_at: NOW - 6,
      task_url: 'https://gw.example/v1/videos/task_abc',
      result: {
        outputs: [
          {
            output_id: 'out_1',
            type: 'video',
            url: 'https://gw.example/v1/videos/task_abc/content',
            authentication: 'bearer',
            expires_at: null,
          },
        ],
      },
      error: null,
    },
    ...overrides,
  } as WebhookEvent;
}

/** HMAC-SHA256 hex computed independently of the SDK. */
export function hmacHex(secret: string, timestamp: string, body: string | Uint8Array): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex');
}

/** Headers of a delivery signed independently of the SDK. */
export function deliveryHeaders(
  body: string | Uint8Array,
  {
    secret = SECRET,
    keyId = KEY_ID,
    timestamp = String(NOW),
    eventId = 'evt_0001',
  }: { secret?: string; keyId?: string; timestamp?: string; eventId?: string } = {},
): Record<string, string> {
  return {
    'x-service-event-id': eventId,
    'x-service-delivery-id': 'dlv_test_1',
    'x-service-timestamp': timestamp,
    'x-service-signature': `v1=${hmacHex(secret, timestamp, body)},kid=${keyId}`,
  };
}

export const SECRETS = { [KEY_ID]: SECRET };
