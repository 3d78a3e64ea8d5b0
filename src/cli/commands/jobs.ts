/**
 * `mediagw jobs plan|run|status`: runs of many jobs from a JSON Lines manifest, through the
 * journal of `mediagw/jobs`, resumable by running the same command again.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import cliProgress from 'cli-progress';
import type { Command } from 'commander';
import type { MediaGateway, RequestLimits } from '../../index.js';
import {
  type JobChange,
  JobEvents,
  type JobJournal,
  planJobs,
  RedisJournal,
  RespConnection,
  type RunSummary,
  readJournal,
  runJobs,
} from '../../jobs/index.js';
import { RedisRateLimiter } from '../../redis/index.js';
import { createNodeWebhookHandler } from '../../webhooks/index.js';
import { shellWord } from '../context.js';
import { CliError, EXIT } from '../exit-codes.js';
import { integer, number } from '../input.js';
import { type Output, shownJournal } from '../output.js';
import { examples, KEY_ID_HELP, run, webhookKeyId } from './shared.js';

/** Exit statuses of `jobs run` besides the program's own (see EXIT_HELP below and docs/jobs.md). */
export const JOBS_EXIT = {
  /** Every job is completed. */
  ok: EXIT.ok,
  /** Some jobs failed (refused, or their task failed); none is in doubt. */
  failed: EXIT.taskFailed,
  /** Some jobs are in doubt: sent without an answer; check before resubmitting. */
  inDoubt: EXIT.ambiguous,
  /** Some jobs are not done yet (skipped by the budget, still running, or not sent): run again. */
  unfinished: 6,
  /** SIGINT stopped the run. */
  interrupted: 130,
  /** SIGTERM stopped the run. */
  terminated: 143,
  /** SIGHUP (the terminal or SSH session closed) stopped the run. */
  hungUp: 129,
} as const;

/** The signals that stop a run cleanly, with its exit status. */
const STOP_EXIT: Readonly<Record<string, number>> = {
  SIGINT: JOBS_EXIT.interrupted,
  SIGTERM: JOBS_EXIT.terminated,
  SIGHUP: JOBS_EXIT.hungUp,
};

const RUN_EXIT_HELP = `
Exit status:
  0    every job is completed
  1    usage error, a manifest with bad lines (nothing sent), or a journal in use
  3    some jobs failed (refused, or their task failed); rerun with --retry-failed to send them again
  5    some jobs are in doubt: sent without an answer, maybe billed; see \`mediagw jobs status\`
  6    some jobs are not done (skipped by the budget, waits that passed their deadline): run again
  130  stopped by Ctrl+C (SIGINT); 143 by SIGTERM; 129 by SIGHUP (the terminal closed).
       Run the same command again to resume
`;

interface JournalFlags {
  journal: string;
  run?: string;
}

interface RunFlags extends JournalFlags {
  outputDir: string;
  concurrency?: number;
  maxReservedSeconds?: number;
  retryFailed?: boolean;
  resubmitInDoubt?: boolean;
  waitTimeout?: number;
  pollInterval?: number;
  eventsPort?: number;
  eventsHost?: string;
  webhookSecret?: string;
  webhookKid?: string;
  notifyEndpoint?: string;
  rate?: number;
}

/**
 * The run's own webhook receiver, with `--events-port`: verified events end the waits and
 * reconcile the jobs in doubt by their `client_reference_id`.
 */
