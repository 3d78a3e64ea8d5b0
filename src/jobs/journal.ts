/**
 * The journal of a job run: what was sent, what came back, what was saved. The file journal is
 * JSON Lines, append-only; a record of intent reaches the disk (fsync) before the first byte of
 * a billable submission is sent, so no crash can leave a sent job unrecorded.
 */
import {
  closeSync,
  fdatasync,
  ftruncateSync,
  openSync,
  readFileSync,
  truncateSync,
  writeSync,
} from 'node:fs';
import { MediaGatewayError } from '../index.js';
import { LockHeld, SELF, takeLock } from './file-lock.js';

/** The states of a job. */
export const JOB_STATES = ['pending', 'in_doubt', 'submitted', 'completed', 'failed', 'skipped'] as const;

/**
 * A job's state: `pending` (not sent), `in_doubt` (sent, no answer: it may exist and be billed),
 * `submitted` (accepted, with its task ID), `completed` (its files saved), `failed` (refused or
 * the task failed), `skipped` (not sent, e.g. over the budget).
 */
export type JobState = (typeof JOB_STATES)[number];

/** The error a job failed with, or why it is in doubt. */
export interface JobError {
  /** The error's class, e.g. `BadRequestError` or `TaskFailedError`. */
  type: string;
  /** What happened. */
  message: string;
  /** The HTTP status of a refusal. */
  status?: number | undefined;
  /** The gateway's code, e.g. `invalid_request` or `task_failed`. */
  code?: string | undefined;
}

/** What the journal knows of one job. */
export interface JobRecord {
  /** The job's id. */
  id: string;
  /** Its state. */
  state: JobState;
  /** Its operation, once it was claimed. */
  operation?: string | undefined;
  /** The model of the request (image task queries need it). */
  model?: string | undefined;
  /** The task ID, once known. */
  task_id?: string | undefined;
  /** The `client_reference_id` the request was sent with. */
  client_reference_id?: string | undefined;
  /** Output URLs of a synchronous image answer, still to be downloaded. */
  outputs?: string[] | undefined;
  /** The files saved, as names inside the output folder. */
  files?: string[] | undefined;
  /** Why it failed, or why it is in doubt. */
  error?: JobError | undefined;
  /** Why it was skipped, e.g. `budget`. */
  reason?: string | undefined;
  /** Seconds its submission reserves (video jobs). */
  reserved?: number | undefined;
}

/** One line of the file journal. `e` is what happened; the other fields update the job. */
export interface JournalEntry extends Partial<Omit<JobRecord, 'state'>> {
  /** `intent`, `sending`, `in_doubt`, `submitted`, `completed`, `failed`, `released`, `skipped`. */
  e: 'intent' | 'sending' | 'in_doubt' | 'submitted' | 'completed' | 'failed' | 'released' | 'skipped';
  /** The job's id. */
  id: string;
  /**
   * On `intent`: the submission first waits for its turn under the client's rate limiter, and a
   * `sending` entry is recorded, durably, once it has it and before a byte is sent. A file journal
   * whose last entry for the job is such an intent was left by a run that ended during the wait:
   * nothing was sent, and the job is pending again.
   */
  queued?: boolean | undefined;
  /** On `failed` and `released`: the submission reserved nothing (the gateway refused it, or it was never sent). */
  refund?: boolean | undefined;
  /** Milliseconds since the epoch. */
  at?: number | undefined;
}

/** Why a claim did not go through. */
export type ClaimRefusal = 'budget' | 'taken';

/** A store of job records that a run writes through. */
export interface JobJournal {
  /** Reads the journal (and takes what a run needs to own it). */
  open(): Promise<void>;
  /** The job's record, if the journal knows it (as last read or written by this run). */
  get(id: string): JobRecord | undefined;
  /**
   * Reads the job's record again (every record without `id`), for journals that other
   * processes write too.
   */
  refresh(id?: string): Promise<void>;
  /** Seconds reserved by every submission recorded, refunds deducted. */
  reservedSeconds(): number;
  /**
   * Records the intent to send a job, durably, unless `maxReservedSeconds` would be passed or
   * another runner claimed it. Resolves only once the record is safe (fsync, or an acknowledged
   * write).
   */
  claim(entry: JournalEntry, maxReservedSeconds?: number): Promise<ClaimRefusal | undefined>;
  /** Appends what happened to a job; `durable` waits for the disk. */
  append(entry: JournalEntry, durable?: boolean): Promise<void>;
  /** Every record, in the order first seen. */
  records(): Iterable<JobRecord>;
  /** Releases what `open` took. */
  close(): Promise<void>;
  /** Where the journal is, for messages. */
  readonly location: string;
}

