// Covers: src/core/base-error.ts
/**
 * The brand behind `instanceof`: every exported error class carries its name under
 * `Symbol.for('mediagw.error')`, so that an error made by one copy of the SDK is an instance of
 * the classes of another (the published package holds a copy per entry point and per build).
 * A second copy is made here by loading the sources again after `vi.resetModules()`.
 */
import { beforeAll, describe, expect, test, vi } from 'vitest';
import { ERROR_BRAND, MediaGatewayError } from '../../src/core/base-error.js';
import * as sdk from '../../src/index.js';
import { NotSentError } from '../../src/internal/retry-policy.js';
import * as redis from '../../src/redis/index.js';
import * as testing from '../../src/testing/index.js';
import * as webhooks from '../../src/webhooks/index.js';

type ErrorClass = abstract new (...args: never[]) => Error;

/** The error classes an entry exports (those that extend MediaGatewayError), by name. */
function errorClasses(entry: object, base: ErrorClass = MediaGatewayError): Map<string, ErrorClass> {
  const found = new Map<string, ErrorClass>();
  for (const [name, value] of Object.entries(entry)) {
    if (typeof value !== 'function') continue;
    // The ordinary prototype check: the brand is what is under test.
    const ordinary = Function.prototype[Symbol.hasInstance].call(base, value.prototype);
    if (value === base || ordinary) found.set(name, value as ErrorClass);
  }
  return found;
}

const entries = {
  mediagw: sdk,
  'mediagw/webhooks': webhooks,
  'mediagw/redis': redis,
  'mediagw/testing': testing,
};
const classes = new Map(Object.values(entries).flatMap((entry) => [...errorClasses(entry)]));

/** An instance of `cls`, made without its constructor: `instanceof` reads only the class. */
const instance = (cls: ErrorClass) => Object.create(cls.prototype) as Error;
const ordinaryCheck = (cls: ErrorClass, value: unknown) =>
  Function.prototype[Symbol.hasInstance].call(cls, value);

describe('the brands', () => {
  test('the entries export the error classes this test expects', () => {
    // A guard on the filter above, so that the tests below cannot pass on an empty list.
    expect([...classes.keys()]).toEqual(
      expect.arrayContaining([
        'MediaGatewayError',
        'APIError',
        'RateLimitError',
        'MediaLibraryError',
        'TaskFailedError',
        'FileWriteError',
        'InvalidOptionError',
        'QueueTimeoutError',
        'WebhookVerificationError',
        'RedisUnavailableError',
      ]),
    );
    expect(classes.size).toBeGreaterThanOrEqual(30);
  });

  test('every exported error class has a brand of its own: its name, written out', () => {
    const missing = [...classes]
      .filter(([name, cls]) => !Object.hasOwn(cls, ERROR_BRAND) || (cls as never)[ERROR_BRAND] !== name)
      .map(([name]) => name);
    expect(missing).toEqual([]);
  });

  test('the key is registered, so every copy of the SDK reads the same one', () => {
    expect(ERROR_BRAND).toBe(Symbol.for('mediagw.error'));
  });
});

describe('within one copy, instanceof is the ordinary prototype check', () => {
  test('for every pair of exported error classes', () => {
    const differ: string[] = [];
    for (const [a, classA] of classes) {
      for (const [b, classB] of classes) {
        const value = instance(classA);
        if (value instanceof classB !== ordinaryCheck(classB, value)) differ.push(`${a} instanceof ${b}`);
      }
    }
    expect(differ).toEqual([]);
  });

  test('a subclass without a brand (one of the SDK, or of a user) keeps the prototype check', () => {
    class MyRateLimitError extends sdk.RateLimitError {}
    const mine = instance(MyRateLimitError);
    expect(mine).toBeInstanceOf(MyRateLimitError);
    expect(mine).toBeInstanceOf(sdk.RateLimitError);
    expect(mine).toBeInstanceOf(sdk.APIError);
    expect(instance(sdk.RateLimitError)).not.toBeInstanceOf(MyRateLimitError);
    // The retry policy tells a connection that never sent a byte by this internal subclass.
    expect(new NotSentError('x')).toBeInstanceOf(sdk.APIConnectionError);
    expect(new sdk.APIConnectionError('x')).not.toBeInstanceOf(NotSentError);
  });

  test.each([
    ['null', null],
    ['undefined', undefined],
    ['a string', 'RateLimitError'],
    ['a number', 429],
    ['a plain object', {}],
    ['an object with no prototype', Object.create(null)],
    ['a plain Error', new Error('x')],
    ['the class itself', sdk.RateLimitError],
    ['an object whose constructor is not a class', { constructor: 5 }],
    ['an object naming an error class as its own constructor', { constructor: sdk.RateLimitError }],
    [
      'a Proxy whose getPrototypeOf trap throws',
      new Proxy(
        {},
        {
          getPrototypeOf() {
            throw new Error('trap');
          },
        },
      ),
    ],
    ['a revoked Proxy', revoked()],
  ])('%s is no error of the SDK, and instanceof does not throw', (_, value) => {
    for (const cls of [
      MediaGatewayError,
      sdk.APIError,
      sdk.RateLimitError,
      webhooks.WebhookVerificationError,
    ])
      expect(value instanceof cls).toBe(false);
  });

  test('an instance whose constructor property is a throwing getter is still one, by its prototype', () => {
    const value = instance(sdk.RateLimitError);
    Object.defineProperty(value, 'constructor', {
      get() {
        throw new Error('constructor read');
      },
    });
    expect(value instanceof sdk.RateLimitError).toBe(true);
    expect(value instanceof webhooks.WebhookVerificationError).toBe(false);
  });

  test('an unbranded class answers a revoked Proxy as the ordinary check does: with a TypeError', () => {
    class MyError extends sdk.APIError {}
    const value = revoked();
    expect(() => ordinaryCheck(MyError, value)).toThrow(TypeError);
    expect(() => value instanceof MyError).toThrow(TypeError);
  });
});

