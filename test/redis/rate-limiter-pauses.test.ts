// Covers: src/redis/rate-limiter-pauses.ts
// Pauses over pub/sub: a 429 one replica got reaches the others as a message, and they wait it
// out without a Redis command; the pause key still tells a replica that was not listening.
// Redis commands are counted with MONITOR.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MAX_RETRY_AFTER_MS } from '../../src/core/limits.js';
import { QueueTimeoutError } from '../../src/index.js';
import { RedisRateLimiter } from '../../src/redis/index.js';
import { type MockGateway, startMockGateway } from '../../src/testing/index.js';
import { testClient } from '../helpers/client.js';
import { type Child, startChild, stopChild, testRedis, uniquePrefix, waitUntil } from './helpers.js';
import { closeRedis, connectRedis, connectSubscriber, type TestRedisClient } from './shared.js';

const redis = await testRedis();
const MODEL = 'vidmodel-2.0-mini';
const kite = { model: MODEL, prompt: 'a red kite', duration: 5 } as const;

describe.skipIf('skip' in redis)('RedisRateLimiter pauses over pub/sub', () => {
  const url = (redis as { url: string }).url;
  const clients: TestRedisClient[] = [];
  const children: Child[] = [];
  const limiters: RedisRateLimiter[] = [];
  /** Commands naming a test prefix, as MONITOR saw them (scripts' inner calls left out). */
  const seen: string[] = [];
  let client: TestRedisClient;
  let inspect: TestRedisClient;
  let gateway: MockGateway;

  beforeAll(async () => {
    client = await connectRedis(url);
    inspect = await connectRedis(url);
    const monitor = await connectRedis(url);
    clients.push(client, inspect, monitor);
    await monitor.monitor((line: string) => {
      if (line.includes('mediagw-test:') && !/\[\d+ lua\]/.test(line)) seen.push(line);
    });
    gateway = await startMockGateway({ clock: 'manual' });
  });
  afterAll(async () => {
    await Promise.all(children.map(stopChild));
    for (const limiter of limiters) await limiter.close();
    for (const c of clients) closeRedis(c);
    await gateway?.close();
    if (!('skip' in redis)) await redis.stop();
  });

  /** How many lines MONITOR saw, once every command sent before this call shows. */
  async function flush(): Promise<number> {
    // MONITOR lines trail the commands a little: wait for a marker read behind them.
    const marker = `mediagw-test:marker:${Math.random()}`;
    await inspect.get(marker);
    await waitUntil(() => seen.some((l) => l.includes(marker)), 'the marker in MONITOR');
    return seen.length;
  }
  /** The commands MONITOR saw after the first `from` lines, markers left out. */
  async function commandsSince(from: number): Promise<string[]> {
    await flush();
    return seen.slice(from).filter((l) => !l.includes('mediagw-test:marker:'));
  }

  const limiterFor = async (prefix: string, maxQueueWaitMs: number, listen: boolean) => {
    const subscriber = listen ? await connectSubscriber(client) : undefined;
    if (subscriber) clients.push(subscriber);
    const limiter = new RedisRateLimiter({
      client,
      subscriber,
      apiKey: gateway.apiKey,
      prefix,
      limits: { perModel: { '*': { maxInFlight: 8 } }, maxQueueWaitMs },
    });
    limiters.push(limiter);
    return limiter;
  };
  const channelOf = (prefix: string) =>
    `${prefix}rl:{${createHash('sha256').update(gateway.apiKey).digest('hex').slice(0, 32)}}:pauses`;
  /** Tries `n` acquisitions one after the other; each must give up at its queue deadline. */
  async function timedOut(limiter: RedisRateLimiter, n: number, model = MODEL): Promise<void> {
    for (let i = 0; i < n; i++) {
      await expect(limiter.acquire({ model, family: 'creation' })).rejects.toBeInstanceOf(QueueTimeoutError);
    }
  }

  test('a 429 in one process pauses a listening process, which then sends no command for the pause', async () => {
    const prefix = uniquePrefix();
    const limits = JSON.stringify({ perModel: { '*': { maxInFlight: 8 } }, maxQueueWaitMs: 200 });
    const listener = startChild('pause-listener.ts', {
      REDIS_URL: url,
      PREFIX: prefix,
      API_KEY: gateway.apiKey,
      LIMITS: limits,
      COUNT: '3',
    });
    children.push(listener);
    await listener.line((l) => l.includes('"ready"'));
    // Its first acquisition subscribed it to the pause channel.
    await waitUntil(async () => {
      const reply = (await inspect.sendCommand(['PUBSUB', 'NUMSUB', channelOf(prefix)])) as unknown[];
      return Number(reply[1]) >= 1;
    }, 'the listener to subscribe');

    const here = testClient({ gateway, limits: await limiterFor(prefix, 200, true) });
    gateway.inject({
      match: { method: 'POST', path: '/v1/videos/generations' },
      fault: { status: 429, headers: { 'Retry-After': '30' } },
    });
    await expect(here.videos.create(kite)).rejects.toMatchObject({ status: 429 });
    const paused = JSON.parse(await listener.line((l) => l.includes('"paused"'))) as { paused: number };
    expect(paused.paused).toBeGreaterThan(20_000);
    expect(paused.paused).toBeLessThanOrEqual(30_000);

    const from = await flush();
    listener.process.stdin?.write('go\n');
    const result = JSON.parse(await listener.line((l) => l.includes('"errors"')));
    expect(result).toEqual({
      ok: 0,
      errors: ['QueueTimeoutError', 'QueueTimeoutError', 'QueueTimeoutError'],
    });
    // Three acquisitions during the pause, and not one Redis command among them.
    expect(await commandsSince(from)).toEqual([]);
  });

  test('without a subscriber, a replica reads the pause from the key once, then keeps it itself', async () => {
    const prefix = uniquePrefix();
    const first = await limiterFor(prefix, 150, false);
    first.pause(MODEL, 'creation', 30_000);
    await waitUntil(
      async () =>
        Number(await inspect.sendCommand(['EXISTS', `${channelOf(prefix).slice(0, -6)}pause:m:${MODEL}`])) ===
        1,
      'the pause key',
    );
    const late = await limiterFor(prefix, 150, false);
    expect(late.pausedFor(MODEL, 'creation')).toBe(0);
    const from = await flush();
    await timedOut(late, 3);
    const commands = await commandsSince(from);
    // One acquisition script: the first acquisition's, which found the key.
    expect(commands.filter((l) => /"EVAL(SHA)?"/.test(l))).toHaveLength(1);
    expect(late.pausedFor(MODEL, 'creation')).toBeGreaterThan(20_000);
    // Another model is not paused.
    (await late.acquire({ model: 'vidmodel-2.5', family: 'creation' })).release();
  });

  test('a Retry-After of years pauses for MAX_RETRY_AFTER_MS at most: here, in the key and by message', async () => {
    const prefix = uniquePrefix();
    const first = await limiterFor(prefix, 150, true);
    const late = await limiterFor(prefix, 150, true);
    // Their first acquisitions subscribe them.
    (await first.acquire({ model: MODEL, family: 'creation' })).release();
    (await late.acquire({ model: MODEL, family: 'creation' })).release();
    await waitUntil(async () => {
      const reply = (await inspect.sendCommand(['PUBSUB', 'NUMSUB', channelOf(prefix)])) as unknown[];
      return Number(reply[1]) >= 2;
    }, 'both limiters to subscribe');
    first.pause(MODEL, 'creation', 99_999_999_000);
    expect(first.pausedFor(MODEL, 'creation')).toBeLessThanOrEqual(MAX_RETRY_AFTER_MS);
    await waitUntil(() => late.pausedFor(MODEL, 'creation') > 0, 'the pause to arrive');
    expect(late.pausedFor(MODEL, 'creation')).toBeLessThanOrEqual(MAX_RETRY_AFTER_MS);
    const ttl = Number(
      await inspect.sendCommand(['PTTL', `${channelOf(prefix).slice(0, -6)}pause:m:${MODEL}`]),
    );
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(MAX_RETRY_AFTER_MS);
  });

  test('a pause message or a pause key of years from another client holds a replica back 60 s at most', async () => {
    const prefix = uniquePrefix();
    const listening = await limiterFor(prefix, 150, true);
    (await listening.acquire({ model: MODEL, family: 'creation' })).release();
    await waitUntil(async () => {
      const reply = (await inspect.sendCommand(['PUBSUB', 'NUMSUB', channelOf(prefix)])) as unknown[];
      return Number(reply[1]) >= 1;
    }, 'the limiter to subscribe');
    await inspect.sendCommand(['PUBLISH', channelOf(prefix), `m:${MODEL} 99999999999`]);
    await waitUntil(() => listening.pausedFor(MODEL, 'creation') > 0, 'the message to arrive');
    expect(listening.pausedFor(MODEL, 'creation')).toBeLessThanOrEqual(MAX_RETRY_AFTER_MS);

    const reading = await limiterFor(prefix, 150, false);
    const other = 'vidmodel-2.5';
    await inspect.sendCommand([
      'SET',
      `${channelOf(prefix).slice(0, -6)}pause:m:${other}`,
      '1',
      'PX',
      '99999999999',
    ]);
    await timedOut(reading, 1, other);
    expect(reading.pausedFor(other, 'creation')).toBeGreaterThan(0);
    expect(reading.pausedFor(other, 'creation')).toBeLessThanOrEqual(MAX_RETRY_AFTER_MS);
  });

  test('a limiter that starts listening after the pause was published still keeps to it', async () => {
    const prefix = uniquePrefix();
    const first = await limiterFor(prefix, 150, true);
    // Its first acquisition subscribes it; then it gets a 429.
    (await first.acquire({ model: MODEL, family: 'creation' })).release();
    first.pause(MODEL, 'creation', 30_000);
    await waitUntil(() => seen.some((l) => l.includes(prefix) && l.includes('pause:m:')), 'the pause script');
    const late = await limiterFor(prefix, 150, true);
    await timedOut(late, 2);
    expect(late.pausedFor(MODEL, 'creation')).toBeGreaterThan(20_000);
    await waitUntil(async () => {
      const reply = (await inspect.sendCommand(['PUBSUB', 'NUMSUB', channelOf(prefix)])) as unknown[];
      return Number(reply[1]) >= 2;
    }, 'both limiters to subscribe');
    // A later, longer pause reaches it by message.
    first.pause(MODEL, 'creation', 58_000);
    await waitUntil(() => late.pausedFor(MODEL, 'creation') > 40_000, 'the longer pause to arrive');
    await late.close();
    const reply = (await inspect.sendCommand(['PUBSUB', 'NUMSUB', channelOf(prefix)])) as unknown[];
    expect(Number(reply[1])).toBe(1);
  });
});
