import { InvalidOptionError } from './errors/options.js';

// The class lives with the others under errors/; the option checks below throw it.
export { InvalidOptionError };

/** The longest delay `setTimeout` keeps; past it Node fires the timer after 1 ms. */
export const MAX_TIMER_MS = 2_147_483_647;

/**
 * The rule of one option: checks the value given for `option` (`undefined` when it is left out)
 * and returns what its owner keeps: the value, or the option's default.
 *
 * @throws InvalidOptionError naming `option` and the value, when the value breaks the rule.
 */
export type OptionRule<R = unknown, V = never> = (option: string, value: V) => R;

/**
 * The options of one owner (a class, a function, the client), declared once: each option's name
 * and its rule, in the order they are checked. Each option's documentation stays on the
 * interface the table checks.
 *
 * @example
 * checkOptions({ maxEntries: count(1, 10_000), ttlMs: duration(259_200_000), now: checkCallback }, options, 'MemoryDedupeStore.');
 */
export type OptionTable<O> = { readonly [K in keyof O]?: OptionRule<unknown, O[K]> };

/**
 * The options as {@link checkOptions} returns them: those of the table with their defaults
 * applied (never `undefined` when the rule has a default), the others as given.
 */
export type CheckedOptions<O, T> = O & {
  -readonly [K in keyof T & keyof O]-?: T[K] extends (...args: never[]) => infer R
    ? undefined extends R
      ? O[K]
      : Exclude<O[K], undefined>
    : O[K];
};

/**
 * Checks a whole options object against its owner's table, in the table's order, where the
 * options are given.
 *
 * @param prefix - put before each option's name in a refusal, e.g. `'MemoryDedupeStore.'`.
 * @returns a copy of `given` with each option of the table as its rule returned it.
 * @throws InvalidOptionError for the first option that breaks its rule.
 */
export function checkOptions<O extends object, T extends OptionTable<O>>(
  table: T,
  given: O,
  prefix = '',
): CheckedOptions<O, T> {
  const checked = { ...given } as Record<string, unknown>;
  // Each option is read once: from the copy when it is given's own, else as `given.name` reads
  // it, so that one a class instance inherits counts too.
  for (const name in table)
    checked[name] = (table[name] as OptionRule<unknown, unknown>)(
      prefix + name,
      Object.hasOwn(checked, name) ? checked[name] : (given as Record<string, unknown> | null)?.[name],
    );
  return checked as CheckedOptions<O, T>;
}

/**
 * The rule of a count: a whole number from `min` to `max` (no upper bound when left out),
 * `fallback` when the option is left out; see {@link checkCount}.
 *
 * @param unit - said before the range in a refusal, e.g. `'of milliseconds '`.
 */
export const count =
  <D extends number | undefined = undefined>(
    min: number,
    fallback?: D,
    max?: number,
    unit?: string,
  ): OptionRule<number | D, number | undefined> =>
  (option, value) =>
    checkCount(option, value, min, max, unit) ?? (fallback as D);

/** The rule of a duration in milliseconds, from 1 to {@link MAX_TIMER_MS}, else `fallback`. */
export const duration = <D extends number | undefined = undefined>(fallback?: D) =>
  count(1, fallback, MAX_TIMER_MS, 'of milliseconds ');

/**
 * Checks a duration in milliseconds, one option alone: a whole number from 1 to
 * {@link MAX_TIMER_MS}. `undefined` passes through (the default applies).
 *
 * @throws InvalidOptionError naming `option` and the value.
 */
export function checkDuration(option: string, value: number | undefined): number | undefined {
  return checkCount(option, value, 1, MAX_TIMER_MS, 'of milliseconds ');
}

/**
 * Checks a count, one option alone: a whole number of at least `min` (and at most `max`, 1 or
 * more when given; else at most `Number.MAX_SAFE_INTEGER`).
 * `undefined` passes through (the default applies). Every numeric check of the SDK comes here,
 * so that one rule and one message form hold for all of them.
 *
 * @param unit - said before the range in the message, e.g. `'of milliseconds '`.
 * @throws InvalidOptionError naming `option` and the value.
 */
export function checkCount(
  option: string,
  value: number | undefined,
  min: number,
  max?: number,
  unit = '',
): number | undefined {
  // Number.isSafeInteger is false for anything that is not a number, NaN and Infinity included,
  // and past 2^53 - 1, the bound when `max` is left out (`value > undefined` is false).
  if (value === undefined || (Number.isSafeInteger(value) && value >= min && !(value > (max as number))))
    return value;
  throw new InvalidOptionError(
    option,
    value,
    `a whole number ${unit}${max ? `from ${min} to ${max}` : `of ${min} or more`}`,
  );
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
 * Checks a callback option: a function, or `undefined` (none), and returns it. Checked where the option is
 * given, so that a misspelt callback fails before anything is sent, not at its first call.
 *
 * @throws InvalidOptionError naming `option` and the value.
 */
export function checkCallback<V>(option: string, value: V): V {
  if (value !== undefined && typeof value !== 'function')
    throw new InvalidOptionError(option, value, 'a function');
  return value;
}
