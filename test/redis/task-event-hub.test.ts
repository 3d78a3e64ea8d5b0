// Covers: src/redis/task-event-hub.ts
import { EventEmitter } from 'node:events';
import { createClient as createClient4 } from 'redis4';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type MediaGateway, TaskFailedError } from '../../src/index.js';
import {
  type RedisSubscriberClient,
  RedisTaskEventHub,
  RedisUnavailableError,
} from '../../src/redis/index.js';
import { createWebhookHandler } from '../../src/webhooks/index.js';
import { testClient } from '../helpers/client.js';
import { startTcpProxy, testRedis, uniquePrefix, waitUntil } from './helpers.js';
import {
  closeRedis,
  connectRedis,
  connectSubscriber,
  SECRETS,
  signedDelivery,
  startTaskApi,
  type TaskApi,
  type TestRedisClient,
  taskEvent,
} from './shared.js';

const redis = await testRedis();
afterAll(() => ('skip' in redis ? undefined : redis.stop()));

// Two replicas in one process, each with its own connections: A waits, B receives deliveries.
describe.skipIf('skip' in redis)('RedisTaskEventHub across replicas', () => {
  const prefix = uniquePrefix();
  const clients: TestRedisClient[] = [];
  const agent = new Agent({ keepAliveTimeout: 1_000 });
  let hubA: RedisTaskEventHub;
  let hubB: RedisTaskEventHub;
  let inspect: TestRedisClient;
  let api: TaskApi;
  let client: MediaGateway;
  let receiveOnB: (event: { id: string }) => Promise<Response>;

  const hub = async () => {
    const publisher = await connectRedis((redis as { url: string }).url);
    const subscriber = await connectSubscriber(publisher);
    clients.push(publisher, subscriber);
    return new RedisTaskEventHub({ publisher, subscriber, prefix });
  };

  beforeAll(async () => {
    if ('skip' in redis) return;
    [hubA, hubB, inspect, api] = await Promise.all([hub(), hub(), connectRedis(redis.url), startTaskApi()]);
    clients.push(inspect);
    client = testClient({ apiKey: 'sk-test', baseURL: api.url, dispatcher: agent });
    const handler = createWebhookHandler({ secrets: SECRETS, onEvent: hubB.publish, onError: () => {} });
    receiveOnB = (event) => {
      const { body, headers } = signedDelivery(event);
      return handler(new Request('http://replica-b.test/webhooks', { method: 'POST', body, headers }));
    };
  });
  afterAll(async () => {
    await Promise.all([hubA?.close(), hubB?.close()]);
    for (const c of clients) closeRedis(c);
    await new Promise((resolve) => (api ? api.server.close(resolve) : resolve(undefined)));
    await agent.close();
  });

  /** Resolves once replica A's hub has a wait registered and Redis confirmed its subscription. */
  const listening = async (taskId: string) => {
    await waitUntil(() => hubA.size.waiting > 0, `a wait for ${taskId}`);
    await waitUntil(async () => {
      const counts = (await inspect.sendCommand(['PUBSUB', 'NUMSUB', hubA.channel])) as [string, number];
      return counts[1] > 0;
    }, 'the subscription');
  };

  test('a wait on A ends when B receives the event, with one confirming query and no poll before', async () => {
    api.status.set('task_1', 'in_progress');
    const progress: string[] = [];
    const waiting = client.videos.waitForTask('task_1', {
      events: hubA,
      onProgress: (task) => progress.push(task.status),
    });
    await listening('task_1');
    expect(api.reads.get('task_1') ?? 0).toBe(0);
    api.status.set('task_1', 'completed');
    expect((await receiveOnB(taskEvent('evt_1', 'task_1'))).status).toBe(200);
    const task = await waiting;
    expect(task.status).toBe('completed');
    expect(api.reads.get('task_1')).toBe(1);
    expect(progress).toEqual(['completed']);
    expect(hubA.size.waiting).toBe(0);
  });

  test('a wait that starts after B received the event ends at once from the kept event', async () => {
    api.status.set('task_2', 'completed');
    expect((await receiveOnB(taskEvent('evt_2', 'task_2'))).status).toBe(200);
    const task = await client.videos.waitForTask('task_2', { events: hubA });
    expect(task.status).toBe('completed');
    expect(api.reads.get('task_2')).toBe(1);
    const ttl = await inspect.ttl(hubA.keyOf('task_2'));
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(600);
  });

  test('task.failed ends the wait with TaskFailedError after the confirming query', async () => {
    api.status.set('task_3', 'in_progress');
    const waiting = client.videos.waitForTask('task_3', { events: hubA }).catch((e: unknown) => e);
    await listening('task_3');
    api.status.set('task_3', 'failed');
    await receiveOnB(taskEvent('evt_3', 'task_3', 'task.failed'));
    const error = await waiting;
    expect(error).toBeInstanceOf(TaskFailedError);
    expect(api.reads.get('task_3')).toBe(1);
  });

  test('every wait for the task ends, on both replicas', async () => {
    const signal = new AbortController().signal;
    const waits = [
      hubA.waitFor('task_4', signal),
      hubA.waitFor('task_4', signal),
      hubB.waitFor('task_4', signal),
    ];
    await listening('task_4');
    await waitUntil(() => hubB.size.waiting === 1, 'the wait on B');
    await hubB.publish(taskEvent('evt_4', 'task_4'));
    const events = await Promise.all(waits);
    expect(events.map((e) => e.id)).toEqual(['evt_4', 'evt_4', 'evt_4']);
  });

  test('events that do not end a task are neither kept nor published', async () => {
    const batch = { id: 'evt_b', type: 'batch.completed', data: { task_id: 'task_5' } };
    await hubB.publish(batch);
    await hubB.publish({ id: 'evt_x', type: 'task.completed', data: {} });
    expect(await inspect.exists(hubB.keyOf('task_5'))).toBe(0);
  });

  test('an aborted wait rejects with the reason and stops listening; foreign messages are ignored', async () => {
    const controller = new AbortController();
    const waiting = hubA.waitFor('task_6', controller.signal);
    await listening('task_6');
    await inspect.publish(hubA.channel, 'not json');
    await inspect.publish(
      hubA.channel,
      JSON.stringify({ type: 'task.completed', data: { task_id: 'task_7' } }),
    );
    controller.abort(new Error('stop'));
    await expect(waiting).rejects.toThrow('stop');
    expect(hubA.size.waiting).toBe(0);
  });

  test('every key the hub writes has an expiry', async () => {
    const keys: string[] = [];
    for await (const batch of inspect.scanIterator({ MATCH: `${prefix}*`, COUNT: 100 })) keys.push(...batch);
    expect(keys.length).toBeGreaterThan(2);
    for (const key of keys) expect(await inspect.ttl(key)).toBeGreaterThan(0);
  });
});

