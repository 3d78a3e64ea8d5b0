// Covers: src/redis/task-event-hub.ts
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { RedisTaskEventHub } from '../../src/redis/index.js';
import { createWebhookHandler } from '../../src/webhooks/index.js';
import { type Child, startChild, stopChild, testRedis, uniquePrefix, waitUntil } from './helpers.js';
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

// This process receives the webhook deliveries; a child process waits for the task with the
// default 60-120 s fallback interval, so any poll before the event would show in the counts.
describe.skipIf('skip' in redis)('a wait in another process', () => {
  const url = (redis as { url: string }).url;
  const prefix = uniquePrefix();
  const clients: TestRedisClient[] = [];
  const children: Child[] = [];
  let hub: RedisTaskEventHub;
  let api: TaskApi;
  let receive: (event: { id: string }) => Promise<number>;

  beforeAll(async () => {
    if ('skip' in redis) return;
    const publisher = await connectRedis(url);
    const subscriber = await connectSubscriber(publisher);
    clients.push(publisher, subscriber);
    hub = new RedisTaskEventHub({ publisher, subscriber, prefix });
    api = await startTaskApi();
    const handler = createWebhookHandler({ secrets: SECRETS, onEvent: hub.publish, onError: () => {} });
    receive = async (event) => {
      const { body, headers } = signedDelivery(event);
      const response = await handler(
        new Request('http://receiver.test/webhooks', { method: 'POST', body, headers }),
      );
      return response.status;
    };
  });
  afterAll(async () => {
    await Promise.all(children.map(stopChild));
    await hub?.close();
    for (const client of clients) closeRedis(client);
    await new Promise((resolve) => (api ? api.server.close(resolve) : resolve(undefined)));
    if (!('skip' in redis)) await redis.stop();
  });

  const waitInChild = (taskId: string) => {
    const child = startChild('wait-process.ts', {
      REDIS_URL: url,
      PREFIX: prefix,
      BASE_URL: api.url,
      TASK_ID: taskId,
    });
    children.push(child);
    return {
      child,
      outcome: child.line((l) => l.startsWith('{')).then((l) => JSON.parse(l) as Record<string, unknown>),
    };
  };

  const subscribers = async () => {
    const [, count] = (await clients[0]!.sendCommand(['PUBSUB', 'NUMSUB', hub.channel])) as [string, number];
    return count;
  };

  test('the wait ends when this process receives the event, after one confirming query', async () => {
    api.status.set('task_child_1', 'in_progress');
    const { outcome } = waitInChild('task_child_1');
    // The child is listening once Redis counts a subscriber on the channel.
    await waitUntil(async () => (await subscribers()) > 0, 'the child to subscribe', 300);
    expect(api.reads.get('task_child_1') ?? 0).toBe(0);
    api.status.set('task_child_1', 'completed');
    expect(await receive(taskEvent('evt_child_1', 'task_child_1'))).toBe(200);
    expect(await outcome).toEqual({ status: 'completed', polls: 1 });
    expect(api.reads.get('task_child_1')).toBe(1);
  }, 30_000);

  test('the wait ends when the event arrived before the wait started', async () => {
    api.status.set('task_child_2', 'completed');
    expect(await receive(taskEvent('evt_child_2', 'task_child_2'))).toBe(200);
    const { outcome } = waitInChild('task_child_2');
    expect(await outcome).toEqual({ status: 'completed', polls: 1 });
    expect(api.reads.get('task_child_2')).toBe(1);
  }, 30_000);
});
