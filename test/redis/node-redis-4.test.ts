// Covers: src/redis/client.ts
import { createClient } from 'redis4';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { RedisDedupeStore, RedisRateLimiter, RedisTaskEventHub } from '../../src/redis/index.js';
import { testRedis, uniquePrefix, waitUntil } from './helpers.js';
import { taskEvent } from './shared.js';

// The README and docs/scaling.md say node-redis 4 clients fit as they are, like 5's: the other
// Redis tests run on 5, this one runs the same pieces on a 4.x client.
const redis = await testRedis();

type Client4 = ReturnType<typeof createClient>;

describe.skipIf('skip' in redis)('mediagw/redis on a node-redis 4 client, as it is', () => {
  const prefix = uniquePrefix();
  const clients: Client4[] = [];
  const connect = async (client: Client4 = createClient({ url: (redis as { url: string }).url })) => {
    client.on('error', () => {});
    await client.connect();
    clients.push(client);
    return client;
  };
  let store: RedisDedupeStore;
  let hubs: RedisTaskEventHub[];

  beforeAll(async () => {
    const client = await connect();
    expect((await client.sendCommand(['INFO', 'server'])) as string).toContain('redis_version');
    store = new RedisDedupeStore({ client, prefix });
    hubs = [];
    for (let i = 0; i < 2; i++) {
      const publisher = await connect();
      const subscriber = await connect(publisher.duplicate());
      hubs.push(new RedisTaskEventHub({ publisher, subscriber, prefix }));
    }
  });
  afterAll(async () => {
    for (const hub of hubs ?? []) await hub.close();
    for (const client of clients) await client.quit().catch(() => undefined);
    if (!('skip' in redis)) await redis.stop();
  });

  test('the dedupe store claims an event ID once, releases it, and keeps it once handled', async () => {
    expect(await store.claim('evt_v4_1')).toBe(true);
    expect(await store.claim('evt_v4_1')).toBe(false);
    await store.release('evt_v4_1');
    expect(await store.claim('evt_v4_1')).toBe(true);
    await store.markDone('evt_v4_1');
    expect(await store.claim('evt_v4_1')).toBe(false);
  });

  test('an event published on one hub ends a wait on the other, and a later wait still sees it', async () => {
    const [waiting, receiving] = hubs as [RedisTaskEventHub, RedisTaskEventHub];
    const signal = new AbortController().signal;
    const wait = waiting.waitFor('task_v4', signal);
    await waitUntil(() => waiting.size.waiting > 0, 'the wait to listen');
    await receiving.publish(taskEvent('evt_v4_2', 'task_v4'));
    expect((await wait).id).toBe('evt_v4_2');
    expect((await waiting.waitFor('task_v4', signal)).id).toBe('evt_v4_2');
  });

  test('a pause one rate limiter publishes reaches another through its subscriber', async () => {
    const limiters = [];
    for (let i = 0; i < 2; i++) {
      const client = await connect();
      const subscriber = await connect(client.duplicate());
      limiters.push(
        new RedisRateLimiter({
          client,
          subscriber,
          apiKey: 'mgw_test_v4',
          prefix,
          limits: { maxInFlight: 4 },
        }),
      );
    }
    const [paused, listening] = limiters as [RedisRateLimiter, RedisRateLimiter];
    const request = { model: 'vidmodel-2.5', family: 'creation' } as const;
    for (const limiter of limiters) (await limiter.acquire(request)).release();
    await waitUntil(async () => {
      const channel = `${prefix}rl:{${(await sha256('mgw_test_v4')).slice(0, 32)}}:pauses`;
      const reply = (await clients[0]!.sendCommand(['PUBSUB', 'NUMSUB', channel])) as unknown[];
      return Number(reply[1]) === 2;
    }, 'both subscriptions');
    paused.pause('vidmodel-2.5', 'creation', 30_000);
    await waitUntil(() => listening.pausedFor('vidmodel-2.5', 'creation') > 20_000, 'the pause message');
    for (const limiter of limiters) await limiter.close();
  });
});

async function sha256(text: string): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return Buffer.from(digest).toString('hex');
}
