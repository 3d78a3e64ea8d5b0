// Covers: src/redis/dedupe-store.ts
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MediaGatewayError } from '../../src/core/base-error.js';
import { type RedisCommandClient, RedisDedupeStore, RedisUnavailableError } from '../../src/redis/index.js';
import { createWebhookHandler } from '../../src/webhooks/index.js';
import { testRedis, uniquePrefix, waitUntil } from './helpers.js';
import {
  closeRedis,
  connectRedis,
  SECRETS,
  signedDelivery,
  type TestRedisClient,
  taskEvent,
} from './shared.js';

const redis = await testRedis();
const HOURS = 3_600;

describe.skipIf('skip' in redis)('RedisDedupeStore against Redis', () => {
  const prefix = uniquePrefix();
  let a: TestRedisClient;
  let b: TestRedisClient;
  let inspect: TestRedisClient;

  beforeAll(async () => {
    if ('skip' in redis) return;
    [a, b, inspect] = await Promise.all([
      connectRedis(redis.url),
      connectRedis(redis.url),
      connectRedis(redis.url),
    ]);
  });
  afterAll(async () => {
    for (const client of [a, b, inspect]) if (client) closeRedis(client);
    if (!('skip' in redis)) await redis.stop();
  });

  const stores = (over: { leaseSeconds?: number } = {}) => [
    new RedisDedupeStore({ client: a, prefix, ...over }),
    new RedisDedupeStore({ client: b, prefix, ...over }),
  ];

  test('one claim wins; the key holds a pending claim that expires within the lease', async () => {
    const [first, second] = stores();
    const results = await Promise.all([first!.claim('evt_race'), second!.claim('evt_race')]);
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await first!.claim('evt_race')).toBe(false);
    const key = `${prefix}dedupe:evt_race`;
    expect(await inspect.get(key)).toMatch(/^pending:/);
    const ttl = await inspect.ttl(key);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(300);
  });

  test('markDone keeps the ID as "done" for ttlSeconds (96 hours by default)', async () => {
    const [first, second] = stores();
    expect(await first!.claim('evt_done')).toBe(true);
    await first!.markDone('evt_done');
    const key = first!.keyOf('evt_done');
    expect(await inspect.get(key)).toBe('done');
    const ttl = await inspect.ttl(key);
    expect(ttl).toBeGreaterThan(96 * HOURS - 60);
    expect(ttl).toBeLessThanOrEqual(96 * HOURS);
    expect(await second!.claim('evt_done')).toBe(false);
  });

  test('release frees only its own claim, so the next delivery is processed', async () => {
    const [first, second] = stores();
    expect(await first!.claim('evt_rel')).toBe(true);
    await second!.release('evt_rel'); // not second's claim: nothing happens
    expect(await inspect.get(first!.keyOf('evt_rel'))).toMatch(/^pending:/);
    await first!.release('evt_rel');
    expect(await inspect.exists(first!.keyOf('evt_rel'))).toBe(0);
    expect(await second!.claim('evt_rel')).toBe(true);
  });

  test('a stale owner neither deletes nor overwrites the claim another replica took after its lease lapsed', async () => {
    const [first, second] = stores();
    expect(await first!.claim('evt_stale')).toBe(true);
    await inspect.del(first!.keyOf('evt_stale')); // the lease lapsed
    expect(await second!.claim('evt_stale')).toBe(true);
    const held = await inspect.get(first!.keyOf('evt_stale'));
    await first!.markDone('evt_stale');
    await first!.release('evt_stale');
    expect(await inspect.get(first!.keyOf('evt_stale'))).toBe(held);
    await second!.markDone('evt_stale');
    expect(await inspect.get(first!.keyOf('evt_stale'))).toBe('done');
  });

  test('markDone after the lease lapsed with nobody else claiming still records the ID', async () => {
    const [first] = stores();
    expect(await first!.claim('evt_lapsed')).toBe(true);
    await inspect.del(first!.keyOf('evt_lapsed'));
    await first!.markDone('evt_lapsed');
    expect(await inspect.get(first!.keyOf('evt_lapsed'))).toBe('done');
  });

  test('a claim left by a replica that died inside onEvent lapses after leaseSeconds', async () => {
    let alive = true;
    // From Redis's side, a replica that died sends nothing more: no renewal, no release.
    const dying: RedisCommandClient = {
      sendCommand: (args) => (alive ? a.sendCommand(args) : Promise.reject(new Error('dead'))),
    };
    const first = new RedisDedupeStore({ client: dying, prefix, leaseSeconds: 1 });
    const [, second] = stores({ leaseSeconds: 1 });
    expect(await first.claim('evt_crash')).toBe(true);
    alive = false;
    expect(await second!.claim('evt_crash')).toBe(false);
    await waitUntil(async () => (await inspect.exists(first.keyOf('evt_crash'))) === 0, 'the lease', 60);
    expect(await second!.claim('evt_crash')).toBe(true);
  });

  test('forget deletes a handled ID, so a manual replay is processed again', async () => {
    const [first, second] = stores();
    await first!.claim('evt_replay');
    await first!.markDone('evt_replay');
    await second!.forget('evt_replay');
    expect(await second!.claim('evt_replay')).toBe(true);
  });

  test('every key the store writes has an expiry', async () => {
    const keys: string[] = [];
    for await (const batch of inspect.scanIterator({ MATCH: `${prefix}*`, COUNT: 100 })) keys.push(...batch);
    expect(keys.length).toBeGreaterThan(3);
    for (const key of keys) expect(await inspect.ttl(key)).toBeGreaterThan(0);
  });
});

