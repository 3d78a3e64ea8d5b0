/**
 * Request bodies from the command line: `--file request.json` (or `-` for stdin) and
 * `--body '<json>'`, with the common fields given as flags laid over them.
 */
import { closeSync, constants, createReadStream, fstatSync, openSync, statSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { CliError } from './exit-codes.js';

/** The body options every request command takes. */
export interface BodyOptions {
  /** `--body`: the request as JSON text. */
  body?: string | undefined;
  /** `--file`: a JSON file holding the request; `-` reads stdin. */
  file?: string | undefined;
}

/**
 * The most bytes a `--file`, stdin (`-`), `--body` or `webhooks --event` may hold: 32 MiB, above
 * any request the gateway takes (a 20 MiB image inlined as base64 is under 27 MiB). Reading
 * stops there, so `--file /dev/zero` or an endless pipe is refused instead of filling memory.
 */
export const MAX_INPUT_BYTES = 32 * 1024 * 1024;

/** The cap in words, for messages and docs. */
const MAX_INPUT = '32 MiB';

/** Whether stdin is a folder (`< dir`); false when it cannot be told (closed). */
function stdinIsFolder(): boolean {
  try {
    return fstatSync(0).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Reads a file (`-` for stdin) as UTF-8 text, at most {@link MAX_INPUT_BYTES}.
 *
 * @throws CliError (exit 1, nothing sent) naming the file when it cannot be read, is larger than
 * the cap, or is not valid UTF-8.
 */
export async function readTextFile(
  path: string,
  options: {
    /** Ends the read: the run's signal. */
    signal?: AbortSignal | undefined;
  } = {},
): Promise<string> {
  const where = path === '-' ? 'stdin' : path;
  options.signal?.throwIfAborted();
  // `< folder` reads as an empty stdin: said as what it is.
  if (path === '-' && stdinIsFolder())
    throw new CliError('stdin is a folder: give the request file, or pipe its text; nothing was sent');
  const source: Readable = path === '-' ? process.stdin : createReadStream(path);
  const chunks: Buffer[] = [];
  let size = 0;
  const read = async () => {
    for await (const chunk of source) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
      size += bytes.length;
      if (size > MAX_INPUT_BYTES)
        throw new CliError(
          `${where} holds more than ${MAX_INPUT} (the most a request file may hold): nothing was sent`,
        );
      chunks.push(bytes);
    }
  };
  // A signal ends the read at once (stdin may be a terminal nobody types into). The open of a
  // FIFO with no writer waits in a worker thread, which holds the process at its exit: opening
  // the FIFO as its writer, and closing it, lets that open return.
  let stopped: (error: Error) => void = () => {};
  const stop = () => {
    const error = new Error('stopped by a signal');
    source.destroy(error);
    stopped(error);
    if (path !== '-') releaseFifo(path);
  };
  options.signal?.addEventListener('abort', stop, { once: true });
  try {
    const reading = read();
    reading.catch(() => {});
    await Promise.race([reading, new Promise<never>((_, reject) => (stopped = reject))]);
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError(`${where} ${whyUnreadable(error)}; nothing was sent`);
  } finally {
    options.signal?.removeEventListener('abort', stop);
    // An endless source (/dev/zero, a pipe that never ends) is left unread from here on.
    if (path !== '-') source.destroy();
  }
  return utf8(Buffer.concat(chunks), where);
}

/** Opens `path` as a FIFO's writer and closes it, when it is one that a reader waits on. */
function releaseFifo(path: string): void {
  try {
    if (statSync(path).isFIFO()) closeSync(openSync(path, constants.O_WRONLY | constants.O_NONBLOCK));
  } catch {
    // Not a FIFO, or no reader waits (ENXIO): nothing is held.
  }
}

/**
 * Why a file could not be read, in the words `fileFromPath` uses for the same codes (the SDK's
 * own list is not exported): `does not exist (ENOENT)`.
 */
const UNREADABLE: Readonly<Record<string, string>> = {
  ENOENT: 'does not exist',
  ENOTDIR: 'does not exist: a part of the path is not a folder',
  EISDIR: 'is a folder, not a file',
  EACCES: 'may not be read',
  EPERM: 'may not be read',
  ELOOP: 'is a loop of links',
  ENAMETOOLONG: 'is too long a name',
};

function whyUnreadable(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  const why = typeof code === 'string' ? UNREADABLE[code] : undefined;
  return why
    ? `${why} (${code})`
    : `cannot be read: ${error instanceof Error ? error.message : String(error)}`;
}

/** Decodes UTF-8, refusing bytes that are not: they would reach the gateway as U+FFFD. */
function utf8(bytes: Buffer, where: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    const text = bytes.toString('utf8');
    const at = Buffer.byteLength(text.slice(0, text.indexOf('\uFFFD')));
    throw new CliError(
      `${where} is not valid UTF-8 (byte ${at} is not): save it as UTF-8, e.g. iconv -f latin1 -t utf-8; nothing was sent`,
    );
  }
}

/**
 * Reads and parses a JSON file (`-` for stdin); a usage error names the file and the problem.
 *
 * @throws CliError as {@link readTextFile}, or when the text is not JSON.
 */
export async function readJsonFile(path: string, signal?: AbortSignal): Promise<unknown> {
  return parseJson(await readTextFile(path, { signal }), path === '-' ? 'stdin' : path);
}

function parseJson(text: string, where: string): unknown {
  if (!text.trim())
    throw new CliError(`${where} is empty: it must hold the request as JSON; nothing was sent`);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new CliError(`${where} is not valid JSON: ${(error as Error).message}; nothing was sent`);
  }
}