/** A journal could not be opened or written: another run holds it, or the disk refused. */
export class JobJournalError extends MediaGatewayError {
  override readonly name = 'JobJournalError';
}

/** A line of a journal as its entry: `undefined` when it is not JSON, or not an entry (no `e` and `id`). */
function journalEntry(line: string): JournalEntry | undefined {
  try {
    const entry = JSON.parse(line) as JournalEntry | null;
    return typeof entry?.e === 'string' && typeof entry.id === 'string' ? entry : undefined;
  } catch {
    return undefined;
  }
}

/** Applies one entry to the records (the replay and the live run share it). */
export function applyEntry(records: Map<string, JobRecord>, entry: JournalEntry): number {
  const previous = records.get(entry.id);
  const record: JobRecord = previous ?? { id: entry.id, state: 'pending' };
  let reserved = 0;
  switch (entry.e) {
    case 'intent':
      record.state = 'in_doubt';
      record.operation = entry.operation ?? record.operation;
      record.model = entry.model ?? record.model;
      record.client_reference_id = entry.client_reference_id;
      record.reserved = entry.reserved;
      record.task_id = undefined;
      record.outputs = undefined;
      record.files = undefined;
      record.error = undefined;
      record.reason = undefined;
      reserved = entry.reserved ?? 0;
      break;
    case 'in_doubt':
      record.state = 'in_doubt';
      record.error = entry.error;
      break;
    case 'sending':
      // Still in doubt from its intent: from here on it may be sent.
      break;
    case 'submitted':
      record.state = 'submitted';
      record.task_id = entry.task_id ?? record.task_id;
      record.outputs = entry.outputs ?? record.outputs;
      record.error = undefined;
      break;
    case 'completed':
      record.state = 'completed';
      record.files = entry.files ?? [];
      break;
    case 'failed':
      record.state = 'failed';
      record.error = entry.error;
      if (entry.refund) reserved = -(record.reserved ?? 0);
      break;
    case 'released':
      record.state = 'pending';
      record.error = entry.error;
      if (entry.refund) reserved = -(record.reserved ?? 0);
      break;
    case 'skipped':
      record.state = 'skipped';
      record.reason = entry.reason;
      break;
  }
  records.set(entry.id, record);
  return reserved;
}

/**
 * The journal in a local file (JSON Lines), with a lock file beside it (`<path>.lock`) so that
 * one run at a time writes it; a lock left by a process that no longer runs is taken over.
 * A torn last line (a crash in the middle of a write) is cut off when the journal is opened.
 */
export class FileJournal implements JobJournal {
  private readonly map = new Map<string, JobRecord>();
  private reserved = 0;
  private fd: number | undefined;
  /** Bytes of whole lines in the file: a write that fails part-way is cut back to it. */
  private size = 0;
  private unlock: (() => void) | undefined;

  constructor(readonly location: string) {}

