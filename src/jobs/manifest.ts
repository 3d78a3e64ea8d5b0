/**
 * The manifest of a job run: JSON Lines, one job a line, read as a stream so that a manifest
 * of any length holds one line in memory at a time (plus the ids seen, for uniqueness).
 */
import { createReadStream } from 'node:fs';
import {
  estimateReservation,
  FileInputError,
  RequestValidationError,
  type ValidationIssue,
  validateRequest,
} from '../index.js';

/** The operations a job may name: the billable requests of the client, by method. */
export const JOB_OPERATIONS = [
  'videos.create',
  'images.generate',
  'images.generateAsync',
  'embeddings.create',
] as const;

/** One of {@link JOB_OPERATIONS}. */
export type JobOperation = (typeof JOB_OPERATIONS)[number];

/** One job: the user's unique key, the client method and its request body. */
export interface JobInput {
  /** 1-128 printable characters, unique in the run; names the output files (`<id>.<ext>`). */
  id: string;
  /** The client method that sends `body`. */
  operation: JobOperation;
  /** The request, exactly as the method takes it (a `client_reference_id` of its own is kept). */
  body: Record<string, unknown>;
}

/** A line of a manifest as read: its number, the job when it is valid, and what is wrong otherwise. */
export interface ManifestLine {
  /** Line number in the file, from 1 (the position, from 1, for jobs given as an iterable). */
  line: number;
  /** The line's `id` when it has a string one, valid or not. */
  id?: string | undefined;
  /** The job, when the line breaks no rule. */
  job?: JobInput | undefined;
  /** Every rule the line breaks, with field paths (`body.duration`); empty when valid. */
  issues: ValidationIssue[];
}

const FIELDS = new Set(['id', 'operation', 'body']);
/** Control characters, and the characters a file name cannot hold. */
const UNPRINTABLE = /[\p{Cc}\p{Cs}\u2028\u2029/\\]/u;

/** The longest id in UTF-8 bytes: its files' names (`<id>-<n>.<ext>`) then fit in 255. */
const MAX_ID_BYTES = 200;

/** The rules an id breaks, as issues on `id`. */
export function idIssues(id: unknown): ValidationIssue[] {
  if (typeof id !== 'string')
    return [{ path: 'id', message: 'is required: a string of 1-128 printable characters' }];
  const length = [...id].length;
  if (length < 1 || length > 128)
    return [{ path: 'id', message: `must be 1-128 characters long, got ${length}` }];
  // `<id>-<n>.<ext>` must fit in a file name (255 bytes on every common file system).
  const bytes = Buffer.byteLength(id);
  if (bytes > MAX_ID_BYTES)
    return [
      {
        path: 'id',
        message: `must be at most ${MAX_ID_BYTES} bytes in UTF-8 (it names the output files), got ${bytes}`,
      },
    ];
  if (UNPRINTABLE.test(id))
    return [
      {
        path: 'id',
        message: 'must hold printable characters only, and no / or \\ (it names the output files)',
      },
    ];
  if (id.startsWith('.'))
    return [{ path: 'id', message: 'must not start with "." (it names the output files)' }];
  return [];
}

/**
 * Checks one job as parsed from JSON: its fields, its id, its operation and its body by the
 * client's own rules (the paths of body issues start with `body.`). Uniqueness is checked by the
 * reader, which sees every id.
 */
export function checkJob(value: unknown): Checked {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return { issues: [{ path: '', message: 'must be a JSON object: {"id", "operation", "body"}' }] };
  const record = value as Record<string, unknown>;
  const id = typeof record.id === 'string' ? record.id : undefined;
  const issues: ValidationIssue[] = [...idIssues(record.id)];
  for (const key of Object.keys(record))
    if (!FIELDS.has(key))
      issues.push({ path: key, message: 'is not a manifest field: a line holds id, operation and body' });
  const operation = record.operation;
  const known = typeof operation === 'string' && (JOB_OPERATIONS as readonly string[]).includes(operation);
  if (!known) issues.push({ path: 'operation', message: `must be one of ${JOB_OPERATIONS.join(', ')}` });
  const body = record.body;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    issues.push({ path: 'body', message: 'must be a JSON object: the request of the operation' });
  } else if (known) {
    for (const issue of validateRequest(operation as JobOperation, body))
      issues.push({ path: issue.path ? `body.${issue.path}` : 'body', message: issue.message });
  }
  if (issues.length > 0) return { id, issues };
  return {
    id,
    issues,
    job: { id: id as string, operation: operation as JobOperation, body: body as Record<string, unknown> },
  };
}

/** A job as checked. */
interface Checked {
  job?: JobInput | undefined;
  id?: string | undefined;
  issues: ValidationIssue[];
}

/** Where jobs come from: a manifest file, or jobs in memory. */
export type JobSource = string | Iterable<JobInput> | AsyncIterable<JobInput>;

