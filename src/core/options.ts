import { InvalidOptionError } from './errors/options.js';

// The class lives with the others under errors/; the option checks below throw it.
export { InvalidOptionError };

/** The longest delay `setTimeout` keeps; past it Node fires the timer after 1 ms. */
export const MAX_TIMER_MS = 2_147_483_647;

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
