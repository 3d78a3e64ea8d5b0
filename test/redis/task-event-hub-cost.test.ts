// Covers: src/redis/task-event-hub.ts
// What one wait costs: Redis commands seen by MONITOR, and task queries seen by the task API.
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type MediaGateway, WaitTimeoutError } from '../../src/index.js';
import { RedisTaskEventHub } from '../../src/redis/index.js';
import { testClient } from '../helpers/client.js';
import { testRedis, uniquePrefix } from './helpers.js';
import {
  closeRedis,
  connectRedis,
  connectSubscriber,
  startTaskApi,
  type TaskApi,
  type TestRedisClient,
  taskEvent,
} from './shared.js';

const redis = await testRedis();
// After every describe of the file: a Redis the file started for itself serves them all.
afterAll(() => ('skip' in redis ? undefined : redis.stop()));

describe.skipIf('skip' in redis)('one wait on RedisTaskEventHub', () => {
  const prefix = uniquePrefix();
  const clients: TestRedisClient[] = [];
  const agent = new Agent({ keepAliveTimeout: 1_000 });
  /** Commands naming this file's prefix, as MONITOR saw them (scripts' inner calls left out). */
  const seen: string[] = [];
  let hub: RedisTaskEventHub;
  let inspect: TestRedisClient;
  let api: TaskApi;
  let client: MediaGateway;

  beforeAll(async () => {
    if ('skip' in redis) return;
    const publisher = await connectRedis(redis.url);
    const subscriber = await connectSubscriber(publisher);
    inspect = await connectRedis(redis.url);
    const monitor = await connectRedis(redis.url);
    clients.push(publisher, subscriber, inspect, monitor);
    await monitor.monitor((line: string) => {
      if (line.includes(prefix) && !/\[\d+ lua\]/.test(line)) seen.push(line);
    });
    hub = new RedisTaskEventHub({ publisher, subscriber, prefix });
    api = await startTaskApi();
    client = testClient({ apiKey: 'sk-test', baseURL: api.url, dispatcher: agent });
  });
  afterAll(async () => {
    await hub?.close();
    for (const c of clients) closeRedis(c);
    await new Promise((resolve) => (api ? api.server.close(resolve) : resolve(undefined)));
    await agent.close();
  });

  /** Waits 3 s for `taskId`, with the default fallback interval, and counts what it cost. */
  async function costOfWait(taskId: string) {
    const before = seen.length;
    const error = await client.videos
      .waitForTask(taskId, { events: hub, timeout: 3_000 })
      .catch((e: unknown) => e);
    // MONITOR lines trail the commands a little: wait for the PING behind them.
    const marker = `${prefix}marker:${taskId}`;
    await inspect.get(marker);
    for (let i = 0; i < 100 && !seen.slice(before).some((l) => l.includes(marker)); i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const commands = seen.slice(before).filter((l) => !l.includes(marker));
    return { error, commands, queries: api.reads.get(taskId) ?? 0 };
  }

  test('a stored terminal event the task API does not confirm yet: read once, confirmed once, then quiet', async () => {
    api.status.set('task_lag', 'in_progress');
    await inspect.set(hub.keyOf('task_lag'), JSON.stringify(taskEvent('evt_lag', 'task_lag')), { EX: 60 });
    const { error, commands, queries } = await costOfWait('task_lag');
    expect(error).toBeInstanceOf(WaitTimeoutError);
    expect(commands.length, commands.slice(0, 20).join('\n')).toBeLessThanOrEqual(10);
    // The event's confirmation, and the last look at the deadline.
    expect(queries).toBeGreaterThanOrEqual(1);
    expect(queries).toBeLessThanOrEqual(3);
  });

  test("a stored key holding another task's event: no query before the deadline, and few commands", async () => {
    api.status.set('task_other', 'in_progress');
    const foreign = JSON.stringify(taskEvent('evt_foreign', 'task_elsewhere'));
    await inspect.set(hub.keyOf('task_other'), foreign, { EX: 60 });
    const { error, commands, queries } = await costOfWait('task_other');
    expect(error).toBeInstanceOf(WaitTimeoutError);
    expect(commands.length, commands.slice(0, 20).join('\n')).toBeLessThanOrEqual(10);
    expect(queries).toBeLessThanOrEqual(1);
  });
});

describe.skipIf('skip' in redis)('RedisTaskEventHub.waitFor with the event a wait was handed before', () => {
  const prefix = uniquePrefix();
  const clients: TestRedisClient[] = [];
  let hub: RedisTaskEventHub;
  let other: RedisTaskEventHub;

  beforeAll(async () => {
    if ('skip' in redis) return;
    const make = async () => {
      const publisher = await connectRedis(redis.url);
      const subscriber = await connectSubscriber(publisher);
      clients.push(publisher, subscriber);
      return new RedisTaskEventHub({ publisher, subscriber, prefix });
    };
    [hub, other] = await Promise.all([make(), make()]);
  });
  afterAll(async () => {
    await Promise.all([hub?.close(), other?.close()]);
    for (const c of clients) closeRedis(c);
  });

  test('neither the kept key nor a message of the same event ends it; another event does', async () => {
    const first = taskEvent('evt_seen_1', 'task_seen');
    await other.publish(first);
    const seen = await hub.waitFor('task_seen', new AbortController().signal);
    expect(seen.id).toBe('evt_seen_1');

    let ended: unknown;
    const waiting = hub.waitFor('task_seen', new AbortController().signal, seen).then((e) => (ended = e));
    for (let i = 0; i < 100 && hub.size.waiting === 0; i++) await new Promise((r) => setTimeout(r, 5));
    await other.publish(first); // the same event again, by key and message
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(ended).toBeUndefined();
    await other.publish(taskEvent('evt_seen_2', 'task_seen', 'task.failed'));
    await waiting;
    expect((ended as { id: string }).id).toBe('evt_seen_2');
  });
});