/**
 * Refuses text from the command line (a string, or the strings inside arrays and objects) that
 * holds more than {@link MAX_INPUT_BYTES} or U+FFFD: the character Node puts for bytes of an
 * argument that are not UTF-8 (text in Latin-1 from `$(cat file)`), which would otherwise be sent,
 * and billed, in place of what was meant.
 *
 * @throws CliError (exit 1) naming `name`.
 */
export function checkArgument(value: unknown, name: string): void {
  if (typeof value === 'string') {
    if (value.includes('\uFFFD'))
      throw new CliError(
        `${name} holds U+FFFD, which stands for bytes that are not valid UTF-8 (text in another encoding?): pass UTF-8 text; nothing was sent`,
      );
    if (Buffer.byteLength(value) > MAX_INPUT_BYTES)
      throw new CliError(`${name} holds more than ${MAX_INPUT}: nothing was sent`);
  } else if (Array.isArray(value)) for (const item of value) checkArgument(item, name);
  else if (value !== null && typeof value === 'object')
    for (const item of Object.values(value)) checkArgument(item, name);
}

function asObject(value: unknown, where: string): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new CliError(`${where} must hold a JSON object`);
  return value as Record<string, unknown>;
}

/**
 * The request body: `--file`, then `--body` over it, then every defined flag over both (flags
 * name wire fields, snake_case). Fields left `undefined` are not set.
 *
 * @throws CliError (exit 1, before anything is sent) for a file or `--body` that is unreadable,
 * over {@link MAX_INPUT_BYTES}, not UTF-8 or not a JSON object, or a flag holding U+FFFD.
 */
export async function requestBody(
  options: BodyOptions,
  flags: Record<string, unknown> = {},
  /** The run: its signal ends the read of `--file` (stdin included); `--verbose` says when stdin is read. */
  run?: {
    signal: AbortSignal;
    output: { debug(message: string): void };
    during?(stage: { message: string } | undefined): void;
  },
): Promise<Record<string, unknown>> {
  const body: Record<string, unknown> = {};
  if (options.file !== undefined) {
    const where = options.file === '-' ? 'stdin' : options.file;
    run?.during?.({ message: `Stopped while reading the request from ${where}: nothing was sent.` });
    run?.output.debug(
      `reading the request from ${where}${options.file === '-' ? ' (end it with Ctrl+D)' : ''}`,
    );
    Object.assign(body, asObject(await readJsonFile(options.file, run?.signal), where));
    // Read: from here on the command says what it does, or a signal says no more than its name.
    run?.during?.(undefined);
  }
  if (options.body !== undefined) {
    checkArgument(options.body, '--body');
    Object.assign(body, asObject(parseJson(options.body, '--body'), '--body'));
  }
  for (const [key, value] of Object.entries(flags)) {
    if (value === undefined) continue;
    checkArgument(value, `${key} (given on the command line)`);
    body[key] = value;
  }
  return body;
}

/**
 * The URL of a webhook receiver (`webhooks send URL`, `mock --forward-to URL`): http(s), and
 * without credentials, which a delivery never sends (they were dropped without a word).
 * @throws CliError (exit 1) naming `name`, before anything is sent.
 */
export function receiverURL(name: string, text: string): URL {
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {}
  if (url?.protocol !== 'http:' && url?.protocol !== 'https:')
    throw new CliError(`${name} must be an http(s) URL, got ${text}`);
  if (url.username || url.password)
    throw new CliError(
      `${name} holds credentials (user:password@), which a delivery never sends: remove them`,
    );
  return url;
}

/**
 * Parses a flag's whole number, refusing anything else, or one outside `min`-`max`, with a
 * usage error: the parser runs before the command, so nothing is sent.
 */
export function integer(name: string, min = -Infinity, max = Infinity): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (!Number.isInteger(n)) throw new CliError(`${name} must be a whole number, got ${value}`);
    return inRange(name, n, min, max, value);
  };
}

/** Parses a flag's number, refusing anything else, or one outside `min`-`max`, with a usage error. */
export function number(name: string, min = -Infinity, max = Infinity): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (value.trim() === '' || !Number.isFinite(n))
      throw new CliError(`${name} must be a number, got ${value}`);
    return inRange(name, n, min, max, value);
  };
}

function inRange(name: string, n: number, min: number, max: number, value: string): number {
  if (n >= min && n <= max) return n;
  const range = max === Infinity ? `at least ${min}` : `from ${min} to ${max}`;
  throw new CliError(`${name} must be ${range}, got ${value}`);
}

/** Collects a repeatable flag's values. */
export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}
