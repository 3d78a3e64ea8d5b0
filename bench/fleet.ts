/**
 * (11) A fleet sharing one key: 4 worker processes submit 800 videos in all against the mock
 * gateway limited to RATE requests per second per key and model. Once with a `RedisRateLimiter`
 * shared through Redis, once with no limiter (the SDK's retries alone), in the same run.
 * Figures: the share of requests answered 429, throughput against the gateway's limit, and the
 * spread of completion times (p5 to p95, from the common start).
 *
 * Redis: `MEDIAGW_BENCH_REDIS_URL` or `MEDIAGW_TEST_REDIS_URL`, else a private `redis-server`
 * on a free loopback port; without either the rows are left out with a note.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { runInChild } from './lib/child.js';
import { type BenchContext, modulePath } from './lib/context.js';
import { distDir, loadMediagw, loadTesting } from './lib/package.js';
import type { Row } from './lib/results.js';
import type { WorkerChannel } from './lib/worker.js';

const WORKERS = 4;
const SUBMISSIONS = 800;
const RATE = 100;
const GATEWAY_BURST = 20;
const CLIENT_BURST = 10;
const MODEL = 'vidmodel-2.0-mini';

type Mode = 'shared' | 'unshared';

interface WorkerArgs {
  mode: Mode;
  url: string;
  apiKey: string;
  redisUrl: string;
  prefix: string;
  count: number;
}

interface WorkerResult {
  /** ms from the common start to each completion. */
  done: number[];
  failed: number;
}