/** A client that records commands and answers with `answer`. */
function fakeClient(answer: (args: string[]) => Promise<unknown>) {
  const sent: string[][] = [];
  const client: RedisCommandClient = {
    sendCommand: (args) => {
      sent.push(args);
      return answer(args);
    },
  };
  return { client, sent };
}

describe('RedisDedupeStore when Redis fails', () => {
  test('a failed claim throws RedisUnavailableError and withdraws the claim it may have left', async () => {
    const { client, sent } = fakeClient(async (args) => {
      if (args[0] === 'SET') throw new Error('Socket closed unexpectedly');
      return 0;
    });
    const store = new RedisDedupeStore({ client, prefix: 'p:' });
    const error = await store.claim('evt_1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RedisUnavailableError);
    expect((error as RedisUnavailableError).command).toBe('SET');
    const [set, withdraw] = sent;
    expect(set).toEqual(['SET', 'p:dedupe:evt_1', expect.stringMatching(/^pending:/), 'NX', 'EX', '300']);
    expect(withdraw?.[0]).toBe('EVAL');
    expect(withdraw?.slice(2)).toEqual(['1', 'p:dedupe:evt_1', set?.[2]]);
  });

  test('a claim that gets no answer within timeoutMs fails', async () => {
    const { client } = fakeClient(() => new Promise(() => {}));
    const store = new RedisDedupeStore({ client, timeoutMs: 20 });
    await expect(store.claim('evt_1')).rejects.toThrow(/SET failed: no answer within 20 ms/);
  });

  test('the webhook handler answers 500 and does not run onEvent when the store throws', async () => {
    const { client } = fakeClient(async () => {
      throw new Error('ECONNREFUSED');
    });
    let ran = 0;
    const handler = createWebhookHandler({
      secrets: SECRETS,
      dedupe: new RedisDedupeStore({ client }),
      onEvent: () => {
        ran++;
      },
      onError: () => {},
    });
    const { body, headers } = signedDelivery(taskEvent('evt_down', 'task_down'));
    const response = await handler(
      new Request('http://receiver.test/webhooks', { method: 'POST', body, headers }),
    );
    expect(response.status).toBe(500);
    expect(ran).toBe(0);
  });

  test.each([
    [{ ttlSeconds: 72 * HOURS - 1 }, /ttlSeconds must be a whole number of 259200 or more; got 259199/],
    [{ ttlSeconds: 1.5 * 72 * HOURS + 0.5 }, /ttlSeconds/],
    [{ leaseSeconds: 0 }, /leaseSeconds must be a whole number of 1 or more; got 0/],
    [{ timeoutMs: 0 }, /timeoutMs/],
    [{ maxHoldSeconds: 0 }, /maxHoldSeconds must be a whole number from 1 to 2147483; got 0/],
    [{ maxHoldSeconds: 2.5 }, /maxHoldSeconds/],
    // The handlers time the hold with one timer, which holds at most 2147483647 ms.
    [{ maxHoldSeconds: 2_147_484 }, /maxHoldSeconds must be a whole number from 1 to 2147483; got 2147484/],
  ])('refuses %o', (options, message) => {
    const { client } = fakeClient(async () => 'OK');
    expect(() => new RedisDedupeStore({ client, ...options })).toThrow(MediaGatewayError);
    expect(() => new RedisDedupeStore({ client, ...options })).toThrow(message);
  });
});
