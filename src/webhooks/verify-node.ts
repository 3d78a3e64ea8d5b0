import type { WebhookEvent } from './events.js';
import { nodeCrypto } from './node-crypto.js';
import {
  parseEvent,
  prepareVerification,
  signatureMismatch,
  type VerifyWebhookOptions,
} from './signature.js';

/**
 * Verifies a webhook delivery and returns its event (sync, `node:crypto`). Checks, in order:
 * the body is raw text or bytes, the three headers are present, `X-Service-Signature` is
 * well formed, `X-Service-Timestamp` is within `toleranceSeconds`, a secret exists for the
 * `kid`, the HMAC-SHA256 over `<timestamp>.<raw body>` matches (constant-time), the body is a
 * JSON event and its `id` equals `X-Service-Event-ID`. Duplicates are not checked here: the
 * handlers, or your own store, drop them by `event.id`.
 * spec: Authentication — items 5-6.
 *
 * @throws {WebhookVerificationError} with `reason` naming the failed check.
 * @throws {InvalidOptionError} when `toleranceSeconds` is not a whole number of 0 or more.
 * @throws {MediaGatewayError} when `secrets` is not usable, or the runtime
 * has no `node:crypto`.
 * @example
 * app.post('/webhooks', express.raw({ type: 'application/json' }), async (req, res) => {
 *   const event = verifyWebhook({ body: req.body, headers: req.headers, secrets: { [keyId]: secret } });
 *   await saveEvent(event); // store first, acknowledge, download media later
 *   res.sendStatus(200);
 * });
 */
export function verifyWebhook(options: VerifyWebhookOptions): WebhookEvent {
  const prepared = prepareVerification(options);
  const { createHmac, timingSafeEqual } = nodeCrypto();
  // Two updates hash the same bytes as `<timestamp>.<raw body>` without copying the body.
  const expected = createHmac('sha256', prepared.secret)
    .update(`${prepared.timestamp}.`)
    .update(prepared.bytes)
    .digest();
  // parseSignatureHeader let through only 64 hex digits: 32 bytes, the digest's length, as
  // timingSafeEqual requires.
  if (!timingSafeEqual(Buffer.from(prepared.signature, 'hex'), expected)) {
    throw signatureMismatch(prepared);
  }
  return parseEvent(prepared);
}
