/**
 * The mock gateway's webhook side: endpoints, signed deliveries to local receivers, retries on
 * the mock clock, and the records tests inspect. See docs/webhooks.md ("Testing with the mock").
 */
import type { GatewayState } from '../gateway-state.js';
import { type MockWebhooks, webhookState } from './state.js';

export { webhookDeliveryBody } from './envelope.js';
export { type PostLimits, type PostOutcome, postDelivery } from './http.js';
export {
  DELIVERY_WINDOW_MS,
  LATER_RETRY_DELAY_MS,
  RETRY_DELAYS_MS,
  retryDelay,
} from './schedule.js';
export type { MockWebhooks } from './state.js';
export type {
  MockDeliveryAttempt,
  MockDeliveryListener,
  MockDeliveryStatus,
  MockVerificationRecord,
  MockWebhookEndpoint,
  MockWebhookEvent,
  MockWebhookOptions,
} from './types.js';
export {
  type DeliveryAnswer,
  type DeliveryVerdict,
  deliveryVerdict,
  type VerificationVerdict,
  verificationVerdict,
} from './verdict.js';

/**
 * The webhook side of a running mock gateway: route registered HTTPS URLs to local receivers,
 * change delivery options, read endpoints, events and attempts, and `flush()` deliveries.
 *
 * @example
 * const gateway = await startMockGateway({ clock: 'manual' });
 * const webhooks = mockWebhooks(gateway).configure({ jitter: false });
 * webhooks.route('https://hooks.example.com/mediagw', `http://127.0.0.1:${port}/webhooks`);
 * // register and verify the endpoint with the client, submit a task, then:
 * await gateway.clock.advance(10_000);
 * await webhooks.flush();
 * console.log(webhooks.events()[0]?.status); // 'delivered'
 */
export function mockWebhooks(gateway: GatewayState): MockWebhooks {
  return webhookState(gateway);
}
