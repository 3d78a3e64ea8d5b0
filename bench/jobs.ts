/**
 * (12) Job runs (`mediagw/jobs`): a child process runs image jobs (`images.generate`, one
 * billable request each, then its download) from a manifest against the mock gateway of this
 * process, limited to RATE requests per second per key and model, with a client limited to the
 * same rate. Figures: the pace against the gateway's limit and the share answered 429, for
 * 10,000 jobs; the peak RSS growth of the runner from 1,000 to 10,000 jobs; and the time to
 * resume the finished 10,000-job run (journal and manifest read, every file checked, nothing
 * sent). `--quick` runs 2,000 jobs instead of 10,000. Then a fleet: FLEET processes share one
 * run in a Redis journal, paced by one `RedisRateLimiter` on the same Redis, and the gateway's
 * request log counts the submissions of each job (skipped without a Redis, as the fleet bench is).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { benchRedis } from './fleet.js';
import { runInChild } from './lib/child.js';
import { type BenchContext, modulePath } from './lib/context.js';
import { distDir, loadMediagw, loadTesting } from './lib/package.js';
import type { Row } from './lib/results.js';
import { startPeakRss } from './lib/rss.js';
import { MiB } from './lib/stats.js';

const RATE = 100;
const GATEWAY_BURST = 20;
const CLIENT_BURST = 10;
/** Jobs in flight: enough that the pace, not the answers' latency, bounds the run. */
const CONCURRENCY = 32;

interface RunnerArgs {
  url: string;
  apiKey: string;
  manifest: string;
  journal: string;
  outputDir: string;
}

interface RunnerResult {
  ms: number;
  completed: number;
  rssGrowth: number;
  resumeMs: number;
}

/** Writes a manifest of `count` image jobs, `img-0` to `img-<count - 1>`. */
function writeImageManifest(path: string, count: number): void {
  const lines: string[] = [];
  for (let i = 0; i < count; i++)
    lines.push(
      JSON.stringify({
        id: `img-${i}`,
        operation: 'images.generate',
        body: { model: 'imgmodel-2', prompt: `a paper crane, take ${i}` },
      }),
    );
  writeFileSync(path, `${lines.join('\n')}\n`);
}

/** Child side: runs the manifest, then resumes the finished run. */
export async function jobsRunner(args: RunnerArgs): Promise<RunnerResult> {
  const { MediaGateway } = await loadMediagw();
  const { runJobs } = (await import(
    pathToFileURL(join(distDir(), 'jobs/index.js')).href
  )) as typeof import('mediagw/jobs');
  const client = new MediaGateway({
    apiKey: args.apiKey,
    baseURL: args.url,
    maxRetries: 20,
    limits: { perModel: { '*': { requestsPerSecond: RATE, burst: CLIENT_BURST } } },
  });
  const options = { journal: args.journal, outputDir: args.outputDir, concurrency: CONCURRENCY };
  const stop = startPeakRss();
  const started = performance.now();
  const summary = await runJobs(client, args.manifest, options);
  const ms = performance.now() - started;
  const rss = stop();
  const resumeStart = performance.now();
  await runJobs(client, args.manifest, options);
  const resumeMs = performance.now() - resumeStart;
  return { ms, completed: summary.counts.completed, rssGrowth: rss.growth, resumeMs };
}

async function runJobsOnce(
  ctx: BenchContext,
  count: number,
): Promise<RunnerResult & { limited: number; checked: number }> {
  const { startMockGateway } = await loadTesting();
  const gateway = await startMockGateway({
    requestLogLimit: 0,
    // Image generation answers in a few real milliseconds: the pace is the limits'.
    speed: 1000,
    rateLimits: { perKeyModel: { requestsPerSecond: RATE, burst: GATEWAY_BURST } },
  });
  try {
    const dir = join(ctx.tmp, `jobs-${count}`);
    const manifest = join(ctx.tmp, `jobs-${count}.jsonl`);
    writeImageManifest(manifest, count);
    gateway.rateLimits.reset();
    const result = await runInChild<RunnerResult>(
      modulePath(import.meta.url),
      'jobsRunner',
      {
        url: gateway.url,
        apiKey: gateway.apiKey,
        manifest,
        journal: join(ctx.tmp, `jobs-${count}.journal`),
        outputDir: dir,
      } satisfies RunnerArgs,
      { timeoutMs: 600_000 },
    );
    const stats = gateway.rateLimits.stats;
    return { ...result, limited: stats.limited, checked: stats.checked };
  } finally {
    await gateway.close();
  }
}

