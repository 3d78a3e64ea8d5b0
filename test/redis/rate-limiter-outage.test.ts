// Covers: src/redis/rate-limiter-fallback.ts
import { Agent } from 'undici';
import { afterAll, describe, expect, test } from 'vitest';
import { QueueTimeoutError } from '../../src/index.js';
import { RedisRateLimiter } from '../../src/redis/index.js';
import { startMockGateway } from '../../src/testing/index.js';
import { testClient } from '../helpers/client.js';
import {
  type Child,
  hasRedisServerBinary,
  peakPerSecond,
  redisRequired,
  startChild,
  startRedisServer,
  stopChild,
  waitUntil,
} from './helpers.js';
import { closeRedis, connectRedis, connectSubscriber } from './shared.js';

// This file stops a Redis mid-run, so it starts a private redis-server rather than share one.
const canStart = hasRedisServerBinary();
if (!canStart && redisRequired)
  throw new Error('redis-server is not installed (scripts/redis-for-tests.sh installs it)');

describe.skipIf(!canStart)('RedisRateLimiter when Redis stops mid-run', () => {
  const cleanups: Array<() => unknown> = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  test('each process falls back to its share of the limits: no crash, nothing over the share', async () => {
    const server = await startRedisServer();
    cleanups.push(() => server.stop());
    const redis = await connectRedis(server.url);
    cleanups.push(() => closeRedis(redis));
    const gateway = await startMockGateway({ clock: 'manual', rateLimits: {} });
    cleanups.push(() => gateway.close());
    const agent = new Agent({ connections: 64 });
    cleanups.push(() => agent.close());
    gateway.inject({
      match: { method: 'POST', path: '/v1/videos/generations' },
      times: 1_000,
      fault: { delayMs: 40 },
    });
    // The fleet's limit: 40/s and 8 in flight; this process's share of 4 replicas: 10/s, burst 2, 2 in flight.
    const limiter = new RedisRateLimiter({
      client: redis,
      apiKey: gateway.apiKey,
      limits: { perModel: { '*': { requestsPerSecond: 40, burst: 8, maxInFlight: 8 } } },
      expectedReplicas: 4,
      timeoutMs: 300,
    });
    cleanups.push(() => limiter.close());
    const client = testClient({ gateway, dispatcher: agent, limits: limiter, maxRetries: 2 });
    const keyModel = `${gateway.apiKey}|vidmodel-2.0-mini`;
    const submissions = Array.from({ length: 40 }, () =>
      client.videos.create({ model: 'vidmodel-2.0-mini', prompt: 'a red kite', duration: 5 }),
    );
    await waitUntil(() => gateway.rateLimits.stats.checked >= 8, 'the first submissions', 200);
    await server.kill();
    await waitUntil(() => limiter.usingFallback, 'the fallback', 200);
    // From the moment what Redis granted has drained to the local share, count afresh.
    await waitUntil(() => gateway.rateLimits.inFlight(keyModel) <= 2, 'the requests Redis granted', 200);
    gateway.rateLimits.reset();
    const results = await Promise.allSettled(submissions);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(40);
    const stats = gateway.rateLimits.stats;
    expect(stats.checked).toBeGreaterThan(0);
    expect(stats.peakInFlight.get(keyModel)).toBeLessThanOrEqual(2);
    // A bucket of 10/s with a burst of 2 grants at most 12 in any one second. The gateway counts
    // arrivals by the second they land in, and a request granted just before a second ends can
    // land just after it (on a busy machine, tens of milliseconds later) while the next second's
    // arrive on time: one more than the bucket's 12, never two, while that delay stays under the
    // 100 ms between two grants.
    expect(Math.max(...(stats.admittedPerSecond.get(keyModel)?.values() ?? []))).toBeLessThanOrEqual(13);
  });
  test('two processes each keep to their own share while Redis is gone, and both finish', async () => {
    const server = await startRedisServer();
    cleanups.push(() => server.stop());
    const gateway = await startMockGateway({ clock: 'manual', rateLimits: {} });
    cleanups.push(() => gateway.close());
    gateway.inject({
      match: { method: 'POST', path: '/v1/videos/generations' },
      times: 1_000,
      fault: { delayMs: 40 },
    });
    // The fleet's ceiling is 4 in flight; a share of 4 replicas is 1, so two processes hold at most 2.
    const env = {
      REDIS_URL: server.url,
      PREFIX: 'mediagw-test:outage:',
      API_KEY: gateway.apiKey,
      BASE_URL: gateway.url,
      LIMITS: JSON.stringify({ perModel: { '*': { requestsPerSecond: 40, burst: 4, maxInFlight: 4 } } }),
      COUNT: '25',
      REPLICAS: '4',
      TIMEOUT_MS: '300',
    };
    const children: Child[] = [startChild('fleet-worker.ts', env), startChild('fleet-worker.ts', env)];
    cleanups.push(() => Promise.all(children.map(stopChild)));
    const keyModel = `${gateway.apiKey}|vidmodel-2.0-mini`;
    // Both ready first: a process still connecting when Redis stops would fail to connect at
    // all. A socket in CLIENT LIST is not enough: the client may still be in its handshake.
    await Promise.all(children.map((child) => child.line((l) => l === 'connected')));
    await waitUntil(() => gateway.rateLimits.stats.checked >= 8, 'the first submissions', 300);
    await server.kill();
    await waitUntil(() => gateway.rateLimits.inFlight(keyModel) <= 2, 'the requests Redis granted', 300);
    gateway.rateLimits.reset();
    const results = await Promise.all(
      children.map((child) => child.line((l) => l.startsWith('{')).then((l) => JSON.parse(l))),
    );
    expect(results).toEqual([
      { ok: 25, errors: [] },
      { ok: 25, errors: [] },
    ]);
    expect(gateway.rateLimits.stats.checked).toBeGreaterThan(0);
    expect(gateway.rateLimits.stats.peakInFlight.get(keyModel)).toBeLessThanOrEqual(2);
  });

  test('with a pause subscriber: the same local share while Redis is gone, and pauses heard again once it is back', async () => {
    const server = await startRedisServer();
    cleanups.push(() => server.stop());
    const redis = await connectRedis(server.url);
    const subscriber = await connectSubscriber(redis);
    const other = await connectRedis(server.url);
    cleanups.push(() => [redis, subscriber, other].forEach(closeRedis));
    const options = {
      apiKey: 'mgw_test_outage_pauses',
      prefix: 'mediagw-test:outage-pauses:',
      // A share of 2 replicas: 2 in flight.
      limits: { perModel: { '*': { maxInFlight: 4 } }, maxQueueWaitMs: 1_000 },
      expectedReplicas: 2,
      timeoutMs: 300,
      retryRedisMs: 100,
    };
    const limiter = new RedisRateLimiter({ ...options, client: redis, subscriber });
    cleanups.push(() => limiter.close());
    const request = { model: 'vidmodel-2.0-mini', family: 'creation' } as const;
    const channel = `${options.prefix}rl:{${await sha256(options.apiKey)}}:pauses`;
    const subscribers = async () =>
      Number(((await other.sendCommand(['PUBSUB', 'NUMSUB', channel])) as unknown[])[1]);
    (await limiter.acquire(request)).release();
    await waitUntil(async () => (await subscribers()) === 1, 'the subscription');

    await server.kill();
    const held = [await limiter.acquire(request), await limiter.acquire(request)];
    expect(limiter.usingFallback).toBe(true);
    await expect(limiter.acquire(request)).rejects.toBeInstanceOf(QueueTimeoutError);
    // A 429 while Redis is gone is kept in the process.
    limiter.pause('vidmodel-2.5', 'creation', 60_000);
    expect(limiter.pausedFor('vidmodel-2.5', 'creation')).toBeGreaterThan(50_000);
    await expect(limiter.acquire({ ...request, model: 'vidmodel-2.5' })).rejects.toBeInstanceOf(
      QueueTimeoutError,
    );
    for (const permit of held) permit.release();

    await server.start();
    await waitUntil(() => !limiter.usingFallback, 'Redis to be used again', 200);
    // node-redis subscribes again after reconnecting: a pause another replica publishes arrives.
    await waitUntil(async () => (await subscribers().catch(() => 0)) === 1, 'the subscription again', 200);
    const publisher = new RedisRateLimiter({ ...options, client: other });
    cleanups.push(() => publisher.close());
    expect(limiter.pausedFor('vidmodel-2.0-mini', 'creation')).toBe(0);
    publisher.pause('vidmodel-2.0-mini', 'creation', 30_000);
    await waitUntil(() => limiter.pausedFor('vidmodel-2.0-mini', 'creation') > 20_000, 'the published pause');
  });
});

