// Covers: src/jobs/run.ts, src/jobs/redis-journal.ts
/**
 * A fleet: three `mediagw jobs run` processes share one run in a real Redis, against the mock
 * gateway of this process. Every job is submitted exactly once, by one of them; the budget is
 * one total for the three; a later run sees every job completed.
 */
import { createHash, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RedisJournal, RespConnection, readJournal } from '../../src/jobs/index.js';
import { type MockGateway, startMockGateway } from '../../src/testing/index.js';
import { ensureBuilt, run, start } from '../cli/helpers.js';
import { testRedis } from '../redis/helpers.js';
import { filesIn, mixedJobs, scratch, submissionsPerJob, writeManifest } from './helpers.js';

const redis = await testRedis();

describe.skipIf('skip' in redis)('three runners sharing a Redis journal', () => {
  const url = (redis as { url: string }).url;
  let dir: string;
  let remove: () => void;
  let gateway: MockGateway;
  let env: Record<string, string>;

  beforeAll(ensureBuilt, 180_000);
  afterAll(async () => {
    if (!('skip' in redis)) await redis.stop();
  });
  beforeEach(async () => {
    ({ dir, remove } = scratch());
    gateway = await startMockGateway({ speed: 100, requestLogLimit: 100_000 });
    env = { MEDIAGW_API_KEY: gateway.apiKey, MEDIAGW_BASE_URL: gateway.url };
  });
  afterEach(async () => {
    await gateway.close();
    remove();
  });

  async function fleet(args: string[]) {
    const runners = [0, 1, 2].map(() => start(args, { env, timeoutMs: 90_000 }));
    return Promise.all(runners.map((r) => r.result));
  }

  it('submits every job once, by one of them, and a later run finds all completed', async () => {
    const jobs = mixedJobs(30);
    const path = writeManifest(join(dir, 'm.jsonl'), jobs);
    const name = `fleet-${randomUUID()}`;
    const args = ['jobs', 'run', path, '--journal', url, '--run', name, '--output-dir', join(dir, 'out')];
    args.push('--concurrency', '3', '--poll-interval', '20');
    const results = await fleet(args);
    for (const result of results) expect([0, 5, 6], result.stderr).toContain(result.code);
    expect([...submissionsPerJob(gateway).values()]).toEqual(Array(jobs.length).fill(1));
    // More than one runner sent jobs: the claims were shared, not taken by the first.
    const senders = results.filter((r) => /: (submitted|completed)/.test(r.stderr));
    expect(senders.length).toBeGreaterThan(1);

    const after = await run([...args, '--json'], { env, timeoutMs: 60_000 });
    expect(after.code).toBe(0);
    expect(JSON.parse(after.stdout).counts.completed).toBe(jobs.length);
    expect([...submissionsPerJob(gateway).values()]).toEqual(Array(jobs.length).fill(1));
    const status = await run(['jobs', 'status', '--journal', url, '--run', name, '--json']);
    expect(JSON.parse(status.stdout).counts.completed).toBe(jobs.length);
    expect(filesIn(join(dir, 'out'))).toHaveLength(
      filesIn(join(dir, 'out')).filter((f) => /^job-/.test(f)).length,
    );
    expect(filesIn(dir)).toEqual(['m.jsonl', 'out']);
  });

  it('paces the fleet with --rate through one limiter in Redis: the gateway answers no 429', async () => {
    // The gateway admits 20 a second per key and model (a burst of 20). Three runners keeping
    // to 10 a second each on their own would send up to 30; sharing one budget, they send 10.
    await gateway.close();
    gateway = await startMockGateway({
      speed: 100,
      requestLogLimit: 100_000,
      rateLimits: { perKeyModel: { requestsPerSecond: 20, burst: 20 } },
    });
    env = { MEDIAGW_API_KEY: gateway.apiKey, MEDIAGW_BASE_URL: gateway.url };
    const jobs = Array.from({ length: 45 }, (_, i) => ({
      id: `img-${i}`,
      operation: 'images.generate' as const,
      body: { model: 'imgmodel-2', prompt: `draw img-${i}` },
    }));
    const path = writeManifest(join(dir, 'm.jsonl'), jobs);
    const name = `rate-${randomUUID()}`;
    const args = ['jobs', 'run', path, '--journal', url, '--run', name, '--output-dir', join(dir, 'out')];
    args.push('--concurrency', '6', '--rate', '10', '--json');
    const results = await fleet(args);
    for (const result of results) expect([0, 5, 6], result.stderr).toContain(result.code);
    expect([...submissionsPerJob(gateway).values()]).toEqual(Array(jobs.length).fill(1));
    const stats = gateway.rateLimits.stats;
    expect(stats.limited).toBe(0);
    // A token bucket grants at most burst + rate in any one second (10 + 10); the gateway counts
    // arrivals by calendar second, and a grant made just before a second's edge may arrive after
    // it: one more.
    const perSecond = [...(stats.admittedPerSecond.get(`${gateway.apiKey}|imgmodel-2`)?.values() ?? [])];
    expect(perSecond.reduce((a, b) => a + b, 0)).toBe(jobs.length);
    expect(Math.max(...perSecond)).toBeLessThanOrEqual(10 + 10 + 1);
    // The budget is the fleet's, in Redis: the model's bucket under the key's hash.
    const hash = createHash('sha256').update(gateway.apiKey).digest('hex').slice(0, 32);
    const connection = await RespConnection.open(url);
    try {
      expect(await connection.sendCommand(['EXISTS', `mediagw:rl:{${hash}}:bucket:m:imgmodel-2`])).toBe(1);
    } finally {
      connection.close();
    }
  });

  it('lets one of two journals that read a job as new claim it; the other is told it is taken', async () => {
    const name = `claim-${randomUUID()}`;
    const connections = await Promise.all([RespConnection.open(url), RespConnection.open(url)]);
    try {
      const [a, b] = connections.map((c) => new RedisJournal(c, { run: name }));
      await a!.open();
      await b!.open();
      const intent = { e: 'intent' as const, id: 'x', operation: 'videos.create', reserved: 5 };
      const outcomes = await Promise.all([a!.claim(intent, 100), b!.claim(intent, 100)]);
      expect(outcomes.sort()).toEqual(['taken', undefined].sort());
      await b!.refresh('x');
      expect(b!.get('x')).toMatchObject({ state: 'in_doubt', reserved: 5 });
      expect(b!.reservedSeconds()).toBe(5);
    } finally {
      for (const c of connections) c.close();
    }
  });

  it('holds one budget for the whole fleet', async () => {
    const jobs = Array.from({ length: 9 }, (_, i) => ({
      id: `v${i}`,
      operation: 'videos.create' as const,
      body: { model: 'vidmodel-2.0-mini', prompt: `film v${i}`, duration: 5 },
    }));
    const path = writeManifest(join(dir, 'm.jsonl'), jobs);
    const name = `budget-${randomUUID()}`;
    const args = ['jobs', 'run', path, '--journal', url, '--run', name, '--output-dir', join(dir, 'out')];
    args.push('--concurrency', '2', '--poll-interval', '20', '--max-reserved-seconds', '20');
    await fleet(args);
    expect(submissionsPerJob(gateway).size).toBe(4);
    const connection = await RespConnection.open(url);
    try {
      const status = await readJournal(new RedisJournal(connection, { run: name }));
      expect(status.reservedSeconds).toBe(20);
      expect(status.counts).toMatchObject({ completed: 4, skipped: 5 });
    } finally {
      connection.close();
    }
  });
});