/** Options of {@link readJobs}. */
export interface ReadJobsOptions {
  /**
   * Ids whose bodies need no check (jobs the journal already finished): their lines are checked
   * for JSON, id and uniqueness only, which keeps resuming a finished run fast.
   */
  skipBodies?: ((id: string) => boolean) | undefined;
}

/**
 * Checks that `source` is a manifest path or a list of jobs: anything else is a
 * `RequestValidationError` of `operation` at `jobs`, not a `TypeError` from its iteration.
 */
export function checkJobSource(source: unknown, operation: string): void {
  const iterable =
    source !== null &&
    typeof source === 'object' &&
    (Symbol.iterator in source || Symbol.asyncIterator in source);
  if ((typeof source === 'string' && source !== '') || iterable) return;
  throw new RequestValidationError(operation, [
    {
      path: 'jobs',
      message: 'must be the path of a JSON Lines manifest, or an iterable or async iterable of jobs',
    },
  ]);
}

/** Why a manifest could not be read, by the file system's code. */
const UNREADABLE: Record<string, string> = {
  ENOENT: 'does not exist',
  ENOTDIR: 'does not exist: a part of the path is not a folder',
  EISDIR: 'is a folder, not a manifest file',
  EACCES: 'may not be read',
  EPERM: 'may not be read',
};

/** The longest manifest line, in UTF-16 code units (64 Mi): a job's body, with room for inline media. */
const MAX_LINE_LENGTH = 64 * 1024 * 1024;

/**
 * The lines of a manifest file, read as strict UTF-8: a byte that is not UTF-8 would reach the
 * gateway as U+FFFD in a prompt, billed; and a line is cut off at {@link MAX_LINE_LENGTH}, so
 * that a file with no line ends (`/dev/zero`) cannot fill the memory.
 * @throws FileInputError naming the line.
 */
async function* manifestLines(path: string): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let pending = '';
  let line = 1;
  const refuse = (reason: string) =>
    new FileInputError('the manifest', path, `${reason} at line ${line}; nothing was sent`);
  for await (const chunk of createReadStream(path)) {
    const bytes = chunk as Buffer;
    // Decoded a line at a time (a newline byte is never inside a character), so that a byte
    // that is not UTF-8 is named by its line.
    for (let start = 0; start < bytes.length; ) {
      const newline = bytes.indexOf(0x0a, start);
      const end = newline < 0 ? bytes.length : newline + 1;
      let text: string;
      try {
        text = decoder.decode(bytes.subarray(start, end), { stream: true });
      } catch {
        throw refuse('is not UTF-8 text');
      }
      start = end;
      if (newline < 0) {
        pending += text;
        if (pending.length > MAX_LINE_LENGTH) throw refuse('has a line longer than 64 MiB');
        break;
      }
      yield pending + text.slice(0, -1);
      pending = '';
      line++;
    }
  }
  try {
    pending += decoder.decode();
  } catch {
    throw refuse('is not UTF-8 text');
  }
  if (pending !== '') yield pending;
}

async function* rawItems(
  source: JobSource,
): AsyncGenerator<{ line: number; value?: unknown; error?: string }> {
  if (typeof source === 'string') {
    let line = 0;
    try {
      for await (const text of manifestLines(source)) {
        line++;
        if (text.trim() === '') continue;
        try {
          yield { line, value: JSON.parse(text) };
        } catch (error) {
          yield { line, error: `is not valid JSON: ${(error as Error).message}` };
        }
      }
    } catch (error) {
      if (error instanceof FileInputError) throw error;
      const code = (error as NodeJS.ErrnoException).code;
      if (typeof code !== 'string') throw error;
      throw new FileInputError(
        'the manifest',
        source,
        `${UNREADABLE[code] ?? 'could not be read'} (${code}); nothing was sent`,
        { cause: error },
      );
    }
    return;
  }
  let line = 0;
  for await (const value of source as AsyncIterable<JobInput>) yield { line: ++line, value };
}

/**
 * Reads jobs one at a time, checking each: JSON, the id's rules, that no id comes twice, that
 * the operation is known, and the body's rules with field paths. A file is streamed; blank lines
 * are skipped but counted.
 *
 * @throws FileInputError when the manifest file cannot be read (missing, a folder, not readable).
 */