describe.skipIf(!canStart)('RedisRateLimiter when Redis comes back empty', () => {
  const cleanups: Array<() => unknown> = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  test('two replicas keep to the fleet rate through the outage and on the way back: no burst on top of the local shares', async () => {
    const server = await startRedisServer();
    cleanups.push(() => server.stop());
    const [a, b] = await Promise.all([connectRedis(server.url), connectRedis(server.url)]);
    cleanups.push(() => [a, b].forEach(closeRedis));
    const gateway = await startMockGateway({ clock: 'manual' });
    cleanups.push(() => gateway.close());
    const agent = new Agent({ connections: 64 });
    cleanups.push(() => agent.close());
    // The fleet's limit: 20/s (burst 20); each replica's share while Redis is gone: 10/s.
    const replica = (redis: typeof a) => {
      const limiter = new RedisRateLimiter({
        client: redis,
        apiKey: gateway.apiKey,
        prefix: 'mediagw-test:outage-return:',
        limits: { perModel: { '*': { requestsPerSecond: 20 } } },
        expectedReplicas: 2,
        timeoutMs: 300,
        retryRedisMs: 200,
      });
      cleanups.push(() => limiter.close());
      const client = testClient({
        gateway,
        dispatcher: agent,
        limits: {
          acquire: async (request) => {
            const permit = await limiter.acquire(request);
            granted.push(Date.now());
            return permit;
          },
          pause: (model, family, ms) => limiter.pause(model, family, ms),
        },
      });
      return { limiter, client };
    };
    // When each permit was granted: the judge, closer to the limiter than the arrivals.
    const granted: number[] = [];
    const replicas = [replica(a), replica(b)];
    const submitted = () => gateway.requests.filter((r) => r.path === '/v1/videos/generations').length;
    const submissions = replicas.flatMap(({ client }) =>
      Array.from({ length: 70 }, () =>
        client.videos.create({ model: 'vidmodel-2.0-mini', prompt: 'a red kite', duration: 5 }),
      ),
    );
    await waitUntil(() => submitted() >= 30, 'the first second of submissions', 200);
    const killedAt = Date.now();
    await server.kill();
    await waitUntil(() => replicas.every(({ limiter }) => limiter.usingFallback), 'the fallback', 200);
    const local = submitted();
    await waitUntil(() => submitted() >= local + 15, 'grants of the local shares', 200);
    // Back, with none of its data: every bucket is gone.
    const backAt = Date.now();
    await server.start();
    await waitUntil(
      () => replicas.every(({ limiter }) => !limiter.usingFallback),
      'Redis to be used again',
      200,
    );
    const results = await Promise.allSettled(submissions);
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    expect(submitted()).toBe(140);
    expect(granted).toHaveLength(140);
    // In the seconds around each switch, at most the rate: the local shares start empty, and
    // the buckets Redis lost start under no token. The grants are timed a moment after the
    // limiter decided, so one or two more may seem to fall in a second. Without the bounds each
    // switch added a burst (60 and 76 grants in a second here).
    for (const at of [killedAt, backAt])
      expect(peakPerSecond(granted, at - 1_000, at + 1_500)).toBeLessThanOrEqual(20 + 2);
  });
});

async function sha256(text: string): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return Buffer.from(digest).toString('hex').slice(0, 32);
}
