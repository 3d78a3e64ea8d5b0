import { randomBytes } from 'node:crypto';

/**
 * A fresh random identifier with the given prefix, e.g. `newId('whep_')` → `whep_3f9c…` (24 hex
 * digits after the prefix). Random per call, so IDs never collide across accounts or gateways.
 *
 * @example
 * const endpointId = newId('whep_');
 */
export function newId(prefix: string, bytes = 12): string {
  return `${prefix}${randomBytes(bytes).toString('hex')}`;
}
