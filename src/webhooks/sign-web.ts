import { prepareSigning, type SignWebhookOptions, type WebhookSignatureHeaders } from './sign-input.js';
import { bytesToHex } from './signature.js';
import { hmacKey, subtleCrypto } from './verify-web.js';

/**
 * `signWebhook` with Web Crypto only (no `node:` import), for tests that run in edge
 * runtimes, Bun or Deno. Gives the same headers for the same options.
 *
 * @throws {MediaGatewayError} (as a rejection) like `signWebhook`, or when Web Crypto is missing.
 */
export async function signWebhookAsync(options: SignWebhookOptions): Promise<WebhookSignatureHeaders> {
  const prepared = prepareSigning(options);
  const key = await hmacKey(prepared.secret, 'sign');
  return prepared.headers(
    bytesToHex(new Uint8Array(await subtleCrypto().sign('HMAC', key, prepared.payload))),
  );
}
