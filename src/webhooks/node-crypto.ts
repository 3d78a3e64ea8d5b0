import { MediaGatewayError } from '../core/base-error.js';

/** The type of `node:crypto`, named without importing it. */
type NodeCrypto = ReturnType<typeof process.getBuiltinModule<'node:crypto'>>;
let cached: NodeCrypto | undefined;

/**
 * `node:crypto`, loaded on first use through `process.getBuiltinModule` (Node >= 20.16)
 * rather than a static import. The built entry is one file, so a static import would reach
 * every bundle of it, including edge bundles that use only the Web Crypto functions.
 * @throws {MediaGatewayError} where the runtime has no `node:crypto`.
 */
export function nodeCrypto(): NodeCrypto {
  cached ??= globalThis.process?.getBuiltinModule?.('node:crypto');
  if (!cached) throw new MediaGatewayError('no node:crypto here: use verifyWebhookAsync, signWebhookAsync');
  return cached;
}
