/**
 * One run of `runJobs`, job by job: claim a job in the journal, send it once, wait for its task,
 * save its outputs, and reconcile a submission whose answer was lost from its webhook event.
 */
import { randomUUID } from 'node:crypto';
import {
  AmbiguousSubmissionError,
  APIConnectionError,
  APIError,
  APIUserAbortError,
  type ImageData,
  MediaExpiredError,
  type MediaGateway,
  MediaGatewayError,
  type Notifications,
  RequestValidationError,
  TaskFailedError,
  WaitTimeoutError,
} from '../index.js';
import type { JobEvents } from './events.js';
import { type JobError, type JobJournal, JobJournalError, type JobRecord, type JobState } from './journal.js';
import { type JobInput, reservationOf } from './manifest.js';
import { extensionOf, type OutputFolder, outputName } from './outputs.js';
import type { Held, PermitHandoff } from './permits.js';

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

/** Options of `runJobs`. */
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

const TASK_OPERATIONS = new Set(['videos.create', 'images.generateAsync']);

/**
 * Whether a billable submission's error answer leaves it unknown whether a task was created:
 * a 5xx (or 408) may come from a proxy or load balancer after the gateway took the request;
 * only a 4xx is the gateway refusing it (spec: Errors — no task, no reservation).
 */
function unproven(job: JobInput, error: unknown): boolean {
  return (
    job.operation !== 'embeddings.create' &&
    error instanceof APIError &&
    (error.status >= 500 || error.status === 408)
  );
}

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

/**
 * A run's state and the steps that take each job to its end. `runJobs` checks the manifest, builds
 * one, and hands it the jobs as it reads them, a few at a time.
 */
export class JobRun {
  private readonly waitOptions: {
    signal: AbortSignal;
    timeout: number;
    events?: JobEvents;
    interval?: number;
  };
  private readonly reconcileTimeout: number;

  constructor(
    private readonly client: MediaGateway,
    private readonly journal: JobJournal,
    private readonly outputs: OutputFolder,
    private readonly options: RunJobsOptions,
    private readonly budget: number | undefined,
    /** Every request and wait in flight listens to it. */
    private readonly stop: AbortSignal,
    /** The permits of `client`'s rate limiter, when it has one (see {@link PermitHandoff.of}). */
    private readonly permits?: PermitHandoff | undefined,
  ) {
    this.waitOptions = {
      signal: stop,
      timeout: options.waitTimeoutMs ?? 3_600_000,
      ...(options.events ? { events: options.events } : {}),
      ...(options.pollIntervalMs === undefined ? {} : { interval: options.pollIntervalMs }),
    };
    this.reconcileTimeout = options.reconcileTimeoutMs ?? 60_000;
  }

  private tell(record: JobRecord | undefined): void {
    if (!record || !this.options.onProgress) return;
    const change: JobChange = { id: record.id, state: record.state };
    if (record.task_id) change.task_id = record.task_id;
    if (record.files) change.files = record.files;
    if (record.error) change.error = record.error;
    if (record.reason) change.reason = record.reason;
    this.options.onProgress(change);
  }

  private async append(entry: Parameters<JobJournal['append']>[0], durable = false): Promise<void> {
    const before = this.journal.get(entry.id)?.state;
    await this.journal.append(entry, durable);
    const after = this.journal.get(entry.id);
    // A completed job whose file was downloaded again did not change.
    if (after?.state !== before || entry.e === 'in_doubt') this.tell(after);
  }

