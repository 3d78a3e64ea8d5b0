/**
 * `runJobs`: submit, wait and download every job of a manifest, through a journal that makes
 * the run resumable after any crash without sending any job twice.
 */
import { setMaxListeners } from 'node:events';
import { stat } from 'node:fs/promises';
import { FileInputError, type MediaGateway, RequestValidationError } from '../index.js';
import { JobRun, type RunJobsOptions } from './job-run.js';
import {
  FileJournal,
  JOB_STATES,
  type JobJournal,
  type JobRecord,
  type JobState,
  readFileJournal,
} from './journal.js';
import { type BadLine, checkJobSource, type JobInput, type JobSource, readJobs } from './manifest.js';
import { OutputFolder } from './outputs.js';
import { PermitHandoff } from './permits.js';

/** What a run ends with. */
export interface RunSummary {
  /** Jobs per state, over the jobs of the manifest. */
  counts: Record<JobState, number>;
  /** Jobs in the manifest. */
  total: number;
  /** Seconds reserved by the submissions of the journal (refunds deducted). */
  reservedSeconds: number;
  /** Whether `signal` stopped the run before every job had its turn. */
  interrupted: boolean;
}

/** The manifest breaks rules: nothing was sent. `lines` holds each bad line with its issues. */
export class ManifestError extends RequestValidationError {
  /** The bad lines, with their numbers and ids. */
  readonly lines: BadLine[];

  constructor(lines: BadLine[]) {
    super(
      'the manifest',
      lines.flatMap((l) =>
        l.issues.map((i) => ({
          path: `line ${l.line}${l.id === undefined ? '' : ` (${l.id})`}${i.path ? `: ${i.path}` : ''}`,
          message: i.message,
        })),
      ),
    );
    this.message += '. No job was sent: `mediagw jobs plan` lists every bad line.';
    this.lines = lines;
  }
}

/** Operations that are tasks, sent with a `client_reference_id` to reconcile them by. */
function countStates(): Record<JobState, number> {
  return Object.fromEntries(JOB_STATES.map((s) => [s, 0])) as Record<JobState, number>;
}

/** The longest delay a timer keeps (2^31 - 1 ms); past it Node fires the timer after 1 ms. */
const MAX_MS = 2_147_483_647;

/**
 * Checks the options of {@link runJobs} before anything is opened or sent: a wrong one is a
 * `RequestValidationError` naming it, not a `TypeError` or `RangeError` in the middle of a run.
 */
function checkRunOptions(options: RunJobsOptions): { concurrency: number; budget: number | undefined } {
  if (options === null || typeof options !== 'object')
    throw new RequestValidationError('runJobs', [
      { path: 'options', message: 'must be an object with at least journal and outputDir' },
    ]);
  const issues: { path: string; message: string }[] = [];
  const { journal, outputDir } = options;
  if (!(typeof journal === 'string' ? journal !== '' : typeof journal === 'object' && journal !== null))
    issues.push({ path: 'journal', message: 'must be a file path or a JobJournal' });
  if (typeof outputDir !== 'string' || outputDir === '')
    issues.push({ path: 'outputDir', message: 'must be the path of a folder' });
  const concurrency = options.concurrency ?? 4;
  if (!Number.isInteger(concurrency) || concurrency < 1)
    issues.push({ path: 'concurrency', message: 'must be a whole number, 1 or more' });
  const budget = options.maxReservedSeconds;
  if (budget !== undefined && !(Number.isFinite(budget) && budget >= 0))
    issues.push({ path: 'maxReservedSeconds', message: 'must be a number of seconds, 0 or more' });
  for (const key of ['reconcileTimeoutMs', 'waitTimeoutMs', 'pollIntervalMs'] as const) {
    const ms = options[key];
    if (ms !== undefined && !(Number.isInteger(ms) && ms >= 1 && ms <= MAX_MS))
      issues.push({ path: key, message: `must be a whole number of milliseconds from 1 to ${MAX_MS}` });
  }
  for (const key of ['onProgress', 'onStart'] as const) {
    if (options[key] !== undefined && typeof options[key] !== 'function')
      issues.push({ path: key, message: 'must be a function' });
  }
  if (issues.length > 0) throw new RequestValidationError('runJobs', issues);
  return { concurrency, budget };
}

/**
 * Jobs from an iterable are read once; a manifest file is streamed twice (check, then run), and
 * named again to resume, so it must be a regular file: a pipe read twice gives nothing the
 * second time, and the run would end at once, having run no job.
 * @throws FileInputError for a manifest that is a pipe, FIFO or device.
 */
async function replayable(source: JobSource): Promise<JobSource> {
  if (typeof source === 'string') {
    // stat, not open: opening a FIFO with no writer would wait for one. A missing or unreadable
    // file is left to the read, which names the problem.
    const stats = await stat(source).catch(() => undefined);
    if (stats && !stats.isFile() && !stats.isDirectory())
      throw new FileInputError(
        'the manifest',
        source,
        'is not a regular file (a pipe, FIFO or device): a run reads its manifest twice, checking every job before it sends one, and reads it again to resume. Save it to a file first; nothing was sent',
      );
    return source;
  }
  if (Array.isArray(source)) return source;
  const jobs: JobInput[] = [];
  for await (const job of source as AsyncIterable<JobInput>) jobs.push(job);
  return jobs;
}

/**
 * Reads every job of the manifest before any is sent, and counts the jobs and those the journal
 * completed (for `onStart`). The bodies `skipBodies` names are not checked again.
 * @throws ManifestError naming each bad line.
 */
