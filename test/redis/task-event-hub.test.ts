import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MediaGateway, TaskFailedError } from '../../src/index.js';
import {
  type RedisSubscriberClient,
  RedisTaskEventHub,
  RedisUnavailableError,
} from '../../src/redis/index.js';
import { createWebhookHandler } from '../../src/webhooks/index.js';
import { testRedis, uniquePrefix, waitUntil } from './helpers.js';
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
    client = new MediaGateway({ apiKey: 'sk-test', baseURL: api.url, maxRetries: 0, dispatcher: agent });
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
    if (!('skip' in redis)) await redis.stop();
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
});