/** Processes of the fleet, and the jobs they share. */
const FLEET = 3;
const FLEET_JOBS = 1_000;

interface FleetArgs {
  url: string;
  apiKey: string;
  redisUrl: string;
  run: string;
  manifest: string;
  outputDir: string;
}

/** Child side: one runner of the fleet, its journal and limiter on the shared Redis. */
export async function jobsFleetRunner(args: FleetArgs): Promise<{ completed: number }> {
  const { MediaGateway } = await loadMediagw();
  const jobs = (await import(
    pathToFileURL(join(distDir(), 'jobs/index.js')).href
  )) as typeof import('mediagw/jobs');
  const { RedisRateLimiter } = (await import(
    pathToFileURL(join(distDir(), 'redis/index.js')).href
  )) as typeof import('mediagw/redis');
  const connection = await jobs.RespConnection.open(args.redisUrl);
  try {
    const limiter = new RedisRateLimiter({
      client: connection,
      apiKey: args.apiKey,
      limits: { perModel: { '*': { requestsPerSecond: RATE, burst: CLIENT_BURST } } },
    });
    const client = new MediaGateway({
      apiKey: args.apiKey,
      baseURL: args.url,
      maxRetries: 20,
      limits: limiter,
    });
    await jobs.runJobs(client, args.manifest, {
      journal: new jobs.RedisJournal(connection, { run: args.run }),
      outputDir: args.outputDir,
      concurrency: CONCURRENCY,
    });
    await limiter.close();
    // What the fleet did, read after this runner ended: others may still be at work.
    const status = await jobs.readJournal(new jobs.RedisJournal(connection, { run: args.run }));
    return { completed: status.counts.completed };
  } finally {
    connection.close();
  }
}

/** The fleet: FLEET runners started together on one run; submissions counted per job. */
async function runFleet(
  ctx: BenchContext,
  redisUrl: string,
): Promise<{
  jobs: number;
  submissions: number;
  sent: number;
  repeated: number;
  completed: number;
  limited: number;
  ms: number;
}> {
  const { startMockGateway } = await loadTesting();
  const gateway = await startMockGateway({
    requestLogLimit: 100_000,
    speed: 1000,
    rateLimits: { perKeyModel: { requestsPerSecond: RATE, burst: GATEWAY_BURST } },
  });
  try {
    const manifest = join(ctx.tmp, 'jobs-fleet.jsonl');
    writeImageManifest(manifest, FLEET_JOBS);
    const args: FleetArgs = {
      url: gateway.url,
      apiKey: gateway.apiKey,
      redisUrl,
      run: `bench-${process.pid}-${Date.now()}`,
      manifest,
      outputDir: join(ctx.tmp, 'jobs-fleet'),
    };
    const started = performance.now();
    const results = await Promise.all(
      Array.from({ length: FLEET }, () =>
        runInChild<{ completed: number }>(modulePath(import.meta.url), 'jobsFleetRunner', args, {
          timeoutMs: 600_000,
        }),
      ),
    );
    const ms = performance.now() - started;
    const perJob = new Map<string, number>();
    for (const request of gateway.requests) {
      // Accepted submissions, the billed ones: a request answered 429 was refused, and retried.
      if (request.method !== 'POST' || request.path !== '/v1/images/generations') continue;
      if (request.status === undefined || request.status < 200 || request.status >= 300) continue;
      const prompt = (request.body as { prompt?: string } | undefined)?.prompt ?? '?';
      perJob.set(prompt, (perJob.get(prompt) ?? 0) + 1);
    }
    return {
      jobs: FLEET_JOBS,
      submissions: [...perJob.values()].reduce((a, b) => a + b, 0),
      sent: perJob.size,
      repeated: [...perJob.values()].filter((n) => n > 1).length,
      completed: Math.max(...results.map((r) => r.completed)),
      limited: gateway.rateLimits.stats.limited,
      ms,
    };
  } finally {
    await gateway.close();
  }
}