  /** Waits for a task and saves its outputs; leaves the job submitted when stopped. */
  private async deliver(job: JobInput, record: JobRecord): Promise<void> {
    const model = (record.model ?? job.body.model) as string;
    // What was sent, as the journal has it: the manifest may have changed the job since, and
    // the task billed then is the one to download.
    const operation = record.operation ?? job.operation;
    let files: string[] = [];
    try {
      if (operation === 'videos.create') {
        const taskId = record.task_id as string;
        await this.client.videos.waitForTask(taskId, { ...this.waitOptions, model });
        const download = await this.client.videos.downloadContent(taskId, { signal: this.stop });
        const name = outputName(job.id, 0, 1, extensionOf(download.contentType, undefined, 'mp4'));
        await this.outputs.save(download, name, this.stop);
        files = [name];
      } else {
        let entries: ImageData[];
        if (operation === 'images.generateAsync') {
          const task = await this.client.images.waitForTask(record.task_id as string, {
            ...this.waitOptions,
            model,
          });
          entries = task.images;
        } else {
          entries = (record.outputs ?? []).map((url) => ({ url }));
        }
        files = await this.saveImages(job.id, entries);
      }
    } catch (error) {
      if (this.stop.aborted || error instanceof APIUserAbortError || error instanceof WaitTimeoutError)
        return;
      // A failed task; or media that expired before it was saved, which no rerun can download
      // (spec: a replay does not extend availability). Both were billed: nothing is refunded,
      // and only --retry-failed sends the job again.
      if (error instanceof TaskFailedError || error instanceof MediaExpiredError) {
        await this.append({ e: 'failed', id: job.id, error: errorOf(error) }, true);
        return;
      }
      if (error instanceof JobJournalError) throw error;
      // A download that failed otherwise (a lost connection, a full disk): the task is done and
      // billed; the job stays submitted, and the next run downloads again.
      this.options.onProgress?.({
        id: job.id,
        state: 'submitted',
        task_id: record.task_id,
        error: errorOf(error),
      });
      return;
    }
    await this.append({ e: 'completed', id: job.id, files });
  }

  private async saveImages(id: string, entries: ImageData[]): Promise<string[]> {
    const files: string[] = [];
    for (const [i, entry] of entries.entries()) {
      const download = await this.client.images.download(entry, { signal: this.stop });
      const name = outputName(id, i, entries.length, extensionOf(download.contentType, entry.url, 'png'));
      await this.outputs.save(download, name, this.stop);
      files.push(name);
    }
    return files;
  }

  /** Waits for the event that names the job's `client_reference_id`. */
  private async reconcile(job: JobInput, record: JobRecord): Promise<void> {
    const reference = record.client_reference_id;
    if (!this.options.events || !reference) return;
    const timer = AbortSignal.timeout(this.reconcileTimeout);
    let taskId: string;
    try {
      taskId = await this.options.events.taskFor(reference, AbortSignal.any([this.stop, timer]));
    } catch {
      return;
    }
    await this.append({ e: 'submitted', id: job.id, task_id: taskId }, true);
    await this.deliver(job, this.journal.get(job.id) as JobRecord);
  }

  /**
   * Waits for the claimed job's rate-limit permit, with the run's stop signal: a job stopped (or
   * timed out by the limiter's queue) while it waits for its turn was never sent, so it is
   * released, pending for the next run, rather than sent after the stop. The claim comes first
   * so that the runners of a shared journal do not each spend a permit on the same job.
   * @returns `null` when the job was released; `undefined` when the client has no rate limiter.
   */
  private async permitFor(job: JobInput): Promise<Held | null | undefined> {
    if (!this.permits) return undefined;
    const model = typeof job.body.model === 'string' ? job.body.model : undefined;
    // The route family the client files the request under: a billable one is a creation.
    const family = job.operation === 'embeddings.create' ? 'query' : 'creation';
    try {
      const held = await this.permits.take(model, family, this.stop);
      if (!this.stop.aborted) return held;
      // Granted as the run stopped: not sent after the stop either.
      this.permits.giveBack(held);
      throw this.stop.reason;
    } catch (error) {
      const why = this.stop.aborted ? {} : { error: errorOf(error) };
      await this.append({ e: 'released', id: job.id, ...why, refund: true }, true);
      return null;
    }
  }

  /** Sends through the client, the first attempt with the permit taken for it. */
  private sending<T>(held: Held | undefined, call: () => Promise<T>): Promise<T> {
    return this.permits ? this.permits.send(held, call) : call();
  }

