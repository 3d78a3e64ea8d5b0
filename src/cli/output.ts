/**
 * Where the command writes: results to stdout, progress and messages to stderr. On a TTY the
 * output is for people (colours, tables); piped, it is plain lines; with `--json`, stdout gets
 * exactly one JSON document per result and nothing else.
 */
import type { Writable } from 'node:stream';
import pc from 'picocolors';

/** The colour functions in use: real ones on a colour terminal, identity functions otherwise. */
export type Colors = ReturnType<typeof pc.createColors>;

/** How and where the command writes. */
export class Output {
  /** Colours for stdout. */
  readonly color: Colors;
  /** Colours for stderr (progress, messages). */
  readonly errColor: Colors;

  constructor(
    /** `--json`: results as JSON documents on stdout. */
    readonly json: boolean,
    /** `--verbose`: each request and answer on stderr. */
    readonly verbose: boolean,
    readonly stdout: Writable & { isTTY?: boolean } = process.stdout,
    readonly stderr: Writable & { isTTY?: boolean } = process.stderr,
  ) {
    // picocolors itself honours NO_COLOR, FORCE_COLOR and --no-color; it decides once per process
    // for stdout, so each stream is checked here as well.
    this.color = pc.createColors(pc.isColorSupported && Boolean(stdout.isTTY) && !json);
    this.errColor = pc.createColors(pc.isColorSupported && Boolean(stderr.isTTY));
  }

  /** Whether progress may redraw in place (stderr is a terminal). */
  get interactive(): boolean {
    return Boolean(this.stderr.isTTY);
  }

  /**
   * Prints a result: `value` as one JSON document with `--json`, else the `human` lines (or the
   * value as indented JSON when no human form is given).
   */
  result(value: unknown, human?: () => string | string[]): void {
    if (this.json || !human) {
      this.stdout.write(`${JSON.stringify(value, null, this.json ? undefined : 2)}\n`);
      return;
    }
    const text = human();
    this.stdout.write(`${Array.isArray(text) ? text.join('\n') : text}\n`);
  }

  /** A line for people on stdout, or on stderr with `--json` (stdout holds only JSON then). */
  say(message: string): void {
    (this.json ? this.stderr : this.stdout).write(`${message}\n`);
  }

  /** A message for people on stderr. */
  info(message: string): void {
    this.stderr.write(`${message}\n`);
  }

  /** A warning on stderr. */
  warn(message: string): void {
    this.stderr.write(`${this.errColor.yellow('warning:')} ${message}\n`);
  }

  /** An error on stderr. */
  error(message: string): void {
    this.stderr.write(`${this.errColor.red('error:')} ${message}\n`);
  }

  /** A debug line on stderr, with `--verbose` only. */
  debug(message: string): void {
    if (this.verbose) this.stderr.write(`${this.errColor.dim(message)}\n`);
  }

  /** Aligned `key  value` lines. */
  fields(rows: Array<[string, unknown]>): string[] {
    const present = rows.filter(([, v]) => v !== undefined && v !== null && v !== '');
    const width = Math.max(0, ...present.map(([k]) => k.length));
    // A value of several lines keeps its later lines under the first.
    const indent = `\n${' '.repeat(width + 2)}`;
    return present.map(
      ([k, v]) => `${this.color.dim(k.padEnd(width))}  ${formatValue(v).replaceAll('\n', indent)}`,
    );
  }

  /** A table with a header row; columns padded to their widest cell. */
  table(headers: string[], rows: unknown[][]): string[] {
    const cells = rows.map((row) => row.map((v) => formatValue(v)));
    const widths = headers.map((h, i) => Math.max(h.length, ...cells.map((row) => row[i]?.length ?? 0)));
    const line = (row: string[]) =>
      row
        .map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i] ?? 0)))
        .join('  ')
        .trimEnd();
    return [this.color.bold(line(headers)), ...cells.map(line)];
  }
}

function formatValue(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/**
 * A receiver's URL as lines and documents print it: a query (often a token) stands as `?…`, so
 * that it stays out of terminals, logs and CI output; the request itself goes to the URL whole.
 */
export function shownURL(url: URL): string {
  const shown = new URL(url.href);
  shown.search = '';
  shown.hash = '';
  return url.search ? `${shown.href}?…` : shown.href;
}

/**
 * The journal as written in messages: a Redis URL's password is never printed; it stands as
 * `****`, for the reader to put back in a command. The URL is read as `RespConnection` reads it,
 * so a password holding `@` or `:` is masked whole.
 */
export function shownJournal(journal: string): string {
  if (!journal.startsWith('redis://')) return journal;
  try {
    const url = new URL(journal);
    if (url.password) url.password = '****';
    return url.href;
  } catch {
    // Not a URL, so not one a runner can open: everything up to the last @ before the path goes.
    return journal.replace(/^redis:\/\/[^/]*@/, 'redis://****@');
  }
}

/** `1.5 MB`, `820 B`: bytes for people. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

/** `1m05s`, `12s`: a duration for people. */
export function formatDuration(ms: number): string {
  const total = Math.max(0, Math.round(ms / 1000));
  const minutes = Math.floor(total / 60);
  const seconds = total % 60;
  if (minutes === 0) return `${seconds}s`;
  return `${minutes}m${String(seconds).padStart(2, '0')}s`;
}
