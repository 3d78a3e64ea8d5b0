// A Redis call of `mediagw/redis` that failed or did not answer.
import { ERROR_BRAND, MediaGatewayError } from '../base-error.js';

/** Raised when a Redis call fails or does not answer within `timeoutMs`. */
export class RedisUnavailableError extends MediaGatewayError {
  /** @internal Its brand, a static field: this class is in the small entries (see `brand`). */
  static override readonly [ERROR_BRAND]: string = 'RedisUnavailableError';
  declare readonly name: 'RedisUnavailableError';
  /** The command that failed, e.g. `SET`. */
  readonly command: string;

  constructor(command: string, message: string, options?: { cause?: unknown }) {
    super(`mediagw/redis: ${command} failed: ${message}`, options);
    this.command = command;
  }
}