/** Runs the measurement and returns its rows. */
export async function measure(ctx: BenchContext): Promise<Row[]> {
  const large = ctx.quick ? 2_000 : 10_000;
  ctx.log(`jobs: 1,000 image jobs at ${RATE}/s`);
  const small = await runJobsOnce(ctx, 1_000);
  ctx.log(`jobs: ${large.toLocaleString('en')} image jobs at ${RATE}/s`);
  const big = await runJobsOnce(ctx, large);
  if (big.completed !== large || small.completed !== 1_000)
    ctx.note(`jobs: only ${big.completed} of ${large} and ${small.completed} of 1000 jobs completed`);
  const pace = big.completed / (big.ms / 1000);
  const rows: Row[] = [];
  const redis = await benchRedis();
  if (!redis)
    ctx.note('jobs: the fleet skipped, no Redis (set MEDIAGW_BENCH_REDIS_URL or install redis-server)');
  else {
    try {
      ctx.log(
        `jobs: a fleet of ${FLEET} processes on one Redis, ${FLEET_JOBS.toLocaleString('en')} image jobs`,
      );
      const fleet = await runFleet(ctx, redis.url);
      ctx.note(
        `jobs: fleet of ${FLEET} on one Redis: ${fleet.completed} of ${fleet.jobs} jobs completed, ${fleet.submissions} accepted submissions, ` +
          `${fleet.repeated} job(s) accepted more than once, ${fleet.limited} requests answered 429 (refused, then retried), ${(fleet.ms / 1000).toFixed(1)} s`,
      );
      if (fleet.completed !== fleet.jobs)
        ctx.note(`jobs: the fleet completed only ${fleet.completed} of ${fleet.jobs} jobs`);
      rows.push({
        id: 'jobs.fleet',
        figure: `a fleet of ${FLEET} processes on one Redis, ${FLEET_JOBS.toLocaleString('en')} image jobs: accepted submissions per job`,
        unit: 'submissions/job',
        better: 'lower',
        mediagw: fleet.submissions / fleet.jobs,
        // The share of the jobs sent at all: with submissions per job at 1, each was sent once.
        ratio: fleet.sent / fleet.jobs,
      });
    } finally {
      redis.stop();
    }
  }
  return [
    ...rows,
    {
      id: 'jobs.pace',
      figure: `${large.toLocaleString('en')} image jobs, gateway and client at ${RATE}/s`,
      unit: 'jobs/s',
      better: 'higher',
      mediagw: pace,
      limit: RATE,
      limitLabel: "the gateway's limit",
      ratio: pace / RATE,
    },
    {
      id: 'jobs.429',
      figure: `share of the ${large.toLocaleString('en')} jobs' requests answered 429`,
      unit: '%',
      better: 'lower',
      mediagw: (100 * big.limited) / Math.max(1, big.checked),
    },
    {
      id: 'jobs.rss',
      figure: `peak RSS growth of the runner, ${large.toLocaleString('en')} jobs over 1,000`,
      unit: 'MiB',
      better: 'lower',
      mediagw: Math.max(0, big.rssGrowth - small.rssGrowth) / MiB,
    },
    {
      id: 'jobs.resume',
      figure: `resuming the finished ${large.toLocaleString('en')}-job run`,
      unit: 'ms',
      better: 'lower',
      mediagw: big.resumeMs,
    },
  ];
}
