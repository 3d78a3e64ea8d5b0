// Options refused where they were given.
import { ERROR_BRAND, MediaGatewayError } from '../base-error.js';

/**
 * An option (a timeout, an interval, a retry count, a store's limit, a callback) was refused
 * where it was given, before anything was sent. `option` names it as the caller wrote it
 * (`timeout`, `interval[1]`, `RedisDedupeStore.leaseSeconds`) and `value` is what was passed.
 *
 * The rules, the same for every option of the SDK:
 * - durations in milliseconds are whole numbers from 1 to 2,147,483,647 (about 24.8 days, the
 *   longest timer Node keeps; a longer one would fire at once). `0` is refused: there is no
 *   "no deadline", and a deadline of 0 could never be met.
 * - counts are whole numbers from their stated minimum (`maxRetries: 0` means one attempt).
 * - `NaN`, `Infinity`, negative and fractional values are refused.
 * - callbacks (`onProgress`) are functions.
 *
 * @example
 * new MediaGateway({ timeout: Number.NaN }); // InvalidOptionError: timeout must be a whole number of milliseconds from 1 to 2147483647; got NaN
 */
export class InvalidOptionError extends MediaGatewayError {
  /** @internal Its brand, a static field: this class is in the small entries (see `brand`). */
  static override readonly [ERROR_BRAND]: string = 'InvalidOptionError';
  /** Always `'InvalidOptionError'`. */
  declare readonly name: 'InvalidOptionError';
  /** The option as the caller wrote it, e.g. `timeout` or `interval[0]`. */
  declare readonly option: string;
  /** The value that was refused. */
  declare readonly value: unknown;

  /**
   * @param option - the option's name.
   * @param value - the refused value.
   * @param rule - what the option takes, in words.
   */
  constructor(option: string, value: unknown, rule: string) {
    super(`${option} must be ${rule}; got ${describe(value)}. Nothing was sent.`);
    this.option = option;
    this.value = value;
  }
}

/** A refused value as the message shows it: short, and without the content of an object. */
function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (Array.isArray(value)) return `[${value.map(describe).join(', ')}]`;
  // -0 is named as such (String gives "0"); of other non-numbers only the type is told.
  if (Object.is(value, -0)) return '-0';
  return typeof value === 'number' || value === null ? String(value) : typeof value;
}