  /** Claims the job, takes its permit, sends it once, and goes on with what came back. */
  private async submit(job: JobInput): Promise<void> {
    if (this.stop.aborted) return;
    const reservation = reservationOf(job);
    const own = job.body.client_reference_id;
    const reference = TASK_OPERATIONS.has(job.operation)
      ? typeof own === 'string'
        ? own
        : `mgj-${randomUUID()}`
      : undefined;
    const refused = await this.journal.claim(
      {
        e: 'intent',
        id: job.id,
        operation: job.operation,
        model: typeof job.body.model === 'string' ? job.body.model : undefined,
        client_reference_id: reference,
        reserved: reservation?.seconds,
        // A file journal left with this intent and no `sending` was stopped during the wait.
        queued: this.permits ? true : undefined,
      },
      this.budget,
    );
    if (refused === 'taken') return;
    if (refused === 'budget') {
      await this.append({ e: 'skipped', id: job.id, reason: 'budget' });
      return;
    }
    const held = await this.permitFor(job);
    if (held === null) return;
    const body =
      reference === undefined
        ? job.body
        : {
            ...(this.options.notifications && job.body.notifications === undefined
              ? { notifications: this.options.notifications }
              : {}),
            ...job.body,
            client_reference_id: reference,
          };
    try {
      if (held) {
        // On disk before the first byte: a run killed while the job waited sent nothing of it.
        await this.append({ e: 'sending', id: job.id }, true);
        if (this.stop.aborted) {
          await this.append({ e: 'released', id: job.id, refund: true }, true);
          return;
        }
      }
      if (job.operation === 'videos.create' || job.operation === 'images.generateAsync') {
        const submission =
          job.operation === 'videos.create'
            ? await this.sending(held, () => this.client.videos.create(body as never))
            : await this.sending(held, () => this.client.images.generateAsync(body as never));
        await this.append({ e: 'submitted', id: job.id, task_id: submission.task_id }, true);
        await this.deliver(job, this.journal.get(job.id) as JobRecord);
      } else if (job.operation === 'images.generate') {
        const answer = await this.sending(held, () => this.client.images.generate(body as never));
        if (answer.data.every((entry) => typeof entry.url === 'string' && entry.url)) {
          await this.append(
            { e: 'submitted', id: job.id, outputs: answer.data.map((d) => d.url as string) },
            true,
          );
          await this.deliver(job, this.journal.get(job.id) as JobRecord);
        } else {
          await this.append({
            e: 'completed',
            id: job.id,
            files: await this.saveImages(job.id, answer.data),
          });
        }
      } else {
        const answer = await this.sending(held, () => this.client.embeddings.create(body as never));
        const name = outputName(job.id, 0, 1, 'json');
        try {
          this.outputs.write(name, `${JSON.stringify(answer)}\n`);
        } catch (error) {
          // The answer came and was not kept (a full disk): the job is in doubt, as a lost answer is.
          await this.append({ e: 'in_doubt', id: job.id, error: errorOf(error) }, true);
          return;
        }
        await this.append({ e: 'completed', id: job.id, files: [name] });
      }
    } catch (error) {
      if (error instanceof JobJournalError) throw error;
      if (error instanceof AmbiguousSubmissionError || unproven(job, error)) {
        await this.append({ e: 'in_doubt', id: job.id, error: errorOf(error) }, true);
        await this.reconcile(job, this.journal.get(job.id) as JobRecord);
      } else if (error instanceof APIError && error.status === 429) {
        // Still rate-limited after the SDK's retries: not taken (spec: 429), so the next run sends it.
        await this.append({ e: 'released', id: job.id, error: errorOf(error), refund: true }, true);
      } else if (error instanceof APIError || error instanceof RequestValidationError) {
        // Refused: nothing was created, nothing reserved.
        await this.append({ e: 'failed', id: job.id, error: errorOf(error), refund: true }, true);
      } else if (error instanceof APIConnectionError || error instanceof APIUserAbortError) {
        // Not sent (the SDK says so: a sent submission's unknown outcome is AmbiguousSubmissionError).
        await this.append({ e: 'released', id: job.id, error: errorOf(error), refund: true }, true);
      } else if (error instanceof MediaGatewayError) {
        // The answer came and was saved in part (a download failed): the job was billed.
        const record = this.journal.get(job.id);
        if (record?.state === 'in_doubt')
          await this.append({ e: 'in_doubt', id: job.id, error: errorOf(error) }, true);
        else
          this.options.onProgress?.({ id: job.id, state: record?.state ?? 'pending', error: errorOf(error) });
      } else {
        throw error;
      }
    } finally {
      this.permits?.giveBack(held);
    }
  }

  /** Takes one job on from where the journal has it. */
  async handle(job: JobInput): Promise<void> {
    // Other runners of a shared journal may have moved the job on.
    await this.journal.refresh(job.id);
    const record = this.journal.get(job.id);
    switch (record?.state) {
      case 'completed':
        if (record.files && !this.outputs.has(record.files) && (record.task_id || record.outputs)) {
          await this.deliver(job, record);
        }
        return;
      case 'failed':
        if (this.options.retryFailed) await this.submit(job);
        return;
      case 'in_doubt':
        if (this.options.resubmitInDoubt) await this.submit(job);
        else await this.reconcile(job, record);
        return;
      case 'submitted':
        await this.deliver(job, record);
        return;
      default:
        await this.submit(job);
    }
  }
}
