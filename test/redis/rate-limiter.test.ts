// Covers: src/redis/rate-limiter.ts
import { createHash } from 'node:crypto';
import { Agent } from 'undici';
import { afterAll, beforeEach, describe, expect, test } from 'vitest';
import { QueueTimeoutError } from '../../src/index.js';
import { RedisRateLimiter } from '../../src/redis/index.js';
import { startMockGateway } from '../../src/testing/index.js';
import { testClient } from '../helpers/client.js';
import {
  type Child,
  peakPerSecond,
  startChild,
  stopChild,
  testRedis,
  uniquePrefix,
  waitUntil,
} from './helpers.js';
import { closeRedis, connectRedis, type TestRedisClient } from './shared.js';

const redis = await testRedis();
const MODEL = 'vidmodel-2.0-mini';
const kite = { model: MODEL, prompt: 'a red kite', duration: 5 } as const;

describe.skipIf('skip' in redis)('RedisRateLimiter across processes', async () => {
  const url = (redis as { url: string }).url;
  const gateway = await startMockGateway({
    rateLimits: { perKeyModel: { requestsPerSecond: 25, burst: 10 } },
  });
  const agent = new Agent({ connections: 64 });
  const children: Child[] = [];
  let client: TestRedisClient;
  afterAll(async () => {
    await Promise.all(children.map(stopChild));
    if (client) closeRedis(client);
    await gateway.close();
    await agent.close();
    if (!('skip' in redis)) await redis.stop();
  });
  beforeEach(async () => {
    client ??= await connectRedis(url);
    gateway.clearFaults();
    gateway.rateLimits.reset();
  });

  const worker = (prefix: string, env: Record<string, string>) => {
    const child = startChild('fleet-worker.ts', {
      REDIS_URL: url,
      PREFIX: prefix,
      API_KEY: gateway.apiKey,
      BASE_URL: gateway.url,
      ...env,
    });
    children.push(child);
    return child;
  };
  const result = (child: Child) =>
    child.line((l) => l.startsWith('{')).then((l) => JSON.parse(l) as { ok: number; errors: string[] });

  test('4 processes together keep to the in-flight ceiling and the rate, seen at the gateway', async () => {
    const prefix = uniquePrefix();
    // Each submission takes a while at the gateway, so that requests overlap.
    gateway.inject({
      match: { method: 'POST', path: '/v1/videos/generations' },
      times: 1_000,
      fault: { delayMs: 30 },
    });
    const limits = JSON.stringify({ perModel: { '*': { requestsPerSecond: 20, burst: 5, maxInFlight: 3 } } });
    const results = await Promise.all(
      [1, 2, 3, 4].map(() => result(worker(prefix, { LIMITS: limits, COUNT: '25' }))),
    );
    expect(results.map((r) => r.ok)).toEqual([25, 25, 25, 25]);
    const keyModel = `${gateway.apiKey}|${MODEL}`;
    const stats = gateway.rateLimits.stats;
    expect(stats.limited).toBe(0);
    expect(stats.peakInFlight.get(keyModel)).toBeLessThanOrEqual(3);
    // A token bucket grants at most burst + rate in any one second. The gateway counts arrivals
    // by calendar second, and a grant made just before a second's edge can arrive after it: the
    // bucket refills 20 a second, so the few milliseconds a request travels allow one more.
    const perSecond = [...(stats.admittedPerSecond.get(keyModel)?.values() ?? [])];
    expect(perSecond.reduce((a, b) => a + b, 0)).toBe(100);
    expect(Math.max(...perSecond)).toBeLessThanOrEqual(25 + 1);
  });

  test('4 processes starting cold keep to the rate in their first second: no burst on a bucket Redis does not hold', async () => {
    const prefix = uniquePrefix();
    const limits = JSON.stringify({ perModel: { '*': { requestsPerSecond: 8, maxInFlight: 1_000 } } });
    const workers = [1, 2, 3, 4].map(() =>
      worker(prefix, {
        LIMITS: limits,
        COUNT: '6',
        KEEP_SLOTS: '1',
        LEASE_MS: '60000',
        MODEL: 'vidmodel-2.5',
      }),
    );
    expect((await Promise.all(workers.map(result))).map((r) => r.ok)).toEqual([6, 6, 6, 6]);
    // Each grant, at Redis's own time: its slot's score is that time plus the lease.
    const hash = createHash('sha256').update(gateway.apiKey).digest('hex').slice(0, 32);
    const slots = (await client.sendCommand([
      'ZRANGE',
      `${prefix}rl:{${hash}}:slots:m:vidmodel-2.5`,
      '0',
      '-1',
      'WITHSCORES',
    ])) as string[];
    const granted = slots.filter((_, i) => i % 2 === 1).map((score) => Number(score) - 60_000);
    expect(granted).toHaveLength(24);
    // One token at the start, then 8 a second: at most 1 + 8 grants in the first second (later,
    // a moment when every process is held up by the machine lets tokens gather, as a bucket
    // should). A full bucket at the start (the default burst of 8) let 8 at once and 7 more
    // through in the first second.
    const first = Math.min(...granted);
    expect(peakPerSecond(granted, first, first)).toBeLessThanOrEqual(1 + 8);
  });

  test('a Retry-After one process got pauses the model in every process', async () => {
    const prefix = uniquePrefix();
    const limits = { perModel: { '*': { maxInFlight: 8 } } };
    const limiter = new RedisRateLimiter({ client, apiKey: gateway.apiKey, prefix, limits });
    const here = testClient({ gateway, dispatcher: agent, limits: limiter });
    gateway.inject({
      match: { method: 'POST', path: '/v1/videos/generations' },
      fault: { status: 429, headers: { 'Retry-After': '30' } },
    });
    await expect(here.videos.create(kite)).rejects.toMatchObject({ status: 429 });
    limiter.close();
    gateway.resetRequests();
    // Another process, with a short queue wait: it gives up without sending anything.
    const other = worker(prefix, { LIMITS: JSON.stringify({ ...limits, maxQueueWaitMs: 300 }), COUNT: '3' });
    expect(await result(other)).toEqual({
      ok: 0,
      errors: ['QueueTimeoutError', 'QueueTimeoutError', 'QueueTimeoutError'],
    });
    expect(gateway.requests.filter((r) => r.path === '/v1/videos/generations')).toHaveLength(0);
    // Another model is not paused.
    const mini = worker(prefix, {
      LIMITS: JSON.stringify({ ...limits, maxQueueWaitMs: 300 }),
      COUNT: '2',
      MODEL: 'vidmodel-2.5',
    });
    expect((await result(mini)).ok).toBe(2);
  });

  test("a killed process's slots come back when their lease runs out", async () => {
    const prefix = uniquePrefix();
    const limits = { perModel: { '*': { maxInFlight: 2 } } };
    const holder = worker(prefix, { LIMITS: JSON.stringify(limits), HOLD: '1', LEASE_MS: '1500' });
    expect(JSON.parse(await holder.line((l) => l.startsWith('{')))).toEqual({ held: 2 });
    holder.process.kill('SIGKILL');
    await holder.exited;
    const impatient = new RedisRateLimiter({
      client,
      apiKey: gateway.apiKey,
      prefix,
      limits: { ...limits, maxQueueWaitMs: 100 },
    });
    await expect(impatient.acquire({ model: MODEL, family: 'creation' })).rejects.toBeInstanceOf(
      QueueTimeoutError,
    );
    const patient = new RedisRateLimiter({
      client,
      apiKey: gateway.apiKey,
      prefix,
      limits: { ...limits, maxQueueWaitMs: 20_000 },
    });
    const permits = [
      await patient.acquire({ model: MODEL, family: 'creation' }),
      await patient.acquire({ model: MODEL, family: 'creation' }),
    ];
    for (const permit of permits) permit.release();
    patient.close();
    impatient.close();
  });

  test('within a process: one model in arrival order, and a paused model holds up only its own', async () => {
    const prefix = uniquePrefix();
    const limiter = new RedisRateLimiter({
      client,
      apiKey: gateway.apiKey,
      prefix,
      limits: { maxInFlight: 1, maxQueueWaitMs: 5_000 },
    });
    const first = await limiter.acquire({ model: MODEL, family: 'creation' });
    const order: number[] = [];
    const next = [1, 2, 3].map((n) =>
      limiter.acquire({ model: MODEL, family: 'creation' }).then((permit) => {
        order.push(n);
        permit.release();
      }),
    );
    first.release();
    await Promise.all(next);
    expect(order).toEqual([1, 2, 3]);

    const paused = new RedisRateLimiter({
      client,
      apiKey: gateway.apiKey,
      prefix: uniquePrefix(),
      limits: { maxQueueWaitMs: 300 },
    });
    paused.pause(MODEL, 'creation', 10_000);
    const held = paused.acquire({ model: MODEL, family: 'creation' });
    (await paused.acquire({ model: 'vidmodel-2.5', family: 'creation' })).release();
    await expect(held).rejects.toBeInstanceOf(QueueTimeoutError);
    limiter.close();
    paused.close();
  });

  test('a slot held longer than its lease is renewed, not lost', async () => {
    const prefix = uniquePrefix();
    const limits = { perModel: { '*': { maxInFlight: 1 } }, maxQueueWaitMs: 100 };
    const holder = new RedisRateLimiter({ client, apiKey: gateway.apiKey, prefix, limits, leaseMs: 300 });
    const other = new RedisRateLimiter({ client, apiKey: gateway.apiKey, prefix, limits, leaseMs: 300 });
    const permit = await holder.acquire({ model: MODEL, family: 'creation' });
    // Three leases' worth of waiting: the slot would have lapsed twice without renewal.
    for (let i = 0; i < 3; i++) {
      await new Promise((resolve) => setTimeout(resolve, 300));
      await expect(other.acquire({ model: MODEL, family: 'creation' })).rejects.toBeInstanceOf(
        QueueTimeoutError,
      );
    }
    permit.release();
    await waitUntil(
      () =>
        other.acquire({ model: MODEL, family: 'creation' }).then(
          (p) => {
            p.release();
            return true;
          },
          () => false,
        ),
      'the released slot',
    );
    holder.close();
    other.close();
  });

  test('the API key is never written to Redis, only its hash', async () => {
    const prefix = uniquePrefix();
    const limiter = new RedisRateLimiter({
      client,
      apiKey: gateway.apiKey,
      prefix,
      limits: { maxInFlight: 1, requestsPerSecond: 5 },
    });
    const permit = await limiter.acquire({ model: MODEL, family: 'creation' });
    limiter.pause(MODEL, 'creation', 5_000);
    await waitUntil(
      async () =>
        ((await client.sendCommand(['KEYS', `${prefix}*`])) as string[]).some((k) => k.includes('pause')),
      'the pause key',
    );
    const keys = (await client.sendCommand(['KEYS', `${prefix}*`])) as string[];
    expect(keys.length).toBeGreaterThanOrEqual(3);
    for (const key of keys) {
      expect(key).not.toContain(gateway.apiKey);
      const type = String(await client.sendCommand(['TYPE', key]));
      const dump = JSON.stringify(
        type === 'hash'
          ? await client.sendCommand(['HGETALL', key])
          : type === 'zset'
            ? await client.sendCommand(['ZRANGE', key, '0', '-1'])
            : await client.sendCommand(['GET', key]),
      );
      expect(dump).not.toContain(gateway.apiKey);
      expect(Number(await client.sendCommand(['PTTL', key]))).toBeGreaterThan(0);
    }
    permit.release();
    limiter.close();
  });
});
