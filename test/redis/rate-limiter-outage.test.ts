import { Agent } from 'undici';
import { afterAll, describe, expect, test } from 'vitest';
import { MediaGateway } from '../../src/index.js';
import { RedisRateLimiter } from '../../src/redis/index.js';
import { startMockGateway } from '../../src/testing/index.js';
import {
  type Child,
  hasRedisServerBinary,
  redisRequired,
  startChild,
  startRedisServer,
  stopChild,
  waitUntil,
} from './helpers.js';
import { closeRedis, connectRedis } from './shared.js';

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
    const client = new MediaGateway({
      apiKey: gateway.apiKey,
      baseURL: gateway.url,
      dispatcher: agent,
      limits: limiter,
    });
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
    // A bucket of 10/s with a burst of 2 lets through at most 12 in any one second.
    expect(Math.max(...(stats.admittedPerSecond.get(keyModel)?.values() ?? []))).toBeLessThanOrEqual(12);
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
});
