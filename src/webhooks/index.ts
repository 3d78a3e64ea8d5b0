/**
 * `mediagw/webhooks`: receive the gateway's signed task notifications. Verify deliveries
 * (`node:crypto` or Web Crypto), sign test deliveries, and mount ready request handlers that
 * answer the verification challenge and drop duplicate events. Imports no HTTP client and no
 * schema library, so it stays small and runs in edge runtimes.
 *
 * @example
 * import { createWebhookHandler } from 'mediagw/webhooks';
 * export const POST = createWebhookHandler({ secrets: { [keyId]: secret }, onEvent: (event) => queue.add(event) });
 *
 * @module mediagw/webhooks
 */

export { WebhookVerificationError, type WebhookVerificationReason } from '../core/errors/webhooks.js';
// The same classes the `mediagw` entry exports, bundled into this entry: `instanceof` holds
// across the copies, since each class carries a brand every copy recognises.
export { InvalidOptionError } from '../core/options.js';
export {
  type DedupeClaim,
  type DedupeStore,
  MemoryDedupeStore,
  type MemoryDedupeStoreOptions,
} from './dedupe.js';
export {
  type BatchCompletedEvent,
  type EndpointVerificationEvent,
  type HandledWebhookEvent,
  type TaskCompletedData,
  type TaskCompletedEvent,
  type TaskEvent,
  type TaskFailedData,
  type TaskFailedEvent,
  TERMINAL_TASK_EVENT_TYPES,
  WEBHOOK_API_VERSION,
  type WebhookEvent,
  type WebhookEventType,
  type WebhookTaskOutput,
} from './events.js';
export type { WebhookDelivery, WebhookHandlerOptions } from './handler-core.js';
export { createWebhookHandler } from './handler-fetch.js';
export {
  createNodeWebhookHandler,
  type NodeWebhookHandlerOptions,
  type NodeWebhookRequest,
  type NodeWebhookResponse,
} from './handler-node.js';
export { signWebhook } from './sign.js';
export type { SignWebhookOptions, WebhookSignatureHeaders } from './sign-input.js';
export { signWebhookAsync } from './sign-web.js';
export {
  type VerifyWebhookOptions,
  WEBHOOK_HEADERS,
  type WebhookBody,
  type WebhookHeaders,
  type WebhookSecrets,
} from './signature.js';
export { verifyWebhook } from './verify-node.js';
export { verifyWebhookAsync } from './verify-web.js';
