import type { Transport } from '../internal/transport.js';

/** What a client tells its resources besides how to send requests: its defaults for waits. */
export interface ResourceSettings {
  /** The client's `pollInterval`: the interval of every wait that names none. */
  readonly pollInterval?: number | readonly [number, number] | undefined;
}

/** The base of every resource: holds the client's transport and settings. */
export abstract class APIResource {
  /** @internal */
  declare protected readonly transport: Transport;
  /** @internal */
  declare protected readonly settings: ResourceSettings;

  constructor(transport: Transport, settings: ResourceSettings = {}) {
    Object.defineProperty(this, 'transport', { value: transport, enumerable: false });
    Object.defineProperty(this, 'settings', { value: settings, enumerable: false });
  }
}