async function startReceiver(
  out: Output,
  flags: RunFlags,
): Promise<{ events?: JobEvents; close: () => Promise<void> }> {
  if (flags.eventsPort === undefined) return { close: async () => {} };
  const secret = flags.webhookSecret ?? process.env.MEDIAGW_WEBHOOK_SECRET;
  if (!secret)
    throw new CliError(
      "--events-port needs the endpoint's signing secret: pass --webhook-secret or set MEDIAGW_WEBHOOK_SECRET",
    );
  const kid = webhookKeyId(flags.webhookKid);
  const events = new JobEvents();
  const server: Server = createServer(
    createNodeWebhookHandler({ secrets: { [kid]: secret }, onEvent: events.publish, onError: () => {} }),
  );
  const host = flags.eventsHost ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error) =>
      reject(
        new CliError(`the event receiver could not listen on ${host}:${flags.eventsPort}: ${error.message}`),
      ),
    );
    server.listen(flags.eventsPort, host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  out.info(`receiving webhook events on http://${host}:${port}/`);
  return {
    events,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The exit status of a finished run. */
export function runExitCode(summary: RunSummary): number {
  const { counts } = summary;
  if (counts.in_doubt > 0) return JOBS_EXIT.inDoubt;
  if (counts.failed > 0) return JOBS_EXIT.failed;
  if (counts.completed < summary.total) return JOBS_EXIT.unfinished;
  return JOBS_EXIT.ok;
}

/** The journal a command names: a file path, or a `redis://` URL with `--run`. */
async function openJournal(
  flags: JournalFlags,
): Promise<{ journal: string | JobJournal; redis?: RespConnection; close: () => void }> {
  if (!flags.journal.startsWith('redis://')) {
    if (flags.run !== undefined)
      throw new CliError('--run names a run in a Redis journal: pass --journal redis://…');
    return { journal: flags.journal, close: () => {} };
  }
  if (flags.run === undefined)
    throw new CliError(
      'a Redis journal needs --run NAME: the runners that give the same name share its jobs',
    );
  const connection = await RespConnection.open(flags.journal);
  try {
    return {
      journal: new RedisJournal(connection, { run: flags.run }),
      redis: connection,
      close: () => connection.close(),
    };
  } catch (error) {
    connection.close();
    throw error;
  }
}

/**
 * The client the run sends with. With `--rate N`, at most N requests a second per model (a burst
 * of N): a Redis journal's runners share one budget through a `RedisRateLimiter` on the same
 * Redis, keyed by the API key's hash; a file journal's run keeps to it in this process.
 */
function pacedClient(
  client: MediaGateway,
  apiKey: string | undefined,
  rate: number | undefined,
  redis: RespConnection | undefined,
): { client: MediaGateway; close: () => Promise<void> } {
  if (rate === undefined) return { client, close: async () => {} };
  const limits: RequestLimits = { perModel: { '*': { requestsPerSecond: rate } } };
  if (!redis || apiKey === undefined)
    return { client: client.withOptions({ limits }), close: async () => {} };
  const limiter = new RedisRateLimiter({ client: redis, apiKey, limits });
  return { client: client.withOptions({ limits: limiter }), close: () => limiter.close() };
}

function resumeCommand(manifest: string, flags: RunFlags): string[] {
  const parts = ['jobs', 'run', manifest, '--journal', shownJournal(flags.journal)];
  parts.push('--output-dir', flags.outputDir);
  if (flags.run !== undefined) parts.push('--run', flags.run);
  if (flags.concurrency !== undefined) parts.push('--concurrency', String(flags.concurrency));
  if (flags.rate !== undefined) parts.push('--rate', String(flags.rate));
  if (flags.waitTimeout !== undefined) parts.push('--wait-timeout', String(flags.waitTimeout));
  if (flags.pollInterval !== undefined) parts.push('--poll-interval', String(flags.pollInterval));
  if (flags.notifyEndpoint !== undefined) parts.push('--notify-endpoint', flags.notifyEndpoint);
  if (flags.eventsPort !== undefined) parts.push('--events-port', String(flags.eventsPort));
  if (flags.maxReservedSeconds !== undefined)
    parts.push('--max-reserved-seconds', String(flags.maxReservedSeconds));
  return parts;
}

function changeLine(out: Output, change: JobChange): string {
  const c = out.errColor;
  const paint =
    change.state === 'completed'
      ? c.green
      : change.state === 'failed' || change.state === 'in_doubt'
        ? c.red
        : change.state === 'skipped'
          ? c.yellow
          : c.dim;
  let detail = '';
  if (change.files) detail = ` ${change.files.join(', ')}`;
  else if (change.reason) detail = ` (${change.reason})`;
  else if (change.task_id) detail = ` ${change.task_id}`;
  if (change.error) detail += `: ${change.error.message}`;
  return `${change.id}: ${paint(change.state)}${detail}`;
}

/**
 * On a terminal: one bar of completed jobs over the manifest's, with the jobs in flight and the
 * failures so far; a job that fails, ends in doubt or is skipped gets its line above the bar.
 */
class JobsBar {
  private readonly bars: cliProgress.MultiBar;
  private bar: cliProgress.SingleBar | undefined;
  private completed = 0;
  private readonly states = new Map<string, string>();

  constructor(private readonly out: Output) {
    const c = out.errColor;
    this.bars = new cliProgress.MultiBar({
      stream: out.stderr,
      format: `${c.cyan('jobs')} {bar} {value}/{total} completed ${c.dim('|')} {detail}`,
      barCompleteChar: '█',
      barIncompleteChar: '░',
      barsize: 24,
      hideCursor: true,
    });
  }

  start(total: number, completed: number): void {
    this.completed = completed;
    this.bar = this.bars.create(total, completed, { detail: '' });
  }

  change(change: JobChange): void {
    this.states.set(change.id, change.state);
    if (change.state === 'completed') this.completed++;
    if (change.state === 'failed' || change.state === 'in_doubt' || change.state === 'skipped')
      this.log(changeLine(this.out, change));
    const counts = new Map<string, number>();
    for (const state of this.states.values()) counts.set(state, (counts.get(state) ?? 0) + 1);
    const detail = ['submitted', 'failed', 'in_doubt', 'skipped']
      .filter((state) => counts.get(state))
      .map((state) => `${counts.get(state)} ${state === 'submitted' ? 'in flight' : state.replace('_', ' ')}`)
      .join(', ');
    this.bar?.update(this.completed, { detail });
  }

  /** A message above the bar. */
  log(line: string): void {
    this.bars.log(`${line}\n`);
    // Drawn now: a line left in the buffer at stop() would never be written.
    this.bars.update();
  }

  stop(): void {
    this.bars.stop();
  }
}

/** Registers `jobs`. */
export function registerJobs(program: Command): void {
  const jobs = program
    .command('jobs')
    .description('run many jobs from a JSON Lines manifest: resumable, never sent twice');

  const plan = jobs
    .command('plan')
    .description('check every line of a manifest offline (no key) and total its jobs and reserved seconds')
    .argument('<manifest>', 'a JSON Lines file: {"id", "operation", "body"} per line');
  examples(plan, 'mediagw jobs plan catalogue.jsonl', 'mediagw jobs plan catalogue.jsonl --json');
  plan.action(
    run(async (ctx, manifest: string) => {
      const out = ctx.output;
      let result: Awaited<ReturnType<typeof planJobs>>;
      try {
        result = await planJobs(manifest);
      } catch (error) {
        throw new CliError(`cannot read ${manifest}: ${(error as Error).message}`);
      }
      const doc = {
        valid: result.valid,
        lines: result.lines,
        jobs: result.jobs,
        operations: result.operations,
        reserved: result.reserved,
        reserved_seconds: result.reservedSeconds,
        invalid: result.invalid,
      };
      out.result(doc, () => [
        ...result.invalid.flatMap((bad) => [
          `${out.color.red('✗')} line ${bad.line}${bad.id === undefined ? '' : ` (${bad.id})`}`,
          ...bad.issues.map((i) => `    ${out.color.bold(i.path || '(line)')}: ${i.message}`),
        ]),
        `${result.jobs} valid job${result.jobs === 1 ? '' : 's'}, ${result.invalid.length} bad line${result.invalid.length === 1 ? '' : 's'}`,
        ...(result.jobs > 0
          ? out.table(
              ['operation', 'jobs'],
              Object.entries(result.operations).map(([op, n]) => [op, n]),
            )
          : []),
        ...(result.reserved.length
          ? [
              '',
              ...out.table(
                ['model', 'tier', 'jobs', 'reserved'],
                result.reserved.map((r) => [r.model, r.tier, r.jobs, `${r.seconds} s`]),
              ),
              `reserved in all: ${result.reservedSeconds} s`,
            ]
          : []),
      ]);
      if (!result.valid) process.exitCode = EXIT.usage;
    }),
  );

  const runCommand = jobs
    .command('run')
    .description('submit, wait for and download every job; the same command again resumes')
    .argument('<manifest>', 'a JSON Lines file: {"id", "operation", "body"} per line')
    .requiredOption(
      '--journal <file|url>',
      'the journal of the run (a file, created when missing; or redis://host:port/db with --run); keep it to resume',
    )
    .option('--run <name>', 'with a redis:// journal: the run, shared by every runner that names it')
    .requiredOption('--output-dir <dir>', 'where outputs are saved, as <id>.<ext>')
    .option('--concurrency <n>', 'jobs in flight at once (default: 4)', integer('--concurrency', 1, 1000))
    .option(
      '--rate <n>',
      "requests a second per model, the gateway's limit for the key (0.5: one every 2 s); with a redis:// journal, one budget for every runner of the run",
      number('--rate', 0.001, 1_000_000),
    )
    .option(
      '--max-reserved-seconds <s>',
      'video seconds the run may reserve, across restarts; jobs past it are skipped',
      number('--max-reserved-seconds', 0),
    )
    .option('--retry-failed', 'send the jobs that failed again')
    .option(
      '--resubmit-in-doubt',
      'send the jobs in doubt again: they may exist already, and be billed twice',
    )
    .option(
      '--wait-timeout <seconds>',
      'deadline of each task wait; a job past it stays submitted (default: 3600)',
      // A wait's deadline is a timer: at most 2147483647 ms.
      number('--wait-timeout', 1, 2_147_483.647),
    )
    .option(
      '--events-port <n>',
      "receive the gateway's webhook events on this port (0: any free one): waits end on them, and jobs in doubt are reconciled",
      integer('--events-port', 0, 65535),
    )
    .option('--events-host <host>', 'the address the event receiver listens on (default: 127.0.0.1)')
    .option(
      '--webhook-secret <secret>',
      "the endpoint's signing secret (default: $MEDIAGW_WEBHOOK_SECRET); never printed",
    )
    .option('--webhook-kid <id>', `its key ID (${KEY_ID_HELP})`)
    .option(
      '--notify-endpoint <id>',
      'ask for task.completed and task.failed events to this webhook endpoint in every video and async image job without notifications of its own',
    )
    .option(
      '--poll-interval <ms>',
      "milliseconds between task queries while waiting (default: the spec's figure for the task kind)",
      integer('--poll-interval', 1, 2_147_483_647),
    );
  examples(
    runCommand,
    'mediagw jobs run catalogue.jsonl --journal catalogue.journal --output-dir out',
    'mediagw jobs run catalogue.jsonl --journal catalogue.journal --output-dir out --max-reserved-seconds 600 --json',
  );
  runCommand.addHelpText('after', RUN_EXIT_HELP);
  runCommand.action(
    run(async (ctx, manifest: string, flags: RunFlags) => {
      const out = ctx.output;
      const { journal, redis, close } = await openJournal(flags);
      let receiver: Awaited<ReturnType<typeof startReceiver>>;
      let paced: ReturnType<typeof pacedClient> | undefined;
      try {
        paced = pacedClient(await ctx.gatewayClient(), ctx.apiKey, flags.rate, redis);
        receiver = await startReceiver(out, flags);
      } catch (error) {
        await paced?.close();
        close();
        throw error;
      }
      const client = paced.client;
      const stop = new AbortController();
      let stoppedBy: NodeJS.Signals | undefined;
      // A bar on a terminal; piped, one line per change.
      const bar = out.interactive && !out.json ? new JobsBar(out) : undefined;
      const onSignal = (signal: NodeJS.Signals) => {
        // Said once: a second signal changes nothing (the answers on the wire are still awaited).
        if (stoppedBy) return;
        stoppedBy = signal;
        const message = `${signal}: no new job is sent; finishing the journal…`;
        if (bar) bar.log(message);
        else if (!out.json) out.info(message);
        stop.abort(new Error(signal));
      };
      for (const signal of Object.keys(STOP_EXIT)) process.on(signal, onSignal);
      // The run ends itself on a signal, once the submissions on the wire have their answers
      // recorded (each within the client's timeout): the command's 5 s limit for tidying up
      // would end it first, and leave billed jobs in doubt with no summary.
      ctx.interrupt.commandHandlesSignals = true;
      if (flags.resubmitInDoubt)
        out.warn(
          '--resubmit-in-doubt sends the jobs in doubt again: a job that was accepted is billed twice',
        );
      let summary: RunSummary;
      try {
        summary = await runJobs(client, manifest, {
          journal,
          outputDir: flags.outputDir,
          concurrency: flags.concurrency,
          maxReservedSeconds: flags.maxReservedSeconds,
          retryFailed: flags.retryFailed,
          resubmitInDoubt: flags.resubmitInDoubt,
          waitTimeoutMs: flags.waitTimeout === undefined ? undefined : Math.round(flags.waitTimeout * 1000),
          pollIntervalMs: flags.pollInterval,
          events: receiver.events,
          notifications:
            flags.notifyEndpoint === undefined
              ? undefined
              : { webhook: { endpoint_id: flags.notifyEndpoint, events: ['task.completed', 'task.failed'] } },
          signal: stop.signal,
          onStart: (jobs) => bar?.start(jobs.total, jobs.completed),
          onProgress: (change) => (bar ? bar.change(change) : out.info(changeLine(out, change))),
        });
      } finally {
        bar?.stop();
        for (const signal of Object.keys(STOP_EXIT)) process.removeListener(signal, onSignal);
        await paced.close();
        close();
        await receiver.close();
      }
      // None under --mock: its gateway and tasks end with this command.
      const resume = ctx.finishCommand(resumeCommand(manifest, flags));
      let code = runExitCode(summary);
      if (stoppedBy) code = STOP_EXIT[stoppedBy] ?? JOBS_EXIT.interrupted;
      out.result(
        {
          counts: summary.counts,
          total: summary.total,
          reserved_seconds: summary.reservedSeconds,
          interrupted: summary.interrupted,
          journal: shownJournal(flags.journal),
          ...(flags.run === undefined ? {} : { run: flags.run }),
          output_dir: flags.outputDir,
          exit_code: code,
          ...(code === JOBS_EXIT.ok || !resume ? {} : { resume }),
        },
        () => [
          (summary.interrupted
            ? `stopped after ${summary.total} jobs had their turn: ${summary.counts.completed} completed`
            : `${summary.counts.completed} of ${summary.total} jobs completed`) +
            Object.entries(summary.counts)
              .filter(([state, n]) => state !== 'completed' && n > 0)
              .map(([state, n]) => `, ${n} ${state}`)
              .join(''),
          ...(summary.reservedSeconds > 0 ? [`reserved: ${summary.reservedSeconds} s`] : []),
          ...(summary.counts.in_doubt > 0
            ? [
                `${summary.counts.in_doubt} job(s) in doubt: sent without an answer, maybe billed. ` +
                  `See them with: mediagw jobs status --journal ${shellWord(shownJournal(flags.journal))}${flags.run === undefined ? '' : ` --run ${shellWord(flags.run)}`}`,
              ]
            : []),
          ...(code === JOBS_EXIT.ok || !resume ? [] : [`resume with: ${resume}`]),
        ],
      );
      process.exitCode = code;
    }),
  );

  const status = jobs
    .command('status')
    .description("every job's state in a journal: pending, in_doubt, submitted, completed, failed, skipped")
    .requiredOption(
      '--journal <file|url>',
      'the journal of the run: a file, or redis://host:port/db with --run',
    )
    .option('--run <name>', 'with a redis:// journal: the run');
  examples(status, 'mediagw jobs status --journal catalogue.journal --json');
  status.action(
    run(async (ctx, flags: JournalFlags) => {
      const out = ctx.output;
      let result: Awaited<ReturnType<typeof readJournal>>;
      const { journal, close } = await openJournal(flags);
      try {
        result = await readJournal(journal);
      } finally {
        close();
      }
      const jobs = result.jobs.map((job) => {
        const entry: Record<string, unknown> = { id: job.id, state: job.state };
        if (job.task_id) entry.task_id = job.task_id;
        if (job.client_reference_id) entry.client_reference_id = job.client_reference_id;
        if (job.files) entry.files = job.files;
        if (job.error) entry.error = job.error;
        if (job.reason) entry.reason = job.reason;
        return entry;
      });
      out.result({ counts: result.counts, reserved_seconds: result.reservedSeconds, jobs }, () => [
        ...out.table(
          ['id', 'state', 'task', 'detail'],
          result.jobs.map((job) => [
            job.id,
            job.state,
            job.task_id ?? '',
            job.state === 'in_doubt'
              ? `sent with client_reference_id ${job.client_reference_id ?? '(none)'}, no answer: ${job.error?.message ?? 'the run stopped'}`
              : (job.files?.join(', ') ?? job.error?.message ?? job.reason ?? ''),
          ]),
        ),
        Object.entries(result.counts)
          .map(([state, n]) => `${n} ${state}`)
          .join(', '),
      ]);
    }),
  );
}
