// Covers: src/core/limits.ts
import { describe, expect, test } from 'vitest';
import { checkLimits, type RequestLimits } from '../../src/core/limits.js';
import type { InvalidOptionError } from '../../src/core/options.js';
import { optionRefusal } from '../helpers/rejection.js';

const refusal = (limits: unknown, name?: string) =>
  optionRefusal(() => checkLimits(limits as RequestLimits, name));

/** The same limit at the top, for a model and for a family, with the name each one has. */
const PLACES = [
  ['limits', (limit: object) => limit],
  ['limits.perModel.m', (limit: object) => ({ perModel: { m: limit } })],
  ['limits.perRouteFamily.creation', (limit: object) => ({ perRouteFamily: { creation: limit } })],
] as const;

describe('checkLimits', () => {
  describe.each(PLACES)('at %s', (name, place) => {
    // A limit under one a second (30 a minute), or a little under 1 or 2 a second, could not be
    // written: every rate had to be a whole number.
    test('requestsPerSecond takes fractions from 0.001 and refuses less, NaN, Infinity and text, named in full', () => {
      for (const rate of [0.001, 0.5, 1, 1.5, 1_000_000])
        expect(() => checkLimits(place({ requestsPerSecond: rate }))).not.toThrow();
      for (const value of [0, 0.0009, -1, Number.NaN, Number.POSITIVE_INFINITY, '5']) {
        const error = refusal(place({ requestsPerSecond: value }));
        expect(error.option).toBe(`${name}.requestsPerSecond`);
        expect(Object.is(error.value, value)).toBe(true);
        expect(error.message).toBe(
          `${name}.requestsPerSecond must be a number of 0.001 or more; got ${typeof value === 'string' ? JSON.stringify(value) : value}. Nothing was sent.`,
        );
      }
    });

    test.each(['burst', 'maxInFlight'])('%s takes 1 and refuses 0, 1.5 and NaN, named in full', (option) => {
      expect(() => checkLimits(place({ [option]: 1 }))).not.toThrow();
      for (const value of [0, 1.5, Number.NaN]) {
        const error = refusal(place({ [option]: value }));
        expect(error.option).toBe(`${name}.${option}`);
        expect(Object.is(error.value, value)).toBe(true);
        expect(error.message).toBe(
          `${name}.${option} must be a whole number of 1 or more; got ${value}. Nothing was sent.`,
        );
      }
    });

    test('a limit that is not an object is refused as such; one left out inside limits is skipped', () => {
      expect(refusal(place(5 as never)).message).toBe(`${name} must be an object; got 5. Nothing was sent.`);
      expect(refusal(place(null as never)).option).toBe(name);
      if (name !== 'limits') expect(() => checkLimits(place(undefined as never))).not.toThrow();
    });
  });

  test('maxQueueWaitMs takes 1 and 2147483647 and refuses 0 and 2147483648', () => {
    for (const value of [1, 2_147_483_647])
      expect(() => checkLimits({ maxQueueWaitMs: value })).not.toThrow();
    for (const value of [0, 2_147_483_648]) {
      expect(refusal({ maxQueueWaitMs: value }).message).toBe(
        `limits.maxQueueWaitMs must be a whole number of milliseconds from 1 to 2147483647; got ${value}. Nothing was sent.`,
      );
    }
  });

  test('a family other than creation, upload and query is refused, named with the family', () => {
    for (const family of ['creation', 'upload', 'query']) {
      expect(() => checkLimits({ perRouteFamily: { [family]: { burst: 1 } } })).not.toThrow();
    }
    const error = refusal({ perRouteFamily: { uploads: { burst: 1 } } });
    expect(error.option).toBe('limits.perRouteFamily');
    expect(error.value).toBe('uploads');
    expect(error.message).toBe(
      'limits.perRouteFamily must be one of creation, upload, query; got "uploads". Nothing was sent.',
    );
  });

  test('checks in order: the limit itself, maxQueueWaitMs, each model, each family', () => {
    const bad = {
      requestsPerSecond: 0,
      maxInFlight: 0,
      maxQueueWaitMs: 0,
      perModel: { a: { burst: 0 }, b: { burst: 0 } },
      perRouteFamily: { query: { burst: 0 } },
    };
    const names: string[] = [];
    let limits: Record<string, unknown> = { ...bad };
    // Fix each refused option in turn: the next refusal names the next option in order.
    for (;;) {
      let error: InvalidOptionError;
      try {
        checkLimits(limits as RequestLimits);
        break;
      } catch (caught) {
        error = caught as InvalidOptionError;
      }
      names.push(error.option);
      limits = JSON.parse(JSON.stringify(limits).replace(/:0([,}])/, ':1$1'));
    }
    expect(names).toEqual([
      'limits.requestsPerSecond',
      'limits.maxInFlight',
      'limits.maxQueueWaitMs',
      'limits.perModel.a.burst',
      'limits.perModel.b.burst',
      'limits.perRouteFamily.query.burst',
    ]);
  });

  test('names the option with the name given, and returns the limits given', () => {
    const limits = { burst: 2 };
    expect(checkLimits(limits, 'RedisRateLimiter.limits')).toBe(limits);
    expect(refusal({ burst: 0 }, 'RedisRateLimiter.limits').option).toBe('RedisRateLimiter.limits.burst');
  });

  test('a limit a class instance inherits is checked too', () => {
    class Limits {
      get requestsPerSecond() {
        return 0;
      }
    }
    expect(refusal(new Limits()).option).toBe('limits.requestsPerSecond');
  });
});
