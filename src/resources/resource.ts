import type { Transport } from '../internal/transport.js';

/** The base of every resource: holds the client's transport. */
export abstract class APIResource {
  /** @internal */
  declare protected readonly transport: Transport;

  constructor(transport: Transport) {
    Object.defineProperty(this, 'transport', { value: transport, enumerable: false });
  }
}
