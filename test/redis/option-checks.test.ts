// Covers: src/redis/index.ts
// Option checks need no Redis: they run at construction, before any command.
import { describe, expect, test } from 'vitest';
import { InvalidOptionError } from '../../src/core/options.js';
import { RedisDedupeStore, RedisRateLimiter, RedisTaskEventHub } from '../../src/redis/index.js';

const client = {
  sendCommand: async () => {
    throw new Error('no command may be sent');
  },
};
const subscriber = { subscribe: async () => {}, unsubscribe: async () => {} };
const BAD = [0.5, -1, Number.NaN, Number.POSITIVE_INFINITY];

function refusal(make: () => unknown): InvalidOptionError {
  let caught: unknown;
  try {
    make();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(InvalidOptionError);
  return caught as InvalidOptionError;
}

describe.each([
  ['RedisDedupeStore', (o: object) => new RedisDedupeStore({ client, ...o })],
  ['RedisTaskEventHub', (o: object) => new RedisTaskEventHub({ publisher: client, subscriber, ...o })],
] as const)('%s options', (name, make) => {
  const table: Record<string, readonly number[]> =
    name === 'RedisDedupeStore'
      ? {
          ttlSeconds: [...BAD, 0, 72 * 3_600 - 1],
          leaseSeconds: [...BAD, 0],
          maxHoldSeconds: [...BAD, 0],
          timeoutMs: [...BAD, 0, 2_147_483_648],
        }
      : { keepSeconds: [...BAD, 0], timeoutMs: [...BAD, 0, 2_147_483_648] };

  test.each(Object.entries(table))('refuses %s [%s], naming it and the value', (option, values) => {
    for (const value of values) {
      const error = refusal(() => make({ [option]: value }));
      expect(error.option).toBe(`${name}.${option}`);
      expect(Object.is(error.value, value)).toBe(true);
    }
  });

  test('takes the edges of each range', () => {
    const edges =
      name === 'RedisDedupeStore'
        ? { ttlSeconds: 72 * 3_600, leaseSeconds: 1, maxHoldSeconds: 1, timeoutMs: 2_147_483_647 }
        : { keepSeconds: 1, timeoutMs: 1 };
    expect(() => make(edges)).not.toThrow();
  });
});

describe('RedisRateLimiter options', () => {
  const make = (o: object) => new RedisRateLimiter({ client, apiKey: 'k', limits: {}, ...o });

  test.each(
    Object.entries({
      expectedReplicas: [...BAD, 0],
      leaseMs: [...BAD, 0, 2, 2_147_483_648],
      pollMs: [...BAD, 0],
      retryRedisMs: [...BAD, 0],
      timeoutMs: [...BAD, 0, 2_147_483_648],
    }),
  )('refuses %s [%s], naming it and the value', (option, values) => {
    for (const value of values) {
      const error = refusal(() => make({ [option]: value }));
      expect(error.option).toBe(`RedisRateLimiter.${option}`);
      expect(Object.is(error.value, value)).toBe(true);
    }
  });

  test('refuses a limit out of range, naming it as written', () => {
    const error = refusal(() => make({ limits: { perModel: { '*': { maxInFlight: 0 } } } }));
    expect(error.option).toBe('RedisRateLimiter.limits.perModel.*.maxInFlight');
  });

  test('takes the edges of each range', () => {
    expect(() =>
      make({ expectedReplicas: 1, leaseMs: 3, pollMs: 1, retryRedisMs: 2_147_483_647, timeoutMs: 1 }),
    ).not.toThrow();
  });
});

// The client itself passed where the options go, an ioredis client without its adapter, or no
// client: each store failed later, at its first command, as a Redis outage ("Cannot read
// properties of undefined (reading 'sendCommand')"), or the hub with a TypeError.
describe('the Redis client options', () => {
  const redisLike = { get: async () => null, set: async () => 'OK', call: async () => null };
  test.each([
    [
      'the store given the client as its options',
      () => new RedisDedupeStore(redisLike as never),
      'RedisDedupeStore.client',
    ],
    ['the store without a client', () => new RedisDedupeStore({} as never), 'RedisDedupeStore.client'],
    [
      'the store with an ioredis-like client',
      () => new RedisDedupeStore({ client: redisLike as never }),
      'RedisDedupeStore.client',
    ],
    [
      'the limiter without a client',
      () => new RedisRateLimiter({ apiKey: 'k', limits: {} } as never),
      'RedisRateLimiter.client',
    ],
    [
      'the hub given the client as its options',
      () => new RedisTaskEventHub(redisLike as never),
      'RedisTaskEventHub.publisher',
    ],
  ])('%s: refused at construction, naming the option', (_name, make, option) => {
    const error = refusal(make);
    expect(error.option).toBe(option);
    expect(error.message).toMatch(
      new RegExp(
        `^${option.replace('.', '\\.')} must be a connected Redis client \\(with sendCommand\\); got (undefined|object)`,
      ),
    );
  });

  test('a client with sendCommand is taken', () => {
    expect(() => new RedisDedupeStore({ client })).not.toThrow();
    expect(() => new RedisRateLimiter({ client, apiKey: 'k', limits: {} })).not.toThrow();
    expect(() => new RedisTaskEventHub({ publisher: client, subscriber })).not.toThrow();
  });
});