/** A subscriber connection of the given node-redis major version, and how to close it. */
const subscribers = {
  'node-redis 5': async (url: string) => {
    const subscriber = await connectRedis(url);
    return { subscriber, close: () => closeRedis(subscriber) };
  },
  'node-redis 4': async (url: string) => {
    const subscriber = createClient4({ url, socket: { reconnectStrategy: () => 50 } });
    subscriber.on('error', () => {});
    await subscriber.connect();
    return { subscriber, close: () => subscriber.isOpen && subscriber.disconnect() };
  },
};

describe.skipIf('skip' in redis)('RedisTaskEventHub when its subscriber connection drops', () => {
  const cleanups: Array<() => unknown> = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  test.each(Object.keys(subscribers) as Array<keyof typeof subscribers>)(
    '%s: an event published while it is down ends a wait started meanwhile, once it is back',
    async (version) => {
      const { url } = redis as { url: string };
      // Only the subscriber goes through the proxy: the hub's publisher stays connected.
      const proxy = await startTcpProxy(Number(new URL(url).port));
      cleanups.push(() => proxy.close());
      const [publisher, other] = await Promise.all([connectRedis(url), connectRedis(url)]);
      const otherSubscriber = await connectSubscriber(other);
      const { subscriber, close } = await subscribers[version](proxy.url);
      cleanups.push(close, () => [publisher, other, otherSubscriber].forEach(closeRedis));
      const api = await startTaskApi();
      cleanups.push(() => new Promise((resolve) => api.server.close(resolve)));
      // The keys the hub has read, once Redis answered.
      const read: string[] = [];
      const counting = {
        sendCommand: async (args: string[]) => {
          const reply = await publisher.sendCommand(args);
          if (args[0] === 'GET') read.push(args[1]!);
          return reply;
        },
      };
      const prefix = uniquePrefix();
      const hub = new RedisTaskEventHub({ publisher: counting, subscriber, prefix });
      const elsewhere = new RedisTaskEventHub({ publisher: other, subscriber: otherSubscriber, prefix });
      cleanups.push(() => Promise.all([hub.close(), elsewhere.close()]));
      // The hub subscribed with an earlier wait, before the connection dropped.
      const earlier = new AbortController();
      const first = hub.waitFor('task_earlier', earlier.signal).catch(() => {});
      await waitUntil(() => read.length > 0, 'the earlier wait');
      earlier.abort();
      await first;

      proxy.cut();
      await waitUntil(() => !subscriber.isReady, 'the subscriber to notice');
      api.status.set('task_blip', 'completed');
      const gateway = testClient({ apiKey: 'sk-test', baseURL: api.url });
      const controller = new AbortController();
      const waiting = gateway.videos.waitForTask('task_blip', {
        events: hub,
        fallbackInterval: 60_000,
        signal: controller.signal,
      });
      waiting.catch(() => {});
      // The wait read the key before the event existed, and no message can reach it now.
      await waitUntil(() => read.includes(hub.keyOf('task_blip')), 'the wait to read its key');
      await elsewhere.publish(taskEvent('evt_blip', 'task_blip'));
      proxy.restore();

      // Its first poll is due in 60 s: only the event can end the wait sooner.
      let timer: ReturnType<typeof setTimeout> | undefined;
      const outcome = await Promise.race([
        waiting.then((task) => task.status),
        new Promise((resolve) => {
          timer = setTimeout(() => resolve('still waiting'), 8_000);
        }),
      ]);
      clearTimeout(timer);
      controller.abort();
      expect(outcome).toBe('completed');
      expect(api.reads.get('task_blip')).toBe(1);
    },
    15_000,
  );
});

