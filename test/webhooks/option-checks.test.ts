// Covers: src/webhooks/index.ts
import { describe, expect, test } from 'vitest';
import { InvalidOptionError } from '../../src/core/options.js';
import {
  createNodeWebhookHandler,
  createWebhookHandler,
  MemoryDedupeStore,
} from '../../src/webhooks/index.js';
import { SECRETS } from './fixtures.js';

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

describe('MemoryDedupeStore options', () => {
  test.each([
    ['maxEntries', [...BAD, 0]],
    ['ttlMs', [...BAD, 0, 2_147_483_648]],
  ] as const)('refuses %s [%s], naming it and the value', (option, values) => {
    for (const value of values) {
      const error = refusal(() => new MemoryDedupeStore({ [option]: value }));
      expect(error.option).toBe(`MemoryDedupeStore.${option}`);
      expect(Object.is(error.value, value)).toBe(true);
      expect(error.message).toContain(`MemoryDedupeStore.${option} must be`);
    }
  });

  test('takes the smallest and largest accepted values', async () => {
    const store = new MemoryDedupeStore({ maxEntries: 1, ttlMs: 2_147_483_647 });
    expect(await store.claimState('a')).toBe('claimed');
    expect(new MemoryDedupeStore({ ttlMs: 1 }).size).toBe(0);
  });
});

describe('webhook handler options', () => {
  // `{ [process.env.MEDIAGW_WEBHOOK_KEY_ID!]: secret }` with the variable unset was accepted as
  // the key ID "undefined", and every delivery was then refused unknown_key.
  test.each([
    ['a key ID of an unset variable', { [String(process.env.MEDIAGW_UNSET_VARIABLE_FOR_TEST)]: 'whsec_x' }],
    ['a secret of an unset variable', { kid_1: process.env.MEDIAGW_UNSET_VARIABLE_FOR_TEST as string }],
  ])('secrets with %s are refused at creation, asking whether the variable is set', (_name, secrets) => {
    for (const create of [createWebhookHandler, createNodeWebhookHandler]) {
      expect(() => create({ secrets, onEvent: () => {} })).toThrow(
        'secrets must be { [keyId]: secret } or [{ keyId, secret }], not empty: is each environment variable set?',
      );
    }
    expect(() =>
      createWebhookHandler({ secrets: { kid_undefined: 'whsec_x' }, onEvent: () => {} }),
    ).not.toThrow();
  });

  test.each([
    ['toleranceSeconds', [0.5, -1, Number.NaN, Number.POSITIVE_INFINITY]],
    ['maxBodyBytes', [...BAD, 0]],
  ] as const)('both handlers refuse %s [%s] at creation', (option, values) => {
    for (const make of [createWebhookHandler, createNodeWebhookHandler]) {
      for (const value of values) {
        const error = refusal(() => make({ secrets: SECRETS, onEvent: () => {}, [option]: value }));
        expect(error.option).toBe(option);
        expect(Object.is(error.value, value)).toBe(true);
      }
    }
  });

  test.each([
    ['no onEvent', { secrets: SECRETS }],
    ['an onEvent that is not a function', { secrets: SECRETS, onEvent: 'queue.add' }],
    ['no options at all', undefined],
    ['null options', null],
  ])('both handlers refuse %s at creation, naming onEvent', (_name, options) => {
    for (const make of [createWebhookHandler, createNodeWebhookHandler]) {
      const error = refusal(() => make(options as never));
      expect(error.option).toBe('onEvent');
      expect(error.message).toMatch(/^onEvent must be a function; got (undefined|"queue\.add")/);
    }
  });

  // A Redis client given as the store answered every delivery 500 ("dedupe.claim is not a function").
  test.each([
    ['a Redis client', { sendCommand: async () => null, isOpen: true }],
    ['a store with claimState alone', { claimState: async () => 'claimed', release: async () => undefined }],
  ])('both handlers refuse %s as the dedupe store at creation, naming dedupe.claim', (_name, dedupe) => {
    for (const make of [createWebhookHandler, createNodeWebhookHandler]) {
      const error = refusal(() => make({ secrets: SECRETS, onEvent: () => {}, dedupe: dedupe as never }));
      expect(error.option).toBe('dedupe.claim');
      expect(error.message).toMatch(/^dedupe\.claim must be a function; got undefined/);
    }
  });

  test('the Node handler refuses bodyTimeoutMs [0.5, -1, NaN, Infinity, 0, 2147483648] at creation', () => {
    for (const value of [...BAD, 0, 2_147_483_648]) {
      const error = refusal(() =>
        createNodeWebhookHandler({ secrets: SECRETS, onEvent: () => {}, bodyTimeoutMs: value }),
      );
      expect(error.option).toBe('bodyTimeoutMs');
      expect(Object.is(error.value, value)).toBe(true);
    }
    expect(() =>
      createNodeWebhookHandler({ secrets: SECRETS, onEvent: () => {}, bodyTimeoutMs: 1 }),
    ).not.toThrow();
  });

  test('take toleranceSeconds 0 and maxBodyBytes 1', () => {
    expect(() =>
      createWebhookHandler({ secrets: SECRETS, onEvent: () => {}, toleranceSeconds: 0, maxBodyBytes: 1 }),
    ).not.toThrow();
  });

  // A store's hold limit arms a timer per delivery: past setTimeout's range (2^31 ms) the timer
  // would fire at once, and every onEvent would be taken as hung.
  test('both handlers refuse a dedupe store whose maxHoldSeconds is [0.5, -1, NaN, Infinity, 0, 2147484]', () => {
    const store = (maxHoldSeconds: number) => ({
      claim: async () => true,
      release: async () => undefined,
      maxHoldSeconds,
    });
    for (const make of [createWebhookHandler, createNodeWebhookHandler]) {
      for (const value of [...BAD, 0, 2_147_484]) {
        const error = refusal(() => make({ secrets: SECRETS, onEvent: () => {}, dedupe: store(value) }));
        expect(error.option).toBe('maxHoldSeconds');
        expect(Object.is(error.value, value)).toBe(true);
        expect(error.message).toMatch(/^maxHoldSeconds must be a whole number from 1 to 2147483/);
      }
      for (const value of [1, 2_147_483]) {
        expect(() => make({ secrets: SECRETS, onEvent: () => {}, dedupe: store(value) })).not.toThrow();
      }
      // A store without a hold limit holds an onEvent for as long as it runs.
      expect(() =>
        make({
          secrets: SECRETS,
          onEvent: () => {},
          dedupe: { claim: async () => true, release: async () => undefined },
        }),
      ).not.toThrow();
    }
  });
});
