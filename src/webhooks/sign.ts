import { nodeCrypto } from './node-crypto.js';
import { prepareSigning, type SignWebhookOptions, type WebhookSignatureHeaders } from './sign-input.js';

/**
 * Signs a body the way the gateway does and returns the four headers it sends:
 * `X-Service-Event-ID`, `X-Service-Delivery-ID`, `X-Service-Timestamp` and
 * `X-Service-Signature` (`v1=<hex>,kid=<keyId>`). For testing your own receiver (sync, `node:crypto`).
 * spec: Authentication — items 5-6.
 *
 * @throws {MediaGatewayError} when the body is not text or bytes, the secret or key ID is
 * empty, or no `eventId` is given and the body has no string `id`.
 * @example
 * const body = JSON.stringify(event);
 * const headers = signWebhook({ body, secret, keyId });
 * await fetch('http://127.0.0.1:3000/webhooks', { method: 'POST', body, headers });
 */
export function signWebhook(options: SignWebhookOptions): WebhookSignatureHeaders {
  const prepared = prepareSigning(options);
  return prepared.headers(
    nodeCrypto().createHmac('sha256', prepared.secret).update(prepared.payload).digest('hex'),
  );
}