  async open(): Promise<void> {
    await this.lock();
    try {
      let text = '';
      try {
        text = readFileSync(this.location, 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
      const end = text.lastIndexOf('\n') + 1;
      this.size = Buffer.byteLength(text.slice(0, end));
      if (end < text.length) truncateSync(this.location, this.size);
      this.replay(text.slice(0, end));
      this.fd = openSync(this.location, 'a', 0o600);
    } catch (error) {
      this.release();
      if (error instanceof MediaGatewayError) throw error;
      throw new JobJournalError(
        `the journal ${this.location} could not be opened: ${(error as Error).message}`,
        {
          cause: error,
        },
      );
    }
  }

  private replay(text: string): void {
    this.reserved += replayLines(text, this.map, (line) => {
      throw new JobJournalError(
        `the journal ${this.location} is damaged at line ${line} (not a journal entry); it was not written by this SDK or was edited`,
      );
    });
  }

  private async lock(): Promise<void> {
    const path = `${this.location}.lock`;
    try {
      this.unlock = await takeLock(path);
    } catch (error) {
      if (error instanceof LockHeld) {
        const { pid, host } = error.owner;
        const where = host && host !== SELF.host ? ` on ${host}` : '';
        throw new JobJournalError(
          `the journal ${this.location} is in use by ${pid === process.pid ? 'this process' : `process ${pid}`}${where}; ` +
            `wait for that run to end, or stop it (its lock is ${path}; remove it only once no run uses the journal)`,
        );
      }
      const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
      throw new JobJournalError(
        missing
          ? `the lock ${path} of the journal could not be taken: its folder does not exist (ENOENT); create it first`
          : `the lock ${path} of the journal could not be taken: ${(error as Error).message}`,
        { cause: error },
      );
    }
  }

  private release(): void {
    this.unlock?.();
    this.unlock = undefined;
  }

  get(id: string): JobRecord | undefined {
    return this.map.get(id);
  }

  reservedSeconds(): number {
    return this.reserved;
  }

  async refresh(): Promise<void> {
    // One run at a time writes a file journal (its lock): what it holds is current.
  }

  records(): Iterable<JobRecord> {
    return this.map.values();
  }

  async claim(entry: JournalEntry, maxReservedSeconds?: number): Promise<ClaimRefusal | undefined> {
    const seconds = entry.reserved ?? 0;
    if (maxReservedSeconds !== undefined && seconds > 0 && this.reserved + seconds > maxReservedSeconds)
      return 'budget';
    this.write(entry);
    await this.sync();
    return undefined;
  }

  async append(entry: JournalEntry, durable = false): Promise<void> {
    this.write(entry);
    if (durable) await this.sync();
  }

  /**
   * Writes at once, synchronously: entries keep their order, a line is never split by another,
   * and the budget counted for the next claim includes this one.
   */
  private write(entry: JournalEntry): void {
    if (this.fd === undefined) throw new JobJournalError(`the journal ${this.location} is not open`);
    const line = Buffer.from(`${JSON.stringify({ ...entry, at: entry.at ?? Date.now() })}\n`);
    try {
      for (let done = 0; done < line.length; ) done += writeSync(this.fd, line, done);
    } catch (error) {
      // A line cut short (a full disk) would sit in the middle of the file once a later write
      // succeeds, and the journal could not be read again: it is cut back to the last whole line.
      try {
        ftruncateSync(this.fd, this.size);
      } catch {}
      throw this.failed(error);
    }
    this.size += line.length;
    this.reserved += applyEntry(this.map, entry);
  }

  private failed(error: unknown): JobJournalError {
    return new JobJournalError(
      `the journal ${this.location} could not be written (${(error as Error).message}); the run stopped`,
      { cause: error },
    );
  }

  private flushing: Promise<void> | undefined;
  private queued: Promise<void> | undefined;

  /**
   * Resolves once every line written before the call is on disk (`fdatasync`, off the event
   * loop). Callers that come while one is in flight share the next one, which starts after it:
   * the one in flight may have started before their lines were written.
   */
  private sync(): Promise<void> {
    if (!this.flushing) {
      const fd = this.fd;
      this.flushing = new Promise<void>((resolve, reject) => {
        if (fd === undefined) return reject(new JobJournalError(`the journal ${this.location} is not open`));
        fdatasync(fd, (error) => (error ? reject(this.failed(error)) : resolve()));
      }).finally(() => {
        this.flushing = undefined;
      });
      return this.flushing;
    }
    this.queued ??= this.flushing
      .catch(() => undefined)
      .then(() => {
        this.queued = undefined;
        return this.sync();
      });
    return this.queued;
  }

  async close(): Promise<void> {
    if (this.fd !== undefined) {
      closeSync(this.fd);
      this.fd = undefined;
    }
    this.release();
  }
}

/**
 * Applies a file journal's whole lines to `records`, and returns the seconds they reserve. A job
 * whose last entry is an intent that waited for its turn (`queued`, no `sending` after it) was
 * never sent: the run that wrote it ended during the wait, or (read by `jobs status`) is still
 * waiting. The job is pending, its reservation refunded.
 */
function replayLines(
  text: string,
  records: Map<string, JobRecord>,
  damaged: (line: number) => never,
): number {
  let reserved = 0;
  const waiting = new Set<string>();
  for (const [index, raw] of text.split('\n').entries()) {
    if (raw.trim() === '') continue;
    const entry = journalEntry(raw) ?? damaged(index + 1);
    reserved += applyEntry(records, entry);
    if (entry.e === 'intent' && entry.queued) waiting.add(entry.id);
    else waiting.delete(entry.id);
  }
  for (const id of waiting) reserved += applyEntry(records, { e: 'released', id, refund: true });
  return reserved;
}

/**
 * Reads a file journal without taking it: for `jobs status` while a run goes on.
 * @throws JobJournalError when there is none at `path`, it is a folder, or cannot be read.
 */
export function readFileJournal(path: string): { records: JobRecord[]; reservedSeconds: number } {
  const map = new Map<string, JobRecord>();
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new JobJournalError(
      code === 'ENOENT'
        ? `no journal at ${path}: nothing has run with it yet`
        : code === 'EISDIR'
          ? `${path} is a folder: give the path of the journal file`
          : `the journal ${path} could not be read (${code ?? (error as Error).message})`,
      { cause: error },
    );
  }
  const reserved = replayLines(text.slice(0, text.lastIndexOf('\n') + 1), map, (line) => {
    throw new JobJournalError(`the journal ${path} is damaged at line ${line} (not a journal entry)`);
  });
  return { records: [...map.values()], reservedSeconds: reserved };
}
