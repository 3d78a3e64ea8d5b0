// Covers: src/core/options.ts
import { describe, expect, test } from 'vitest';
import {
  checkCallback,
  checkCount,
  checkInterval,
  checkOptions,
  count,
  duration,
  InvalidOptionError,
} from '../../src/core/options.js';
import { optionRefusal } from '../helpers/rejection.js';

const TABLE = { retries: count(0, 2), size: count(1, undefined, 10), wait: duration(5_000) };
/** The options of the table as a caller without types may pass them. */
type Given = { retries?: number; size?: number; wait?: number; other?: string };

const refusal = (given: Record<string, unknown>) =>
  optionRefusal(() => checkOptions(TABLE, given as Given, 'Owner.'));

describe('checkOptions', () => {
  test('applies the defaults of the options left out and keeps the others as given', () => {
    const given = { size: 3, other: 'kept' };
    expect(checkOptions(TABLE, given, 'Owner.')).toEqual({ retries: 2, size: 3, wait: 5_000, other: 'kept' });
    expect(given).toEqual({ size: 3, other: 'kept' });
  });

  test('takes both ends of each range', () => {
    expect(checkOptions(TABLE, { retries: 0, size: 1, wait: 1 })).toMatchObject({
      retries: 0,
      size: 1,
      wait: 1,
    });
    expect(checkOptions(TABLE, { size: 10, wait: 2_147_483_647 })).toMatchObject({
      size: 10,
      wait: 2_147_483_647,
    });
  });

  test.each([
    ['retries', Number.NaN, 'a whole number of 0 or more; got NaN'],
    ['retries', -1, 'a whole number of 0 or more; got -1'],
    ['retries', 0.5, 'a whole number of 0 or more; got 0.5'],
    ['size', 0, 'a whole number from 1 to 10; got 0'],
    ['size', 11, 'a whole number from 1 to 10; got 11'],
    ['wait', 0, 'a whole number of milliseconds from 1 to 2147483647; got 0'],
    ['wait', 2_147_483_648, 'a whole number of milliseconds from 1 to 2147483647; got 2147483648'],
    ['wait', '5', 'a whole number of milliseconds from 1 to 2147483647; got "5"'],
  ])('refuses %s: %s, naming it with the prefix', (option, value, rule) => {
    const error = refusal({ [option]: value });
    expect(error.option).toBe(`Owner.${option}`);
    expect(Object.is(error.value, value)).toBe(true);
    expect(error.message).toBe(`Owner.${option} must be ${rule}. Nothing was sent.`);
  });

  test('checks in the order of the table: the first bad option is named', () => {
    expect(refusal({ wait: -1, retries: -1 }).option).toBe('Owner.retries');
  });

  test('reads each option once, an own getter as an inherited one', () => {
    let reads = 0;
    const own = {
      get retries() {
        reads += 1;
        return 1;
      },
    };
    expect(checkOptions(TABLE, own).retries).toBe(1);
    expect(reads).toBe(1);
    expect(checkOptions(TABLE, Object.create(own)).retries).toBe(1);
    expect(reads).toBe(2);
  });

  test('reads each option as given.name does: an inherited one counts, null options are all left out', () => {
    class Given {
      get size() {
        return 3;
      }
    }
    expect(checkOptions(TABLE, new Given() as Given & { size: number })).toMatchObject({
      size: 3,
      retries: 2,
    });
    expect(refusal(Object.create({ retries: -1 })).option).toBe('Owner.retries');
    expect(checkOptions(TABLE, null as unknown as Given)).toEqual({
      retries: 2,
      size: undefined,
      wait: 5_000,
    });
  });

  test('a function rule sees left-out options too, and its result is kept', () => {
    const table = { onEvent: checkCallback, interval: checkInterval };
    type Callbacks = { onEvent?: unknown; interval?: number | readonly [number, number] };
    expect(checkOptions(table, {} as Callbacks)).toEqual({ onEvent: undefined, interval: undefined });
    expect(() => checkOptions(table, { onEvent: 'f' } as Callbacks)).toThrow(
      'onEvent must be a function; got "f"',
    );
    expect(() => checkOptions(table, { interval: [5, 1] } as Callbacks)).toThrow(
      'interval must be a [min, max] pair',
    );
  });
});

describe('checkCount', () => {
  test('without a max, takes Number.MAX_SAFE_INTEGER and refuses the next whole number', () => {
    expect(checkCount('n', Number.MAX_SAFE_INTEGER, 0)).toBe(Number.MAX_SAFE_INTEGER);
    expect(() => checkCount('n', Number.MAX_SAFE_INTEGER + 1, 0)).toThrow(
      'n must be a whole number of 0 or more; got 9007199254740992. Nothing was sent.',
    );
  });

  test.each([
    [0, 0, undefined, 'of 0 or more'],
    [1, 1, 10, 'from 1 to 10'],
    [10, 1, 10, 'from 1 to 10'],
  ])('takes %s of the range %s..%s and refuses the values just outside it', (value, min, max, words) => {
    expect(checkCount('n', value, min, max)).toBe(value);
    for (const outside of [min - 1, ...(max === undefined ? [] : [max + 1])]) {
      expect(() => checkCount('n', outside, min, max)).toThrow(
        `n must be a whole number ${words}; got ${outside}`,
      );
    }
  });

  test('refuses what is not a whole number, and lets undefined through', () => {
    for (const value of [Number.NaN, Number.POSITIVE_INFINITY, 0.5, '1', null, -Number.MAX_SAFE_INTEGER]) {
      expect(() => checkCount('n', value as number, 0)).toThrow(InvalidOptionError);
    }
    expect(checkCount('n', undefined, 1, 2)).toBeUndefined();
  });
});
