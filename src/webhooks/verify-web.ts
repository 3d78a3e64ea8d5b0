import { MediaGatewayError } from '../core/base-error.js';
import type { WebhookEvent } from './events.js';
import {
  hexToBytes,
  parseEvent,
  prepareVerification,
  signatureMismatch,
  signedPayload,
  utf8,
  type VerifyWebhookOptions,
} from './signature.js';

/** The Web Crypto `SubtleCrypto` of this runtime. @throws {MediaGatewayError} when there is none. */
export function subtleCrypto(): SubtleCrypto {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) throw new MediaGatewayError('no crypto.subtle here: use verifyWebhook');
  return subtle;
}

/** Imports an HMAC-SHA256 key for the given use. */
export function hmacKey(secret: string, use: 'sign' | 'verify'): Promise<CryptoKey> {
  return subtleCrypto().importKey('raw', utf8(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [use]);
}

/** Verify keys by secret: a secret is imported once, not for every delivery (eight are kept). */
const verifyKeys = new Map<string, CryptoKey>();

/**
 * `verifyWebhook` with Web Crypto only (no `node:` import): for edge runtimes,
 * Cloudflare Workers, Bun and Deno. Same checks in the same order, same reasons.
 *
 * @throws {WebhookVerificationError} (as a rejection) with `reason` naming the failed check.
 * @throws {InvalidOptionError} (as a rejection) when `toleranceSeconds` is not a whole number of 0 or more.
 * @throws {MediaGatewayError} when `secrets` is not usable or Web Crypto is missing.
 * @example
 * export async function POST(req: Request) {
 *   const event = await verifyWebhookAsync({ body: await req.text(), headers: req.headers, secrets });
 *   return new Response(null, { status: 200 });
 * }
 */
export async function verifyWebhookAsync(options: VerifyWebhookOptions): Promise<WebhookEvent> {
  const prepared = prepareVerification(options);
  const key = verifyKeys.get(prepared.secret) ?? (await hmacKey(prepared.secret, 'verify'));
  if (verifyKeys.size > 7) verifyKeys.clear();
  verifyKeys.set(prepared.secret, key);
  const payload = signedPayload(prepared.timestamp, prepared.bytes);
  // crypto.subtle.verify compares in constant time.
  const ok = await subtleCrypto().verify('HMAC', key, hexToBytes(prepared.signature), payload);
  if (!ok) throw signatureMismatch(prepared);
  return parseEvent(prepared);
}
