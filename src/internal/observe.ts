/**
 * What the SDK tells the caller about its requests: log lines at a level, and hooks for
 * metrics and tracing. Built once per client, and only when there is someone to tell: with no
 * hooks and logging off the transport holds none and builds nothing per request.
 */
import { callDetached } from '../core/detached-call.js';
import { messageOf } from '../core/errors.js';

/**
 * Where the SDK writes what it does, console-style: `(message, fields)`. Every method is
 * optional; `console` is one. The fields are structured (`method`, `path`, `attempt`,
 * `status`, `durationMs`, `requestId`, `bytes`, `delayMs`, `error`); the message and fields
 * pass through the redactor first, so the API key, secret fields and presigned URL signatures
 * never reach it. pino takes `(fields, message)`: adapt it with
 * `{ debug: (m, f) => log.debug(f, m), info: ..., warn: ..., error: ... }`.
 */
export interface Logger {
  /** Each request sent (`→ POST https://…/v1/...`) and each answer's headers (`← 200 POST …`). */
  debug?(message: string, data?: Record<string, unknown>): void;
  /** Each call that succeeded, once: `GET /v1/videos/task_1 200 in 84 ms`. */
  info?(message: string, data?: Record<string, unknown>): void;
  /** Each retry: what failed and the delay before the next attempt; a hook that threw. */
  warn?(message: string, data?: Record<string, unknown>): void;
  /** Each call that failed, after any retries, with the error's message (the error is thrown too). */
  error?(message: string, data?: Record<string, unknown>): void;
}

/** How much the SDK logs: `debug` is the most, `off` nothing. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'off';

/** The levels, from the most to the least said. */
export const LOG_LEVELS: readonly LogLevel[] = ['debug', 'info', 'warn', 'error', 'off'];

/** What every hook is told: the call and which attempt of it. */
export interface HookRequestInfo {
  /** Numbers the calls of this process: the same for every hook of one call. */
  callId: number;
  /** HTTP method. */
  method: string;
  /** The path with `/v1` (`/v1/videos/task_1`), or a download's URL with its secrets masked. */
  path: string;
  /** The attempt, from 1. */
  attempt: number;
}

/** An answer was read whole (a download: its headers arrived). */
export interface HookResponseInfo extends HookRequestInfo {
  /** HTTP status; a 2xx one gives the call its result. */
  status: number;
  /** Milliseconds since this attempt was sent. */
  durationMs: number;
  /** `X-Service-Request-Id`, when present. */
  requestId: string | undefined;
  /** Bytes of the body read (a download: its `content-length`, when given). */
  bytes: number | undefined;
}

/** An attempt failed and will be tried again after `delayMs`. */
export interface HookRetryInfo extends HookRequestInfo {
  /** Why the attempt failed. */
  error: Error;
  /** The wait before the next attempt. */
  delayMs: number;
  /** The failed answer's status, when there was one. */
  status: number | undefined;
  /** The failed answer's request ID, when there was one. */
  requestId: string | undefined;
}

/** The call failed: this is the error it rejects with. */
export interface HookErrorInfo extends HookRequestInfo {
  /** The error the call rejects with. */
  error: Error;
  /** Milliseconds since the call's first attempt was sent, retry waits included. */
  durationMs: number;
  /** The last answer's status, when there was one. */
  status: number | undefined;
  /** The last answer's request ID, when there was one. */
  requestId: string | undefined;
}

/**
 * Functions called as requests go and come back, to plug in metrics and tracing. Each is
 * called synchronously and not awaited. One that throws or rejects does not change the call:
 * its error is logged at `warn` (with a logger), else emitted as a process warning.
 */
export interface Hooks {
  /** Before each attempt is sent. */
  onRequest?: ((info: HookRequestInfo) => unknown) | undefined;
  /** When an attempt's answer was read (any status). */
  onResponse?: ((info: HookResponseInfo) => unknown) | undefined;
  /** When a failed attempt will be retried, before the wait. */
  onRetry?: ((info: HookRetryInfo) => unknown) | undefined;
  /** When the call fails, after any retries. Not called for a call refused before sending. */
  onError?: ((info: HookErrorInfo) => unknown) | undefined;
}

/** A call being observed: created per call, only when there is an observer. */
export interface CallTrace {
  callId: number;
  method: string;
  path: string;
  attempt: number;
  callStart: number;
  attemptStart: number;
}

type Level = Exclude<LogLevel, 'off'>;
type Fields = Record<string, unknown>;

let calls = 0;

/** The status and request ID of an error that carries an answer's. */
function answerOf(error: unknown): { status: number | undefined; requestId: string | undefined } {
  const e = error as { status?: unknown; requestId?: unknown } | undefined;
  return {
    status: typeof e?.status === 'number' ? e.status : undefined,
    requestId: typeof e?.requestId === 'string' ? e.requestId : undefined,
  };
}

/** The logger and hooks of a client, with what is on decided once. */
export class Observer {
  readonly #logger: Logger | undefined;
  #loggerWarned = false;
  readonly #hooks: Hooks;
  readonly #redact: <T>(value: T) => T;
  /** Whether lines of each level reach the logger. */
  readonly logs: Readonly<Record<Level, boolean>>;

