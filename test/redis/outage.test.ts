// Covers: src/redis/client.ts
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { MediaGateway } from '../../src/index.js';
import { RedisDedupeStore, RedisTaskEventHub, RedisUnavailableError } from '../../src/redis/index.js';
import {
  createNodeWebhookHandler,
  createWebhookHandler,
  type HandledWebhookEvent,
} from '../../src/webhooks/index.js';
import { testClient } from '../helpers/client.js';
import {
  hasRedisServerBinary,
  type RedisServer,
  redisRequired,
  startRedisServer,
  waitUntil,
} from './helpers.js';
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

// This file stops a Redis mid-run, so it starts a private redis-server rather than share one.
const canStart = hasRedisServerBinary();
if (!canStart) {
  if (redisRequired)
    throw new Error('redis-server is not installed (scripts/redis-for-tests.sh installs it)');
  console.warn('mediagw/redis outage tests skipped: no redis-server binary to start and stop');
}

describe.skipIf(!canStart)('when Redis goes away mid-run', () => {
  const clients: TestRedisClient[] = [];
  const handled: string[] = [];
  let server: RedisServer;
  let hub: RedisTaskEventHub;
  let api: TaskApi;
  let gateway: MediaGateway;
  let receive: (event: { id: string }) => Promise<number>;
  // The same receiver mounted on node:http or Express, given the raw body as express.raw() does.
  let receiveOnNode: (event: { id: string }) => Promise<number>;

  beforeAll(async () => {
    server = await startRedisServer();
    const [store, publisher] = [await connectRedis(server.url), await connectRedis(server.url)];
    const subscriber = await connectSubscriber(publisher);
    clients.push(store, publisher, subscriber);
    hub = new RedisTaskEventHub({ publisher, subscriber, timeoutMs: 1_000 });
    api = await startTaskApi();
    gateway = testClient({ apiKey: 'sk-test', baseURL: api.url });
    const options = {
      secrets: SECRETS,
      dedupe: new RedisDedupeStore({ client: store, timeoutMs: 1_000 }),
      onEvent: async (event: HandledWebhookEvent) => {
        handled.push(event.id);
        await hub.publish(event);
      },
      onError: () => {},
    };
    const handler = createWebhookHandler(options);
    const nodeHandler = createNodeWebhookHandler(options);
    receiveOnNode = (event) =>
      new Promise((resolve) => {
        const { body, headers } = signedDelivery(event);
        const res = {
          statusCode: 0,
          setHeader: () => undefined,
          end: () => resolve(res.statusCode),
        };
        const req = {
          method: 'POST',
          headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v])),
          body: Buffer.from(body),
          async *[Symbol.asyncIterator]() {},
        };
        nodeHandler(req, res);
      });
    receive = async (event) => {
      const { body, headers } = signedDelivery(event);
      const response = await handler(
        new Request('http://receiver.test/webhooks', { method: 'POST', body, headers }),
      );
      return response.status;
    };
  });
  afterAll(async () => {
    await hub?.close();
    for (const client of clients) closeRedis(client);
    await new Promise((resolve) => (api ? api.server.close(resolve) : resolve(undefined)));
    await server?.stop();
  });

  test('before: a delivery is handled and a wait ends on its event', async () => {
    api.status.set('task_before', 'completed');
    const waiting = gateway.videos.waitForTask('task_before', { events: hub });
    await waitUntil(() => hub.size.waiting > 0, 'the wait');
    expect(await receive(taskEvent('evt_before', 'task_before'))).toBe(200);
    expect((await waiting).status).toBe('completed');
    expect(api.reads.get('task_before')).toBe(1);
  });

  test('during: deliveries are answered 500 without running onEvent, and waits fall back to polling', async () => {
    await server.kill();
    await waitUntil(() => clients.every((c) => !c.isReady), 'the clients to notice');

    expect(await receive(taskEvent('evt_during', 'task_during'))).toBe(500);
    expect(await receiveOnNode(taskEvent('evt_during_node', 'task_during'))).toBe(500);
    expect(handled).not.toContain('evt_during');
    expect(handled).not.toContain('evt_during_node');

    await expect(hub.waitFor('task_poll', new AbortController().signal)).rejects.toBeInstanceOf(
      RedisUnavailableError,
    );
    // The task is finished but no event can come: the wait polls at its (here short) fallback interval.
    api.status.set('task_poll', 'in_progress');
    const progress: string[] = [];
    const task = await gateway.videos.waitForTask('task_poll', {
      events: hub,
      fallbackInterval: 50,
      timeout: 10_000,
      onProgress: (t) => {
        progress.push(t.status);
        if (progress.length === 2) api.status.set('task_poll', 'completed');
      },
    });
    expect(task.status).toBe('completed');
    expect(progress).toEqual(['in_progress', 'in_progress', 'completed']);
  });

  test('after: the delivery that was answered 500 is processed on its retry, once', async () => {
    await server.start();
    await waitUntil(() => clients.every((c) => c.isReady), 'the clients to reconnect', 200);
    expect(await receive(taskEvent('evt_during', 'task_during'))).toBe(200);
    expect(await receive(taskEvent('evt_during', 'task_during'))).toBe(200);
    expect(handled.filter((id) => id === 'evt_during')).toEqual(['evt_during']);
    expect(await receiveOnNode(taskEvent('evt_during_node', 'task_during'))).toBe(200);
    expect(handled.filter((id) => id === 'evt_during_node')).toEqual(['evt_during_node']);
  });
});