export async function* readJobs(
  source: JobSource,
  options: ReadJobsOptions = {},
): AsyncGenerator<ManifestLine> {
  checkJobSource(source, 'readJobs');
  const seen = new Map<string, number>();
  /** Ids of the form `<base>-<n>`, by base: the names a job of several outputs gives its files. */
  const numbered = new Map<string, { id: string; line: number }>();
  const references = new Map<string, number>();
  for await (const item of rawItems(source)) {
    if (item.error !== undefined) {
      yield { line: item.line, issues: [{ path: '', message: item.error }] };
      continue;
    }
    const value = item.value as Record<string, unknown> | null;
    const skip =
      value !== null &&
      typeof value === 'object' &&
      typeof value.id === 'string' &&
      options.skipBodies?.(value.id);
    let checked: Checked;
    if (skip) {
      const job = value as unknown as JobInput;
      const issues = idIssues(job.id);
      checked = issues.length ? { id: job.id, issues } : { id: job.id, issues, job };
    } else {
      checked = checkJob(value);
    }
    const { id } = checked;
    if (id !== undefined) {
      const first = seen.get(id);
      if (first !== undefined) {
        checked.issues.push({ path: 'id', message: `is not unique: line ${first} has the same id` });
        checked.job = undefined;
      } else {
        seen.set(id, item.line);
        // `kite` with two outputs writes kite-1 and kite-2: a job `kite-1` would share a name.
        const base = /^(.+)-[1-9]\d*$/.exec(id)?.[1];
        const clash =
          (base !== undefined && seen.has(base) ? { id: base, line: seen.get(base) as number } : undefined) ??
          numbered.get(id);
        if (base !== undefined && !numbered.has(base)) numbered.set(base, { id, line: item.line });
        if (clash) {
          checked.issues.push({
            path: 'id',
            message: `would share output file names with job ${clash.id} (line ${clash.line}): a job of several outputs names them <id>-1, <id>-2, …`,
          });
          checked.job = undefined;
        }
      }
    }
    const reference = checked.job?.body.client_reference_id;
    if (typeof reference === 'string') {
      const first = references.get(reference);
      if (first !== undefined) {
        checked.issues.push({
          path: 'body.client_reference_id',
          message: `is not unique: line ${first} has the same one, and events could not tell the jobs apart`,
        });
        checked.job = undefined;
      } else references.set(reference, item.line);
    }
    yield { line: item.line, id, job: checked.job, issues: checked.issues };
  }
}

/** Seconds reserved per model and tier, as the billing rules estimate them. */
export interface ReservedSeconds {
  /** The video model. */
  model: string;
  /** The tier whose price applies. */
  tier: string;
  /** Video jobs of this model and tier. */
  jobs: number;
  /** Seconds reserved by them together. */
  seconds: number;
}

/** A line of a manifest that breaks rules. */
export interface BadLine {
  /** Its line number, from 1. */
  line: number;
  /** Its `id`, when it has a string one. */
  id?: string | undefined;
  /** Every rule it breaks, with field paths. */
  issues: ValidationIssue[];
}

/** What {@link planJobs} finds: totals, and every bad line. */
export interface JobPlan {
  /** Whether every line is valid. */
  valid: boolean;
  /** Lines holding a job (blank lines left out). */
  lines: number;
  /** Valid jobs. */
  jobs: number;
  /** Valid jobs per operation. */
  operations: Record<string, number>;
  /** Reserved seconds of the video jobs, per model and tier. */
  reserved: ReservedSeconds[];
  /** Reserved seconds of every video job together. */
  reservedSeconds: number;
  /** The bad lines, in order, each with its number, its id when it has one, and its issues. */
  invalid: BadLine[];
}

/** The seconds a job reserves when submitted: the estimate for a video job, 0 for the rest. */
export function reservationOf(job: JobInput): { model: string; tier: string; seconds: number } | undefined {
  if (job.operation !== 'videos.create') return undefined;
  try {
    const estimate = estimateReservation(job.body as never);
    return { model: estimate.model, tier: estimate.tier, seconds: estimate.seconds };
  } catch (error) {
    if (error instanceof RequestValidationError) return undefined;
    throw error;
  }
}

/**
 * Checks every job of a manifest (or of an iterable) offline, with no key and no request, and
 * totals them: jobs per operation, and the seconds the video jobs reserve per model and tier.
 *
 * @example
 * const plan = await planJobs('nightly.jsonl');
 * if (!plan.valid) for (const bad of plan.invalid) console.error(bad.line, bad.issues);
 */
export async function planJobs(source: JobSource): Promise<JobPlan> {
  checkJobSource(source, 'planJobs');
  const plan: JobPlan = {
    valid: true,
    lines: 0,
    jobs: 0,
    operations: {},
    reserved: [],
    reservedSeconds: 0,
    invalid: [],
  };
  const reserved = new Map<string, ReservedSeconds>();
  for await (const line of readJobs(source)) {
    plan.lines++;
    if (!line.job) {
      plan.valid = false;
      plan.invalid.push({
        line: line.line,
        ...(line.id === undefined ? {} : { id: line.id }),
        issues: line.issues,
      });
      continue;
    }
    plan.jobs++;
    plan.operations[line.job.operation] = (plan.operations[line.job.operation] ?? 0) + 1;
    const reservation = reservationOf(line.job);
    if (reservation) {
      const key = `${reservation.model}\u0000${reservation.tier}`;
      const entry = reserved.get(key) ?? {
        model: reservation.model,
        tier: reservation.tier,
        jobs: 0,
        seconds: 0,
      };
      entry.jobs++;
      entry.seconds += reservation.seconds;
      reserved.set(key, entry);
      plan.reservedSeconds += reservation.seconds;
    }
  }
  plan.reserved = [...reserved.values()].sort(
    (a, b) => a.model.localeCompare(b.model) || a.tier.localeCompare(b.tier),
  );
  return plan;
}