  private constructor(
    hooks: Hooks | undefined,
    logger: Logger | undefined,
    level: LogLevel,
    redact: <T>(v: T) => T,
  ) {
    this.#hooks = hooks ?? {};
    this.#logger = logger;
    this.#redact = redact;
    const from = LOG_LEVELS.indexOf(level);
    const on = (l: Level) => logger !== undefined && LOG_LEVELS.indexOf(l) >= from && !!logger[l];
    this.logs = { debug: on('debug'), info: on('info'), warn: on('warn'), error: on('error') };
  }

  /** An observer, or `undefined` when nothing would be logged and no hook is set. */
  static create(
    hooks: Hooks | undefined,
    logger: Logger | undefined,
    level: LogLevel,
    redact: <T>(v: T) => T,
  ): Observer | undefined {
    const observer = new Observer(hooks, logger, level, redact);
    const { onRequest, onResponse, onRetry, onError } = observer.#hooks;
    const logs = Object.values(observer.logs).some(Boolean);
    return logs || onRequest || onResponse || onRetry || onError ? observer : undefined;
  }

  /** Writes a line, its message and fields scrubbed of the key and every secret the redactor knows. */
  log(level: Level, message: string, fields?: Fields): void {
    if (!this.logs[level]) return;
    // A logger that throws or rejects never changes a call: the line is dropped, as a hook's
    // failure is (an accepted billable submission stays accepted, its task ID returned).
    callDetached(
      () => this.#logger?.[level]?.(this.#redact(message), fields && this.#redact({ ...fields })),
      (error) => this.#loggerFailed(error),
    );
  }

  /** A call begins. `path` is `/v1/...` or a URL, masked here. */
  start(method: string, path: string): CallTrace {
    const now = performance.now();
    return {
      callId: ++calls,
      method,
      path: this.#redact(path),
      attempt: 1,
      callStart: now,
      attemptStart: now,
    };
  }

  /** An attempt is about to be sent. */
  request(trace: CallTrace): void {
    trace.attemptStart = performance.now();
    this.#call('onRequest', this.#info(trace));
  }

  /** An attempt's answer was read. A 2xx one ends the call (logged at `info`). */
  response(trace: CallTrace, status: number, requestId: string | undefined, bytes: number | undefined): void {
    const durationMs = Math.round(performance.now() - trace.attemptStart);
    const info: HookResponseInfo = { ...this.#info(trace), status, durationMs, requestId, bytes };
    if (status >= 200 && status < 300) {
      this.log('info', `${trace.method} ${trace.path} ${status} in ${durationMs} ms`, fieldsOf(info));
    }
    this.#call('onResponse', info);
  }

  /** A failed attempt will be retried after `delayMs` (logged at `warn`). */
  retry(trace: CallTrace, failure: Error, delayMs: number): void {
    const error = this.#redact(failure);
    const info: HookRetryInfo = { ...this.#info(trace), error, delayMs, ...answerOf(error) };
    this.log(
      'warn',
      `${trace.method} ${trace.path} failed (${error.message}); retry ${trace.attempt} in ${delayMs} ms`,
      { ...fieldsOf(info), error: error.message },
    );
    this.#call('onRetry', info);
    trace.attempt++;
  }

  /** The call fails with `error`, already redacted (logged at `error`). */
  failure(trace: CallTrace, error: unknown): void {
    const failure = error instanceof Error ? error : new Error(String(error));
    const durationMs = Math.round(performance.now() - trace.callStart);
    const info: HookErrorInfo = { ...this.#info(trace), error: failure, durationMs, ...answerOf(failure) };
    this.log('error', `${trace.method} ${trace.path} failed: ${failure.message}`, {
      ...fieldsOf(info),
      error: failure.message,
    });
    this.#call('onError', info);
  }

  #info(trace: CallTrace): HookRequestInfo {
    return { callId: trace.callId, method: trace.method, path: trace.path, attempt: trace.attempt };
  }

  /** Calls the hook `name`, when set; what it throws or rejects with is reported, never passed on to the call. */
  #call<K extends keyof Hooks>(name: K, info: Parameters<NonNullable<Hooks[K]>>[0]): void {
    const hook = this.#hooks[name] as ((info: unknown) => unknown) | undefined;
    if (hook)
      callDetached(
        () => hook(info),
        (error) => this.#hookFailed(name, error),
      );
  }

  /** Said once per client, as a process warning: the logger itself is what failed. */
  #loggerFailed(error: unknown): void {
    if (this.#loggerWarned) return;
    this.#loggerWarned = true;
    process.emitWarning(
      this.#redact(`the logger threw (${messageOf(error)}); its lines are dropped and calls go on`),
      { code: 'MEDIAGW_LOGGER_FAILED' },
    );
  }

  #hookFailed(name: keyof Hooks, error: unknown): void {
    const message = this.#redact(`the ${name} hook threw (${messageOf(error)}); the call went on`);
    if (this.logs.warn) this.log('warn', message, { hook: name });
    else process.emitWarning(message, { code: 'MEDIAGW_HOOK_FAILED' });
  }
}

/** The structured fields of a log line: no error object, no undefined values. */
function fieldsOf(info: HookRequestInfo): Fields {
  const fields: Fields = {};
  for (const [key, value] of Object.entries(info)) {
    if (value !== undefined && key !== 'error' && key !== 'callId') fields[key] = value;
  }
  return fields;
}
