// A request the client's rate limits held back for too long.
import { ERROR_BRAND, MediaGatewayError } from '../base-error.js';

/**
 * A request waited longer than `maxQueueWaitMs` for room under the client's limits. Nothing was
 * sent: the call may be made again later, or the limits raised.
 */
export class QueueTimeoutError extends MediaGatewayError {
  /** @internal Its brand, a static field: this class is in the small entries (see `brand`). */
  static override readonly [ERROR_BRAND]: string = 'QueueTimeoutError';
  /** Always `'QueueTimeoutError'`. */
  declare readonly name: 'QueueTimeoutError';
  /** The wait allowed, in milliseconds. */
  declare readonly waitedMs: number;

  /** @param waitedMs - the `maxQueueWaitMs` that ran out. */
  constructor(waitedMs: number) {
    super(
      `The request waited ${waitedMs} ms (maxQueueWaitMs) for room under the client's rate limits and was not sent; try again later or raise the limits.`,
    );
    this.waitedMs = waitedMs;
  }
}
