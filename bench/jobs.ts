/**
 * (12) Job runs (`mediagw/jobs`): a child process runs image jobs (`images.generate`, one
 * billable request each, then its download) from a manifest against the mock gateway of this
 * process, limited to RATE requests per second per key and model, with a client limited to the
 * same rate. Figures: the pace against the gateway's limit and the share answered 429, for
 * 10,000 jobs; the peak RSS growth of the runner from 1,000 to 10,000 jobs; and the time to
 * resume the finished 10,000-job run (journal and manifest read, every file checked, nothing
 * sent). `--quick` runs 2,000 jobs instead of 10,000.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
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
    const lines: string[] = [];
    for (let i = 0; i < count; i++)
      lines.push(
        JSON.stringify({
          id: `img-${i}`,
          operation: 'images.generate',
          body: { model: 'imgmodel-2', prompt: `a paper crane, take ${i}` },
        }),
      );
    writeFileSync(manifest, `${lines.join('\n')}\n`);
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
  return [
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