async function checkManifest(
  source: JobSource,
  journal: JobJournal,
  skipBodies: (id: string) => boolean,
): Promise<{ total: number; completed: number }> {
  const invalid: ManifestError['lines'] = [];
  let total = 0;
  let completed = 0;
  for await (const line of readJobs(source, { skipBodies })) {
    if (!line.job) invalid.push({ line: line.line, id: line.id, issues: line.issues });
    else {
      total++;
      if (journal.get(line.job.id)?.state === 'completed') completed++;
    }
  }
  if (invalid.length > 0) throw new ManifestError(invalid);
  return { total, completed };
}

/**
 * Runs jobs: each is claimed in the journal (durably) before it is sent, then submitted,
 * waited for and its outputs saved whole in `outputDir`. Running again with the same journal
 * resumes: completed jobs are left alone (their files downloaded again when missing), submitted
 * ones are waited for, and no job is ever sent twice by itself. A job sent without an answer is
 * `in_doubt`: reconciled from its webhook event (`events`) or left for you to check
 * (`resubmitInDoubt` sends it again, and may bill it twice).
 *
 * Every job is checked first: a manifest with a bad line sends nothing.
 *
 * @returns counts per state; the run resolves when `signal` aborts too (`interrupted: true`).
 * @throws RequestValidationError when an option, or `jobs`, is out of range or of the wrong type,
 * before the journal is opened.
 * @throws ManifestError (a RequestValidationError) when a job breaks a rule, before any request.
 * @throws JobJournalError when the journal is in use by another run, damaged, or cannot be written.
 * @example
 * const summary = await runJobs(client, 'catalogue.jsonl', { journal: 'catalogue.journal', outputDir: 'out' });
 * if (summary.counts.completed !== summary.total) process.exitCode = 1;
 */
export async function runJobs(
  client: MediaGateway,
  jobs: JobSource,
  options: RunJobsOptions,
): Promise<RunSummary> {
  const { concurrency, budget } = checkRunOptions(options);
  checkJobSource(jobs, 'runJobs');
  if (client === null || typeof client !== 'object' || typeof client.videos !== 'object')
    throw new RequestValidationError('runJobs', [
      { path: 'client', message: 'must be a MediaGateway client' },
    ]);
  const source = await replayable(jobs);
  const journal = typeof options.journal === 'string' ? new FileJournal(options.journal) : options.journal;
  const outputs = new OutputFolder(options.outputDir);
  const signal = options.signal;
  const stop = new AbortController();
  // Every request and wait in flight listens to it: a few per job.
  setMaxListeners(concurrency * 4 + 10, stop.signal);
  await journal.open();
  let fatal: unknown;
  const onAbort = () => stop.abort(signal?.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  if (signal?.aborted) stop.abort(signal.reason);
  try {
    // Check every job first; the bodies of jobs the journal finished need no check again.
    const finished = (id: string) => {
      const state = journal.get(id)?.state;
      return state === 'completed' || (state === 'failed' && !options.retryFailed);
    };
    const counted = await checkManifest(source, journal, finished);
    options.onStart?.(counted);
    outputs.prepare();

    const paced = PermitHandoff.of(client);
    const run = new JobRun(paced.client, journal, outputs, options, budget, stop.signal, paced.permits);
    const ids = new Set<string>();
    const running = new Set<Promise<void>>();
    for await (const line of readJobs(source, { skipBodies: finished })) {
      const job = line.job as JobInput;
      while (running.size >= concurrency) await Promise.race(running);
      // Stopped: the jobs not reached stay as they are; the summary counts those reached.
      if (stop.signal.aborted) break;
      ids.add(job.id);
      const task: Promise<void> = run
        .handle(job)
        .catch((error: unknown) => {
          fatal ??= error;
          stop.abort(error);
        })
        .finally(() => running.delete(task));
      running.add(task);
    }
    await Promise.all(running);
    if (fatal !== undefined) throw fatal;
    await journal.refresh();

    const counts = countStates();
    for (const id of ids) counts[journal.get(id)?.state ?? 'pending']++;
    return {
      counts,
      total: ids.size,
      reservedSeconds: journal.reservedSeconds(),
      interrupted: Boolean(signal?.aborted),
    };
  } finally {
    signal?.removeEventListener('abort', onAbort);
    outputs.close();
    await journal.close();
  }
}

/** What `jobs status` shows: counts per state and every job the journal knows. */
export interface JournalStatus {
  /** Jobs per state. */
  counts: Record<JobState, number>;
  /** Seconds reserved, refunds deducted. */
  reservedSeconds: number;
  /** Every job, in the order first recorded. */
  jobs: JobRecord[];
}

/**
 * The state of every job of a journal, read without taking it: a run may be going on. A
 * journal object (a `RedisJournal`) is read as it stands now.
 *
 * @throws JobJournalError when the journal is damaged; the file system's error when it is missing.
 * @example
 * const { counts, jobs } = await readJournal('catalogue.journal');
 */
export async function readJournal(journal: string | JobJournal): Promise<JournalStatus> {
  let records: JobRecord[];
  let reservedSeconds: number;
  if (typeof journal === 'string') ({ records, reservedSeconds } = readFileJournal(journal));
  else {
    await journal.refresh();
    records = [...journal.records()];
    reservedSeconds = journal.reservedSeconds();
  }
  const counts = countStates();
  for (const record of records) counts[record.state]++;
  return { counts, reservedSeconds, jobs: records };
}