describe('RedisTaskEventHub when Redis fails', () => {
  const failing = (): RedisSubscriberClient => ({
    subscribe: async () => {
      throw new Error('ECONNREFUSED');
    },
    unsubscribe: async () => {},
  });

  const silent = { sendCommand: () => new Promise<unknown>(() => {}) };

  test('waitFor rejects with RedisUnavailableError when it cannot subscribe', async () => {
    const hub = new RedisTaskEventHub({ publisher: silent, subscriber: failing(), timeoutMs: 20 });
    const error = await hub.waitFor('task_1', new AbortController().signal).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RedisUnavailableError);
    expect((error as RedisUnavailableError).command).toBe('SUBSCRIBE');
    expect(hub.size.waiting).toBe(0);
  });

  test('publish hands the event to the waits of this process first, then rejects when Redis does not answer', async () => {
    const hub = new RedisTaskEventHub({
      publisher: silent,
      subscriber: { subscribe: () => new Promise(() => {}), unsubscribe: async () => {} },
      timeoutMs: 200,
    });
    const waiting = hub.waitFor('task_2', new AbortController().signal);
    const published = hub.publish(taskEvent('evt_2', 'task_2'));
    expect((await waiting).id).toBe('evt_2');
    await expect(published).rejects.toThrow(/SET failed: no answer within 200 ms/);
  });

  test('close rejects the waits still listening', async () => {
    const hub = new RedisTaskEventHub({
      publisher: { sendCommand: async () => null },
      subscriber: { subscribe: async () => {}, unsubscribe: async () => {} },
    });
    const waiting = hub.waitFor('task_1', new AbortController().signal);
    await waitUntil(() => hub.size.waiting === 1, 'the wait');
    await hub.close();
    await expect(waiting).rejects.toThrow(/closed/);
    await expect(hub.waitFor('task_1', new AbortController().signal)).rejects.toThrow(/closed/);
  });

  test('once its subscriber is back, the hub confirms its subscription, then reads the keys of its waits', async () => {
    const sent: string[] = [];
    let stored: string | null = null;
    const connection = new EventEmitter();
    const hub = new RedisTaskEventHub({
      publisher: {
        sendCommand: async (args) => {
          sent.push(args.join(' '));
          return stored;
        },
      },
      // Like ioredis: 'ready' comes before the client subscribed again.
      subscriber: {
        subscribe: async () => sent.push('SUBSCRIBE'),
        unsubscribe: async () => {},
        on: (event, listener) => connection.on(event, listener),
        off: (event, listener) => connection.off(event, listener),
      },
      prefix: 'p:',
    });
    const signal = new AbortController().signal;
    const event = taskEvent('evt_1', 'task_1');
    const waits = [hub.waitFor('task_1', signal), hub.waitFor('task_1', signal, event)];
    await waitUntil(() => sent.length === 3, 'the waits to read the key');
    stored = JSON.stringify(event);
    connection.emit('ready');
    expect((await waits[0])?.id).toBe('evt_1');
    expect(sent).toEqual([
      'SUBSCRIBE',
      'GET p:event:task_1',
      'GET p:event:task_1',
      'SUBSCRIBE',
      'GET p:event:task_1',
    ]);
    // The wait that was handed this event before is not handed it again.
    expect(hub.size.waiting).toBe(1);
    await hub.close();
    await expect(waits[1]).rejects.toThrow(/closed/);
    expect(connection.listenerCount('ready')).toBe(0);
  });
});
