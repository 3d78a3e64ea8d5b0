/**
 * `runJobs`: submit, wait and download every job of a manifest, through a journal that makes
 * the run resumable after any crash without sending any job twice.
 */
import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import {
  AmbiguousSubmissionError,
  APIConnectionError,
  APIError,
  APIUserAbortError,
  type ImageData,
  type MediaGateway,
  MediaGatewayError,
  type Notifications,
  RequestValidationError,
  TaskFailedError,
  WaitTimeoutError,
} from '../index.js';
import type { JobEvents } from './events.js';
import {
  FileJournal,
  JOB_STATES,
  type JobError,
  type JobJournal,
  JobJournalError,
  type JobRecord,
  type JobState,
  readFileJournal,
} from './journal.js';
import {
  type BadLine,
  checkJobSource,
  type JobInput,
  type JobSource,
  readJobs,
  reservationOf,
} from './manifest.js';
import { extensionOf, OutputFolder, outputName } from './outputs.js';

/** A change of a job's state, told to `onProgress`. */
export interface JobChange {
  /** The job's id. */
  id: string;
  /** Its new state. */
  state: JobState;
  /** Its task ID, when known. */
  task_id?: string | undefined;
  /** Its files, once completed. */
  files?: string[] | undefined;
  /** Its error, when failed or in doubt. */
  error?: JobError | undefined;
  /** Why it was skipped. */
  reason?: string | undefined;
}

/** Options of {@link runJobs}. */
export interface RunJobsOptions {
  /** The journal: a file path, or a journal of your own (e.g. a Redis one). */
  journal: string | JobJournal;
  /** Where outputs are saved, as `<id>.<ext>`, `<id>-<n>.<ext>` for several, `<id>.json` for embeddings. */
  outputDir: string;
  /** Jobs in flight at once (submitting, waiting or downloading). @default 4 */
  concurrency?: number | undefined;
  /**
   * Reserved seconds (the SDK's estimate of each video job) the run may reach, counted across
   * restarts: a job that would pass it is `skipped` with reason `budget`.
   */
  maxReservedSeconds?: number | undefined;
  /** Sends the jobs that failed again. @default false */
  retryFailed?: boolean | undefined;
  /**
   * Sends the jobs in doubt again (sent, no answer). They may exist and be billed already: this
   * may bill them twice. @default false
   */
  resubmitInDoubt?: boolean | undefined;
  /** Stops submitting, waiting and downloading; the journal stays consistent; the run resolves. */
  signal?: AbortSignal | undefined;
  /** Told every change of a job's state. */
  onProgress?: ((change: JobChange) => void) | undefined;
  /** Told, once every job was checked and before any is sent, how many jobs there are and how many are completed already. */
  onStart?: ((jobs: { total: number; completed: number }) => void) | undefined;
  /** Webhook events: waits end on them, and jobs in doubt are reconciled by `client_reference_id`. */
  events?: JobEvents | undefined;
  /**
   * Added to every video and async image job whose body has no `notifications` of its own, so
   * that the gateway sends the events that `events` receives.
   */
  notifications?: Notifications | undefined;
  /** How long a job in doubt waits for its event, with `events`, in ms. @default 60000 */
  reconcileTimeoutMs?: number | undefined;
  /** Deadline of each task wait, in ms; a job past it stays `submitted`. @default 3600000 */
  waitTimeoutMs?: number | undefined;
  /** Milliseconds between the polls of a wait. @default the client's `pollInterval`, else the spec's figure per task kind */
  pollIntervalMs?: number | undefined;
}

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
      'runJobs (nothing was sent; check the manifest with `mediagw jobs plan`)',
      lines.flatMap((l) =>
        l.issues.map((i) => ({
          path: `line ${l.line}${l.id === undefined ? '' : ` (${l.id})`}${i.path ? `: ${i.path}` : ''}`,
          message: i.message,
        })),
      ),
    );
    this.lines = lines;
  }
}

/** Operations that are tasks, sent with a `client_reference_id` to reconcile them by. */
const TASK_OPERATIONS = new Set(['videos.create', 'images.generateAsync']);

function errorOf(error: unknown): JobError {
  const out: JobError = {
    type: error instanceof Error ? error.name : 'Error',
    message: error instanceof Error ? error.message : String(error),
  };
  if (error instanceof APIError) {
    out.status = error.status;
    out.code = error.code;
  }
  if (error instanceof TaskFailedError) out.code = error.code;
  return out;
}

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

