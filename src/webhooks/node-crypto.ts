import { MediaGatewayError } from '../core/base-error.js';

const load = () => globalThis.process?.getBuiltinModule?.('node:crypto');
let cached: ReturnType<typeof load>;

/**
 * `node:crypto`, loaded on first use through `process.getBuiltinModule` (Node >= 20.16)
 * rather than a static import. The built entry is one file, so a static import would reach
 * every bundle of it, including edge bundles that use only the Web Crypto functions.
 * @throws {MediaGatewayError} where the runtime has no `node:crypto`.
 */
export function nodeCrypto(): NonNullable<ReturnType<typeof load>> {
  cached ??= load();
  if (!cached) throw new MediaGatewayError('no node:crypto here: use verifyWebhookAsync, signWebhookAsync');
  return cached;
}
