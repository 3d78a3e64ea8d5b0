// Covers: src/redis/dedupe-store.ts
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { RedisDedupeStore } from '../../src/redis/index.js';
import {
  createNodeWebhookHandler,
  createWebhookHandler,
  type HandledWebhookEvent,
  type WebhookHandlerOptions,
} from '../../src/webhooks/index.js';
import { type Child, startChild, stopChild, testRedis, uniquePrefix } from './helpers.js';
import {
  closeRedis,
  connectRedis,
  SECRETS,
  signedDelivery,
  type TestRedisClient,
  taskEvent,
} from './shared.js';

const redis = await testRedis();

/** A receiver replica: answers one delivery; `processed()` lists the event IDs its onEvent ran for. */
interface Receiver {
  name: string;
  deliver(event: { id: string }): Promise<number>;
  processed(): Promise<string[]>;
}

/** A small seeded generator, so a failing order can be replayed. */
function random(seed: number): () => number {
  return () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed / 2_147_483_648;
  };
}

function shuffle<T>(items: T[], next: () => number): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

describe.skipIf('skip' in redis)('webhook receivers sharing one Redis', () => {
  const url = (redis as { url: string }).url;
  const prefix = uniquePrefix();
  const clients: TestRedisClient[] = [];
  const servers: Server[] = [];
  const children: Child[] = [];
  const agent = new Agent({ keepAliveTimeout: 1_000, connections: 16 });
  let inspect: TestRedisClient;

  const post = async (base: string, event: { id: string }) => {
    const { body, headers } = signedDelivery(event);
    const response = await request(`${base}/webhooks`, { method: 'POST', body, headers, dispatcher: agent });
    await response.body.dump();
    return response.statusCode;
  };

  /** Options of an in-process replica, over a connection of its own. */
  const replica = async (onEvent: WebhookHandlerOptions['onEvent']) => {
    const client = await connectRedis(url);
    clients.push(client);
    const dedupe = new RedisDedupeStore({ client, prefix });
    return { secrets: SECRETS, dedupe, onEvent, onError: () => {} };
  };

  /** A replica in this process behind node:http (createNodeWebhookHandler). */
  const nodeReceiver = async (name: string, onEvent = recorder()): Promise<Receiver> => {
    const server = createServer(createNodeWebhookHandler(await replica(onEvent.run)));
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return { name, deliver: (event) => post(base, event), processed: async () => onEvent.ids };
  };

  /** A replica in this process called as a Fetch API route (createWebhookHandler). */
  const fetchReceiver = async (name: string, onEvent = recorder()): Promise<Receiver> => {
    const handler = createWebhookHandler(await replica(onEvent.run));
    const deliver = async (event: { id: string }) => {
      const { body, headers } = signedDelivery(event);
      const response = await handler(
        new Request('http://replica.test/webhooks', { method: 'POST', body, headers }),
      );
      return response.status;
    };
    return { name, deliver, processed: async () => onEvent.ids };
  };

  /** A replica in a child process. */
  const childReceiver = async (name: string): Promise<Receiver> => {
    const child = startChild('receiver-process.ts', { REDIS_URL: url, PREFIX: prefix });
    children.push(child);
    const port = (await child.line((l) => l.startsWith('READY '))).slice('READY '.length);
    const base = `http://127.0.0.1:${port}`;
    const processed = async () => {
      const response = await request(`${base}/processed`, { dispatcher: agent });
      return (await response.body.json()) as string[];
    };
    return { name, deliver: (event) => post(base, event), processed };
  };

  beforeAll(async () => {
    if ('skip' in redis) return;
    inspect = await connectRedis(url);
    clients.push(inspect);
  });
  afterAll(async () => {
    await Promise.all(children.map(stopChild));
    for (const server of servers) server.closeAllConnections();
    await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
    for (const client of clients) closeRedis(client);
    await agent.close();
    if (!('skip' in redis)) await redis.stop();
  });

  test('200 deliveries of 50 events, duplicated and shuffled across 4 receivers (2 of them child processes): onEvent runs 50 times', async () => {
    const receivers = await Promise.all([
      nodeReceiver('node'),
      fetchReceiver('fetch'),
      childReceiver('child-1'),
      childReceiver('child-2'),
    ]);
    const next = random(20_261_003);
    const events = Array.from({ length: 50 }, (_, i) => taskEvent(`evt_many_${i}`, `task_many_${i}`));
    // Each event reaches every receiver once, in a shuffled order across all 200 deliveries.
    const deliveries = shuffle(
      events.flatMap((event) => receivers.map((receiver) => ({ event, receiver }))),
      next,
    );
    expect(deliveries).toHaveLength(200);
    const statuses: number[] = [];
    let cursor = 0;
    const worker = async () => {
      while (cursor < deliveries.length) {
        const { event, receiver } = deliveries[cursor++]!;
        statuses.push(await receiver.deliver(event));
      }
    };
    await Promise.all(Array.from({ length: 24 }, worker));

    expect(statuses).toHaveLength(200);
    // 200 once handled; 503 while another receiver was still handling the event.
    expect(statuses.every((s) => s === 200 || s === 503)).toBe(true);
    // The gateway's retries after a 503 find every event done.
    const retries = await Promise.all(events.map((event, i) => receivers[i % 4]!.deliver(event)));
    expect(retries.every((s) => s === 200)).toBe(true);
    const processed = (await Promise.all(receivers.map((r) => r.processed()))).flat();
    expect(processed).toHaveLength(50);
    expect(new Set(processed)).toEqual(new Set(events.map((e) => e.id)));
    for (const event of events) {
      const key = `${prefix}dedupe:${event.id}`;
      expect(await inspect.get(key)).toBe('done');
      expect(await inspect.ttl(key)).toBeGreaterThan(72 * 3_600);
    }
  }, 40_000);

  test('onEvent throws on its first call: the retried delivery is processed on another receiver', async () => {
    const flaky = recorder({ failFirst: true });
    const steady = recorder();
    const first = await nodeReceiver('flaky', flaky);
    const second = await fetchReceiver('steady', steady);
    const event = taskEvent('evt_retry', 'task_retry');

    expect(await first.deliver(event)).toBe(500);
    expect(flaky.calls).toBe(1);
    expect(await inspect.exists(`${prefix}dedupe:evt_retry`)).toBe(0);
    // The gateway's retry (new delivery ID, timestamp and signature) lands on the other replica.
    expect(await second.deliver(event)).toBe(200);
    expect(steady.ids).toEqual(['evt_retry']);
    // Later duplicates are dropped wherever they land.
    expect(await first.deliver(event)).toBe(200);
    expect(await second.deliver(event)).toBe(200);
    expect(flaky.calls).toBe(1);
    expect(flaky.ids).toEqual([]);
    expect(steady.ids).toEqual(['evt_retry']);
  });
});

/** An onEvent that records the IDs it handled, optionally throwing on its first call. */
function recorder({ failFirst = false } = {}) {
  const state = {
    ids: [] as string[],
    calls: 0,
    run: async (event: HandledWebhookEvent) => {
      state.calls++;
      await new Promise((resolve) => setTimeout(resolve, 5));
      if (failFirst && state.calls === 1) throw new Error('database unavailable');
      state.ids.push(event.id);
    },
  };
  return state;
}
