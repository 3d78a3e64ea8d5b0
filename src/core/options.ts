import { ERROR_BRAND, MediaGatewayError } from './base-error.js';

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
  /** @internal */
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

/** The longest delay `setTimeout` keeps; past it Node fires the timer after 1 ms. */
export const MAX_TIMER_MS = 2_147_483_647;

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (Array.isArray(value)) return `[${value.map(describe).join(', ')}]`;
  // -0 is named as such (String gives "0"); of other non-numbers only the type is told.
  if (Object.is(value, -0)) return '-0';
  return typeof value === 'number' || value === null ? String(value) : typeof value;
}

/**
 * Checks a duration in milliseconds: a whole number from 1 to {@link MAX_TIMER_MS}. `undefined`
 * passes through (the default applies).
 *
 * @throws InvalidOptionError naming `option` and the value.
 */
export function checkDuration(option: string, value: number | undefined): number | undefined {
  return checkCount(option, value, 1, MAX_TIMER_MS, 'of milliseconds ');
}

/**
 * Checks a count: a whole number of at least `min` (and at most `max`). `undefined` passes
 * through (the default applies). Every numeric check of the SDK comes here, so that one rule
 * and one message form hold for all of them.
 *
 * @param unit - said before the range in the message, e.g. `'of milliseconds '`.
 * @throws InvalidOptionError naming `option` and the value.
 */
export function checkCount(
  option: string,
  value: number | undefined,
  min: number,
  max = Number.MAX_SAFE_INTEGER,
  unit = '',
): number | undefined {
  // Number.isInteger is false for anything that is not a number, NaN and Infinity included.
  if (value === undefined || (Number.isInteger(value) && value >= min && value <= max)) return value;
  const range = max < Number.MAX_SAFE_INTEGER ? `from ${min} to ${max}` : `of ${min} or more`;
  throw new InvalidOptionError(option, value, `a whole number ${unit}${range}`);
}

/**
 * Checks an interval: a duration, or `[min, max]` of durations with `min <= max`.
 *
 * @throws InvalidOptionError naming `option` (or `option[0]`, `option[1]`) and the value.
 */
export function checkInterval<T extends number | readonly [number, number] | undefined>(
  option: string,
  value: T,
): T {
  if (value === undefined || typeof value === 'number') {
    checkDuration(option, value as number | undefined);
    return value;
  }
  if (!Array.isArray(value) || value.length !== 2) {
    throw new InvalidOptionError(option, value, 'a number of milliseconds or a [min, max] pair');
  }
  checkDuration(`${option}[0]`, value[0]);
  checkDuration(`${option}[1]`, value[1]);
  if (value[0] > value[1]) {
    throw new InvalidOptionError(option, value, `a [min, max] pair with min <= max`);
  }
  return value;
}

/**
 * Checks a callback option: a function, or `undefined` (none). Checked where the option is
 * given, so that a misspelt callback fails before anything is sent, not at its first call.
 *
 * @throws InvalidOptionError naming `option` and the value.
 */
export function checkCallback(option: string, value: unknown): void {
  if (value !== undefined && typeof value !== 'function')
    throw new InvalidOptionError(option, value, 'a function');
}