/** Jobs from an iterable are read once; a manifest file is streamed twice (check, then run). */
async function replayable(source: JobSource): Promise<JobSource> {
  if (typeof source === 'string' || Array.isArray(source)) return source;
  const jobs: JobInput[] = [];
  for await (const job of source as AsyncIterable<JobInput>) jobs.push(job);
  return jobs;
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
  const waitTimeout = options.waitTimeoutMs ?? 3_600_000;
  const reconcileTimeout = options.reconcileTimeoutMs ?? 60_000;
  const waitOptions = {
    signal: stop.signal,
    timeout: waitTimeout,
    ...(options.events ? { events: options.events } : {}),
    ...(options.pollIntervalMs === undefined ? {} : { interval: options.pollIntervalMs }),
  };
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
    const invalid: ManifestError['lines'] = [];
    let total = 0;
    let completed = 0;
    for await (const line of readJobs(source, { skipBodies: finished })) {
      if (!line.job) invalid.push({ line: line.line, id: line.id, issues: line.issues });
      else {
        total++;
        if (journal.get(line.job.id)?.state === 'completed') completed++;
      }
    }
    if (invalid.length > 0) throw new ManifestError(invalid);
    options.onStart?.({ total, completed });
    outputs.prepare();

    const tell = (record: JobRecord | undefined) => {
      if (!record || !options.onProgress) return;
      const change: JobChange = { id: record.id, state: record.state };
      if (record.task_id) change.task_id = record.task_id;
      if (record.files) change.files = record.files;
      if (record.error) change.error = record.error;
      if (record.reason) change.reason = record.reason;
      options.onProgress(change);
    };
    const append = async (entry: Parameters<JobJournal['append']>[0], durable = false) => {
      const before = journal.get(entry.id)?.state;
      await journal.append(entry, durable);
      const after = journal.get(entry.id);
      // A completed job whose file was downloaded again did not change.
      if (after?.state !== before || entry.e === 'in_doubt') tell(after);
    };

    /** Waits for a task and saves its outputs; leaves the job submitted when stopped. */
    const deliver = async (job: JobInput, record: JobRecord): Promise<void> => {
      const model = (record.model ?? job.body.model) as string;
      let files: string[] = [];
      try {
        if (job.operation === 'videos.create') {
          const taskId = record.task_id as string;
          await client.videos.waitForTask(taskId, { ...waitOptions, model });
          const download = await client.videos.downloadContent(taskId, { signal: stop.signal });
          const name = outputName(job.id, 0, 1, extensionOf(download.contentType, undefined, 'mp4'));
          await outputs.save(download, name, stop.signal);
          files = [name];
        } else {
          let entries: ImageData[];
          if (job.operation === 'images.generateAsync') {
            const task = await client.images.waitForTask(record.task_id as string, { ...waitOptions, model });
            entries = task.images;
          } else {
            entries = (record.outputs ?? []).map((url) => ({ url }));
          }
          files = await saveImages(job.id, entries);
        }
      } catch (error) {
        if (stop.signal.aborted || error instanceof APIUserAbortError || error instanceof WaitTimeoutError)
          return;
        if (error instanceof TaskFailedError) {
          await append({ e: 'failed', id: job.id, error: errorOf(error) }, true);
          return;
        }
        if (error instanceof JobJournalError) throw error;
        // A download that failed (an expired URL, a full disk): the task is done and billed;
        // the job stays submitted, and the next run downloads again.
        options.onProgress?.({
          id: job.id,
          state: 'submitted',
          task_id: record.task_id,
          error: errorOf(error),
        });
        return;
      }
      await append({ e: 'completed', id: job.id, files });
    };

    const saveImages = async (id: string, entries: ImageData[]): Promise<string[]> => {
      const files: string[] = [];
      for (const [i, entry] of entries.entries()) {
        const download = await client.images.download(entry, { signal: stop.signal });
        const name = outputName(id, i, entries.length, extensionOf(download.contentType, entry.url, 'png'));
        await outputs.save(download, name, stop.signal);
        files.push(name);
      }
      return files;
    };

    /** Waits for the event that names the job's `client_reference_id`. */
    const reconcile = async (job: JobInput, record: JobRecord): Promise<void> => {
      const reference = record.client_reference_id;
      if (!options.events || !reference) return;
      const timer = AbortSignal.timeout(reconcileTimeout);
      let taskId: string;
      try {
        taskId = await options.events.taskFor(reference, AbortSignal.any([stop.signal, timer]));
      } catch {
        return;
      }
      await append({ e: 'submitted', id: job.id, task_id: taskId }, true);
      await deliver(job, journal.get(job.id) as JobRecord);
    };

    /** Claims the job, sends it once, and goes on with what came back. */
    const submit = async (job: JobInput): Promise<void> => {
      if (stop.signal.aborted) return;
      const reservation = reservationOf(job);
      const own = job.body.client_reference_id;
      const reference = TASK_OPERATIONS.has(job.operation)
        ? typeof own === 'string'
          ? own
          : `mgj-${randomUUID()}`
        : undefined;
      const refused = await journal.claim(
        {
          e: 'intent',
          id: job.id,
          operation: job.operation,
          model: typeof job.body.model === 'string' ? job.body.model : undefined,
          client_reference_id: reference,
          reserved: reservation?.seconds,
        },
        budget,
      );
      if (refused === 'taken') return;
      if (refused === 'budget') {
        await append({ e: 'skipped', id: job.id, reason: 'budget' });
        return;
      }
      const body =
        reference === undefined
          ? job.body
          : {
              ...(options.notifications && job.body.notifications === undefined
                ? { notifications: options.notifications }
                : {}),
              ...job.body,
              client_reference_id: reference,
            };
      try {
        if (job.operation === 'videos.create' || job.operation === 'images.generateAsync') {
          const submission =
            job.operation === 'videos.create'
              ? await client.videos.create(body as never)
              : await client.images.generateAsync(body as never);
          await append({ e: 'submitted', id: job.id, task_id: submission.task_id }, true);
          await deliver(job, journal.get(job.id) as JobRecord);
        } else if (job.operation === 'images.generate') {
          const answer = await client.images.generate(body as never);
          if (answer.data.every((entry) => typeof entry.url === 'string' && entry.url)) {
            await append(
              { e: 'submitted', id: job.id, outputs: answer.data.map((d) => d.url as string) },
              true,
            );
            await deliver(job, journal.get(job.id) as JobRecord);
          } else {
            await append({ e: 'completed', id: job.id, files: await saveImages(job.id, answer.data) });
          }
        } else {
          const answer = await client.embeddings.create(body as never);
          const name = outputName(job.id, 0, 1, 'json');
          outputs.write(name, `${JSON.stringify(answer)}\n`);
          await append({ e: 'completed', id: job.id, files: [name] });
        }
      } catch (error) {
        if (error instanceof JobJournalError) throw error;
        if (error instanceof AmbiguousSubmissionError) {
          await append({ e: 'in_doubt', id: job.id, error: errorOf(error) }, true);
          await reconcile(job, journal.get(job.id) as JobRecord);
        } else if (error instanceof APIError || error instanceof RequestValidationError) {
          // Refused: nothing was created, nothing reserved.
          await append({ e: 'failed', id: job.id, error: errorOf(error), refund: true }, true);
        } else if (error instanceof APIConnectionError || error instanceof APIUserAbortError) {
          // Not sent (the SDK says so: a sent submission's unknown outcome is AmbiguousSubmissionError).
          await append({ e: 'released', id: job.id, error: errorOf(error), refund: true }, true);
        } else if (error instanceof MediaGatewayError) {
          // The answer came and was saved in part (a download failed): the job was billed.
          const record = journal.get(job.id);
          if (record?.state === 'in_doubt')
            await append({ e: 'in_doubt', id: job.id, error: errorOf(error) }, true);
          else options.onProgress?.({ id: job.id, state: record?.state ?? 'pending', error: errorOf(error) });
        } else {
          throw error;
        }
      }
    };

    const handle = async (job: JobInput): Promise<void> => {
      // Other runners of a shared journal may have moved the job on.
      await journal.refresh(job.id);
      const record = journal.get(job.id);
      switch (record?.state) {
        case 'completed':
          if (record.files && !outputs.has(record.files) && (record.task_id || record.outputs)) {
            await deliver(job, record);
          }
          return;
        case 'failed':
          if (options.retryFailed) await submit(job);
          return;
        case 'in_doubt':
          if (options.resubmitInDoubt) await submit(job);
          else await reconcile(job, record);
          return;
        case 'submitted':
          await deliver(job, record);
          return;
        default:
          await submit(job);
      }
    };

    const ids = new Set<string>();
    const running = new Set<Promise<void>>();
    for await (const line of readJobs(source, { skipBodies: finished })) {
      const job = line.job as JobInput;
      while (running.size >= concurrency) await Promise.race(running);
      // Stopped: the jobs not reached stay as they are; the summary counts those reached.
      if (stop.signal.aborted) break;
      ids.add(job.id);
      const task: Promise<void> = handle(job)
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