/** A Proxy revoked before use: every operation on it throws a TypeError. */
function revoked(): object {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
}

describe('across copies of the SDK', () => {
  let other: Map<string, ErrorClass>;
  let otherSdk: typeof sdk;
  let otherWebhooks: typeof webhooks;

  beforeAll(async () => {
    vi.resetModules();
    otherSdk = await import('../../src/index.js');
    otherWebhooks = await import('../../src/webhooks/index.js');
    const otherRedis = await import('../../src/redis/index.js');
    other = new Map(
      [otherSdk, otherWebhooks, otherRedis].flatMap((entry) => [
        ...errorClasses(entry, otherSdk.MediaGatewayError),
      ]),
    );
  });

  test('the second copy has classes of its own', () => {
    expect([...other.keys()].sort()).toEqual([...classes.keys()].sort());
    expect(other.get('RateLimitError')).not.toBe(sdk.RateLimitError);
    // Without the brand, the ordinary check would fail across copies.
    expect(ordinaryCheck(sdk.RateLimitError, instance(other.get('RateLimitError')!))).toBe(false);
  });

  test('an error of either copy is an instance of the same classes of both, and of no other', () => {
    const differ: string[] = [];
    const answers = new Set<boolean>();
    for (const [a, classA] of other) {
      for (const [b, classB] of classes) {
        // The answer within one copy, where both copies have the same classes.
        const expected = ordinaryCheck(classB, instance(classes.get(a)!));
        answers.add(expected);
        if (instance(classA) instanceof classB !== expected) differ.push(`other ${a} instanceof ${b}`);
        if (instance(classes.get(a)!) instanceof other.get(b)! !== expected)
          differ.push(`${a} instanceof other ${b}`);
      }
    }
    expect(differ).toEqual([]);
    expect([...answers].sort()).toEqual([false, true]);
  });

  test('errors the other copy throws, as a caller catches them', () => {
    const notFound = otherSdk.APIError.fromResponse({
      status: 404,
      body: { error: { message: 'invalid_asset_material: assets[1] missing', type: 'media_library_error' } },
      headers: {},
      requestId: 'req_1',
      operation: 'GET /v1/vidmodel2/private-avatar/assets/a',
    });
    expect(notFound).toBeInstanceOf(sdk.NotFoundError);
    expect(notFound).toBeInstanceOf(sdk.MediaLibraryError);
    expect(notFound).toBeInstanceOf(sdk.APIError);
    expect(notFound).not.toBeInstanceOf(sdk.ConflictError);

    const option = (() => {
      try {
        new otherSdk.MediaGateway({ apiKey: 'k', baseURL: 'https://gw.example', timeout: Number.NaN });
      } catch (error) {
        return error;
      }
    })();
    expect(option).toBeInstanceOf(webhooks.InvalidOptionError);
    expect(option).toBeInstanceOf(redis.InvalidOptionError);
    expect(option).not.toBeInstanceOf(sdk.RequestValidationError);

    const failed = new otherSdk.TaskFailedError('task_1', { id: 'task_1' } as never, 'x', 'no', 'video');
    expect(failed).toBeInstanceOf(sdk.TaskFailedError);
    expect(failed).not.toBeInstanceOf(sdk.WaitTimeoutError);

    const verification = new otherWebhooks.WebhookVerificationError('unknown_key', 'x');
    expect(verification).toBeInstanceOf(webhooks.WebhookVerificationError);
    expect(verification).toBeInstanceOf(MediaGatewayError);
  });
});