/** Child side: waits for `go`, submits `count` videos at once, reports when each completed. */
export async function fleetWorker(args: WorkerArgs, channel: WorkerChannel): Promise<WorkerResult> {
  const { MediaGateway } = await loadMediagw();
  const { RedisRateLimiter } = (await import(
    pathToFileURL(join(distDir(), 'redis/index.js')).href
  )) as typeof import('mediagw/redis');
  const { createClient } = await import('redis');
  const { Agent } = await import('undici');
  const redis = createClient({ url: args.redisUrl });
  redis.on('error', () => {});
  await redis.connect();
  const limiter =
    args.mode === 'shared'
      ? new RedisRateLimiter({
          client: redis,
          apiKey: args.apiKey,
          prefix: args.prefix,
          expectedReplicas: WORKERS,
          limits: { perModel: { '*': { requestsPerSecond: RATE, burst: CLIENT_BURST } } },
        })
      : undefined;
  const agent = new Agent({ connections: 64 });
  // Enough retries that every submission ends accepted: a 429 means no task, so retrying is safe.
  const client = new MediaGateway({
    apiKey: args.apiKey,
    baseURL: args.url,
    dispatcher: agent,
    maxRetries: 50,
    ...(limiter ? { limits: limiter } : {}),
  });
  const go = new Promise<number>((resolve) =>
    channel.onMessage((message) => {
      if (message.type === 'go') resolve(message.at as number);
    }),
  );
  channel.send({ type: 'ready' });
  const start = await go;
  const done: number[] = [];
  let failed = 0;
  await Promise.all(
    Array.from({ length: args.count }, () =>
      client.videos.create({ model: MODEL, prompt: 'a red kite', duration: 5 }).then(
        () => done.push(Date.now() - start),
        () => failed++,
      ),
    ),
  );
  limiter?.close();
  await agent.close();
  redis.destroy();
  return { done, failed };
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** The Redis to use, and how to stop it when this run started it. */
export async function benchRedis(): Promise<{ url: string; stop: () => void } | undefined> {
  const given = process.env.MEDIAGW_BENCH_REDIS_URL ?? process.env.MEDIAGW_TEST_REDIS_URL;
  if (given) return { url: given, stop: () => undefined };
  if (spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status !== 0) return undefined;
  const port = await freePort();
  const child: ChildProcess = spawn(
    'redis-server',
    ['--bind', '127.0.0.1', '--port', String(port), '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  const { createClient } = await import('redis');
  for (let i = 0; i < 100; i++) {
    const probe = createClient({ url: `redis://127.0.0.1:${port}`, socket: { reconnectStrategy: false } });
    probe.on('error', () => {});
    const ok = await probe.connect().then(
      () => true,
      () => false,
    );
    if (ok) {
      probe.destroy();
      return { url: `redis://127.0.0.1:${port}`, stop: () => child.kill('SIGKILL') };
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  child.kill('SIGKILL');
  return undefined;
}

interface RunFigures {
  requests: number;
  limited: number;
  share: number;
  throughput: number;
  spread: number;
  p50: number;
  failed: number;
}

/** Parent side: one mock gateway per mode, 4 workers started together. */
async function runMode(mode: Mode, redisUrl: string, ctx: BenchContext): Promise<RunFigures> {
  const { startMockGateway } = await loadTesting();
  const gateway = await startMockGateway({
    requestLogLimit: 0,
    rateLimits: { perKeyModel: { requestsPerSecond: RATE, burst: GATEWAY_BURST } },
  });
  try {
    let ready = 0;
    const sends: Array<(message: unknown) => void> = [];
    const prefix = `mediagw-bench:${Date.now()}:${mode}:`;
    const results = await Promise.all(
      Array.from({ length: WORKERS }, () =>
        runInChild<WorkerResult>(
          modulePath(import.meta.url),
          'fleetWorker',
          {
            mode,
            url: gateway.url,
            apiKey: gateway.apiKey,
            redisUrl,
            prefix,
            count: SUBMISSIONS / WORKERS,
          } satisfies WorkerArgs,
          {
            timeoutMs: 300_000,
            onMessage: (message, send) => {
              if (message.type !== 'ready') return;
              sends.push(send);
              if (++ready === WORKERS) {
                gateway.rateLimits.reset();
                const at = Date.now();
                for (const s of sends) s({ type: 'go', at });
              }
            },
          },
        ),
      ),
    );
    const done = results.flatMap((r) => r.done).sort((a, b) => a - b);
    const stats = gateway.rateLimits.stats;
    const seconds = (done[done.length - 1] ?? 1) / 1000;
    const figures: RunFigures = {
      requests: stats.checked,
      limited: stats.limited,
      share: (100 * stats.limited) / Math.max(1, stats.checked),
      throughput: done.length / seconds,
      spread: (percentile(done, 95) - percentile(done, 5)) / 1000,
      p50: percentile(done, 50) / 1000,
      failed: results.reduce((n, r) => n + r.failed, 0),
    };
    ctx.log(
      `fleet ${mode}: ${done.length} accepted, ${figures.failed} failed, ${stats.checked} requests, ${stats.limited} answered 429, ${figures.throughput.toFixed(1)}/s`,
    );
    return figures;
  } finally {
    await gateway.close();
  }
}

/** Runs both modes and returns the rows. */
export async function measure(ctx: BenchContext): Promise<Row[]> {
  await loadMediagw();
  const redis = await benchRedis();
  if (!redis) {
    ctx.note('(11) fleet: skipped, no Redis (set MEDIAGW_BENCH_REDIS_URL or install redis-server)');
    return [];
  }
  try {
    const shared = await runMode('shared', redis.url, ctx);
    const unshared = await runMode('unshared', redis.url, ctx);
    ctx.note(
      `(11) fleet: ${WORKERS} processes, ${SUBMISSIONS} videos.create in all, one key, the mock limited to ${RATE}/s (burst ${GATEWAY_BURST}) per key and model. ` +
        `Shared RedisRateLimiter (${RATE}/s, burst ${CLIENT_BURST}): ${shared.requests} requests, ${shared.limited} answered 429, ${shared.throughput.toFixed(1)}/s, ` +
        `completions p5-p95 ${shared.spread.toFixed(1)} s, median ${shared.p50.toFixed(1)} s. ` +
        `No limiter (retries after Retry-After only): ${unshared.requests} requests, ${unshared.limited} answered 429, ${unshared.throughput.toFixed(1)}/s, ` +
        `completions p5-p95 ${unshared.spread.toFixed(1)} s, median ${unshared.p50.toFixed(1)} s, ${unshared.failed} gave up.`,
    );
    return [
      {
        id: 'fleet.shared.429-share',
        figure: `(11) fleet of ${WORKERS} processes, ${SUBMISSIONS} submissions, shared RedisRateLimiter: requests answered 429`,
        unit: '%',
        better: 'lower',
        mediagw: shared.share,
        peer: unshared.share,
        peerLabel: 'the same fleet without a limiter',
        samples: { mediagw: [shared.limited, shared.requests], peer: [unshared.limited, unshared.requests] },
      },
      {
        id: 'fleet.shared.throughput',
        figure: `(11) fleet, shared RedisRateLimiter: accepted submissions per second`,
        unit: 'req/s',
        better: 'higher',
        mediagw: shared.throughput,
        limit: RATE,
        limitLabel: "the gateway's limit per key and model",
        ratio: shared.throughput / RATE,
        peer: unshared.throughput,
        peerLabel: 'the same fleet without a limiter',
      },
      {
        id: 'fleet.spread',
        figure: '(11) fleet: completion times p5 to p95, from the common start',
        unit: 's',
        better: 'lower',
        mediagw: shared.spread,
        peer: unshared.spread,
        peerLabel: 'the same fleet without a limiter',
      },
    ];
  } finally {
    redis.stop();
  }
}
