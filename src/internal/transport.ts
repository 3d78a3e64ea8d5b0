import type { EventEmitter } from 'node:events';
import type { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import {
  AmbiguousSubmissionError,
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  InvalidResponseError,
  MediaGatewayError,
  ResponseTooLargeError,
} from '../core/errors.js';
import { checkCount, checkDuration } from '../core/options.js';
import { sleep } from '../core/sleep.js';
import { VERSION } from '../version.js';
import { Deadline } from './deadline.js';
import { createRedactor } from './redact.js';
import {
  isRetryable,
  NotSentError,
  RedirectRefusedError,
  type RetryClass,
  retryDelay,
} from './retry-policy.js';
import { writesOnlyToSockets } from './socket-writer.js';
import type { StreamOptions } from './upload-file.js';
import { buildPath, type QueryValue } from './url.js';

/** Per-call options, accepted as the last argument of every method. */
export interface RequestOptions {
  /**
   * Aborts the call, including any backoff sleep or wait. The thrown `APIUserAbortError` has the
   * signal's reason as `cause`; a billable submission aborted after sending throws
   * `AmbiguousSubmissionError`, whose `cause` is that `APIUserAbortError`.
   */
  signal?: AbortSignal | undefined;
  /**
   * Milliseconds for each attempt of this call, a whole number from 1 to 2147483647: the total
   * for connecting, sending, the headers and the body (for a download: up to the headers).
   * Overrides the client's and the operation's default.
   * @throws InvalidOptionError (rejected, before anything is sent) for any other value.
   */
  timeout?: number | undefined;
  /**
   * Retries for this call, where a retry is safe: a whole number, `0` means exactly one attempt.
   * @throws InvalidOptionError (rejected, before anything is sent) for any other value.
   */
  maxRetries?: number | undefined;
  /** Extra headers for this call; `null` removes a default header. */
  headers?: Record<string, string | null | undefined> | undefined;
}

/** Where the SDK writes what it does. Every method is optional; the API key is never passed to it. */
export interface Logger {
  /** Each request sent (`→ POST /v1/...`) and each answer's status, with its request ID. */
  debug?(message: string, data?: Record<string, unknown>): void;
  /** Accepted for symmetry; the SDK writes nothing at this level today. */
  info?(message: string, data?: Record<string, unknown>): void;
  /** Each retry: what failed and the delay before the next attempt. */
  warn?(message: string, data?: Record<string, unknown>): void;
  /** Accepted for symmetry; the SDK writes nothing at this level today (errors are thrown). */
  error?(message: string, data?: Record<string, unknown>): void;
}

/** A streamed request body with its headers (multipart). Built anew for every attempt. */
export interface StreamBody {
  /** The body's chunks. */
  body: AsyncIterable<Uint8Array>;
  /** Headers of the body (content type with boundary, length). */
  headers: Record<string, string>;
}

/** One request as a resource describes it. */
export interface RequestSpec {
  /** HTTP method. */
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** Path below `/v1`, built with the `path` helper. */
  path: string;
  /** Query parameters. */
  query?: Record<string, QueryValue> | undefined;
  /** JSON body. */
  body?: unknown;
  /**
   * Streamed body factory (multipart); called once per attempt. `reuseChunks` says whether the
   * body goes to undici's socket writer alone, so file chunks may be read into reused buffers.
   */
  stream?: ((options: StreamOptions) => Promise<StreamBody>) | undefined;
  /** How the request may be retried. */
  retry: RetryClass;
  /** The operation's default timeout in milliseconds. */
  timeout: number;
  /** The caller's per-call options. */
  options?: RequestOptions | undefined;
}

/** An answer whose headers arrived, its body not yet read. */
export interface RawResponse {
  /** HTTP status. */
  status: number;
  /** Headers, lower-cased names. */
  headers: Record<string, string>;
  /** `X-Service-Request-Id`, when present. */
  requestId: string | undefined;
  /** The body, not yet read. */
  body: Dispatcher.ResponseData['body'];
  /** The URL that answered (after redirects). */
  url: string;
}

/** What the client hands the transport: its resolved options. */
export interface TransportConfig {
  /** The API key; never logged. */
  apiKey: string;
  /** The normalised base URL, without `/v1`. */
  baseURL: string;
  /** Milliseconds per attempt, overriding every operation's default. */
  timeout?: number | undefined;
  /** Retries where a retry is safe. */
  maxRetries: number;
  /** The largest JSON body read, in bytes. @default DEFAULT_MAX_RESPONSE_BYTES */
  maxResponseBytes?: number | undefined;
  /** An undici dispatcher. */
  dispatcher?: Dispatcher | undefined;
  /** Headers sent with every request. */
  defaultHeaders?: Record<string, string> | undefined;
  /** Where requests and retries are logged. */
  logger?: Logger | undefined;
}

/**
 * One attempt of a request with its timeout in ms. It runs under its own {@link Deadline} and
 * reports a billable submission's unknown outcome as such (`forBillable`).
 */
type Attempt<T> = (spec: RequestSpec, timeout: number) => Promise<T>;

/** The default of the client's `maxResponseBytes`: 32 MiB. */
export const DEFAULT_MAX_RESPONSE_BYTES = 32 * 1024 * 1024;

/**
 * Headers that may follow a download's redirect to another origin. Everything else (the key,
 * `defaultHeaders`, cookies, a call's own headers) is meant for the origin it was sent to.
 */
const CROSS_ORIGIN_HEADERS = ['accept', 'accept-encoding', 'range', 'if-range', 'user-agent'] as const;

/** A JSON answer: the parsed object, and the answer's `X-Service-Request-Id` beside it. */
export interface JSONAnswer<T> {
  /** The parsed JSON object. */
  body: T;
  /** `X-Service-Request-Id`, when present. */
  requestId: string | undefined;
}

/** Keeps the request ID on the answer's object itself, not enumerable. */
function withRequestId<T>({ body, requestId }: JSONAnswer<T>): T {
  Object.defineProperty(body, '_requestId', { value: requestId, enumerable: false });
  return body;
}

// Connection failures that happen before a request byte can have left this process.
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT']);
const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);
const UTF8_BOM = [0xef, 0xbb, 0xbf] as const;
const ignore = () => undefined;

/**
 * Reads a body of unknown length as text, destroying it with `tooLarge()` once more than `limit`
 * bytes arrived: nothing past the limit is read or kept.
 */
function readCapped(body: Readable, limit: number, tooLarge: () => Error): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    body.on('data', (chunk: Buffer) => {
      if (size > limit) return;
      size += chunk.length;
      if (size <= limit) return void chunks.push(chunk);
      chunks.length = 0;
      body.destroy(tooLarge());
    });
    body.once('error', reject);
    body.once('end', () => {
      const bytes = Buffer.concat(chunks, size);
      // As undici's text(): a leading byte order mark is not part of the text.
      const bom = bytes[0] === UTF8_BOM[0] && bytes[1] === UTF8_BOM[1] && bytes[2] === UTF8_BOM[2];
      resolve(bytes.toString('utf8', bom ? 3 : 0));
    });
  });
}

let undiciModule: Promise<typeof import('undici')> | undefined;
/** undici once loaded: later requests take it without waiting a turn of the event loop. */
let undiciLoaded: typeof import('undici') | undefined;
let pRetryModule: Promise<typeof import('p-retry')> | undefined;
/** undici is loaded on the first request, so importing the SDK stays cheap. */
export function loadUndici(): Promise<typeof import('undici')> {
  undiciModule ??= import('undici').then((undici) => {
    undiciLoaded = undici;
    return undici;
  });
  return undiciModule;
}

function errorCode(error: unknown): string | undefined {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && code !== 'UND_ERR_SOCKET') return code;
    e = (e as { cause?: unknown }).cause;
  }
  return (error as { code?: string } | undefined)?.code;
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  // undici's request API lower-cases every header name (whatever the dispatcher); only a repeated
  // header comes as a list.
  let flat = true;
  for (const key in headers) {
    if (typeof headers[key] !== 'string') {
      flat = false;
      break;
    }
  }
  if (flat) return headers as Record<string, string>;
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(headers)) {
    if (value !== undefined) out[key] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/**
 * The one HTTP path of the SDK, on undici: auth, JSON, timeouts, retries by class, error
 * mapping and redaction. Resources describe requests; this sends them.
 */
export class Transport {
  /** The normalised base URL, without `/v1`. */
  readonly baseURL: string;
  /** The base URL's origin: the key is sent only there. */
  readonly origin: string;
  /** The base URL's path prefix before `/v1`, usually empty. */
  private readonly basePath: string;
  /** Replaces the API key with a mask anywhere in a value. */
  readonly redact: <T>(value: T) => T;
  private readonly userAgent = `mediagw/${VERSION} node/${process.version}`;
  /**
   * `Bearer <key>`, built once rather than for every request. Held in an ES private field:
   * `util.inspect`, even with `showHidden`, never shows it.
   */
  readonly #authorization: string;
  /** Everything else of the configuration: the key is not among it. */
  private readonly config: Omit<TransportConfig, 'apiKey'>;
  /** The largest JSON body read, in bytes. */
  private readonly maxResponseBytes: number;
  /** `defaultHeaders` with lower-cased names, as undici sends them and as redirects filter them. */
  private readonly defaultHeaders: Record<string, string> | undefined;

  constructor({ apiKey, ...config }: TransportConfig) {
    this.config = config;
    this.#authorization = `Bearer ${apiKey}`;
    this.baseURL = config.baseURL;
    const base = new URL(config.baseURL);
    this.origin = base.origin;
    this.basePath = base.pathname.replace(/\/+$/, '');
    this.redact = createRedactor(apiKey);
    this.maxResponseBytes = config.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    if (config.defaultHeaders) {
      this.defaultHeaders = {};
      for (const [key, value] of Object.entries(config.defaultHeaders))
        this.defaultHeaders[key.toLowerCase()] = value;
    }
  }

  /** The logger, with every message and field scrubbed of the key. */
  log(level: keyof Logger, message: string, data?: Record<string, unknown>): void {
    const fn = this.config.logger?.[level];
    if (fn) fn.call(this.config.logger, this.redact(message), data && this.redact({ ...data }));
  }

  /** Sends a request and parses its JSON answer; the request ID is kept on the result. */
  json<T>(spec: RequestSpec): Promise<T> {
    return this.answer<T>(spec).then(withRequestId);
  }

  /**
   * Sends a request and parses its JSON answer, giving the request ID beside the object: for a
   * resource that builds its own result (defining a property on a freshly parsed object costs
   * more than building a small one).
   */
  answer<T>(spec: RequestSpec): Promise<JSONAnswer<T>> {
    return this.withRetries(spec, this.attemptJSON as Attempt<JSONAnswer<T>>);
  }

  // An arrow function held once per transport: the attempt needs no closure per request.
  // The deadline bounds the whole attempt: connect, send, headers and the body's last byte.
  private readonly attemptJSON = async (spec: RequestSpec, timeout: number): Promise<JSONAnswer<unknown>> => {
    const deadline = new Deadline(this.describe(spec), timeout, spec.options?.signal);
    try {
      const response = await this.send(spec, undefined, deadline, timeout);
      const text = await this.readText(spec, response, deadline);
      if (response.status < 200 || response.status >= 300) throw this.apiError(spec, response, text);
      return { body: this.parseJSON(spec, response, text), requestId: response.requestId };
    } catch (error) {
      throw this.forBillable(spec, error);
    } finally {
      deadline.release();
    }
  };

  /**
   * Sends a GET whose answer is streamed (downloads). Redirects are followed (at most 5, never
   * from https to http). The attempt's deadline covers every hop up to the final answer's
   * headers; the body then streams under undici's `bodyTimeout` (the longest pause between
   * chunks) and the caller's signal. `Authorization` is sent only while the URL is on
   * `authOrigin`; the caller's other headers only while it is on the first URL's origin, and a
   * hop to any other origin gets {@link CROSS_ORIGIN_HEADERS} alone.
   */
  async stream(
    spec: RequestSpec & { url?: string | undefined; authOrigin?: string | undefined },
  ): Promise<RawResponse> {
    return this.withRetries(spec, async (_spec, timeout) => {
      const deadline = new Deadline(this.describe(spec), timeout, spec.options?.signal);
      try {
        let url = new URL(spec.url ?? this.origin + buildPath(this.basePath, spec.path, spec.query));
        const firstOrigin = url.origin;
        const authOrigin = spec.authOrigin ?? this.origin;
        for (let hop = 0; ; hop++) {
          const sameOrigin = url.origin === firstOrigin;
          const response = await this.send(
            spec,
            url.href,
            deadline,
            timeout,
            url.origin === authOrigin,
            sameOrigin,
          );
          const location = response.headers.location;
          if (response.status >= 300 && response.status < 400 && location) {
            await response.body.dump().catch(() => undefined);
            if (hop >= 5) throw new APIConnectionError(`${this.describe(spec)}: more than 5 redirects`);
            url = this.redirectTarget(spec, response, url, location);
            continue;
          }
          if (response.status < 200 || response.status >= 300) {
            throw this.apiError(spec, response, await this.readText(spec, response, deadline));
          }
          return response;
        }
      } finally {
        deadline.release();
      }
    });
  }

  /** Where a redirect leads, if the SDK follows it: http(s) only, and never from https to http. */
  private redirectTarget(spec: RequestSpec, response: RawResponse, from: URL, location: string): URL {
    let to: URL | undefined;
    try {
      to = new URL(location, from);
    } catch {
      // An unparsable Location is refused below.
    }
    const allowed =
      to !== undefined &&
      (to.protocol === 'https:' || (to.protocol === 'http:' && from.protocol === 'http:'));
    if (allowed) return to as URL;
    const why =
      to?.protocol === 'http:'
        ? 'from https to http, which would send the request unencrypted'
        : 'to a URL that is not http(s)';
    throw new RedirectRefusedError(
      `${this.describe(spec)}: refused a redirect ${why}`,
      response.status,
      response.requestId,
    );
  }

  private describe(spec: RequestSpec): string {
    return `${spec.method} /v1${spec.path}`;
  }

  private headersFor(
    spec: RequestSpec,
    withAuth: boolean,
    extra?: Record<string, string>,
    sameOrigin = true,
  ): Record<string, string> {
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': this.userAgent };
    if (this.defaultHeaders) Object.assign(headers, this.defaultHeaders);
    if (extra) Object.assign(headers, extra);
    const perCall = spec.options?.headers;
    if (perCall) {
      for (const [key, value] of Object.entries(perCall)) {
        if (value === null) delete headers[key.toLowerCase()];
        else if (value !== undefined) headers[key.toLowerCase()] = value;
      }
    }
    if (!sameOrigin) {
      const allowed: Record<string, string> = {};
      for (const name of CROSS_ORIGIN_HEADERS) {
        const value = headers[name];
        if (value !== undefined) allowed[name] = value;
      }
      return allowed;
    }
    if (withAuth) headers.authorization = this.#authorization;
    else delete headers.authorization;
    return headers;
  }

  private async send(
    spec: RequestSpec,
    url: string | undefined,
    deadline: Deadline,
    timeout: number,
    withAuth = true,
    sameOrigin = true,
  ): Promise<RawResponse> {
    const undici = undiciLoaded ?? (await loadUndici());
    const dispatcher = this.config.dispatcher ?? undici.getGlobalDispatcher();
    // The SDK's own paths are built encoded and need no URL parser; only a full URL (a download
    // link, a redirect) is parsed.
    const path = url === undefined ? buildPath(this.basePath, spec.path, spec.query) : undefined;
    const target = url ?? this.origin + path;
    let body: string | AsyncIterable<Uint8Array> | undefined;
    let extra: Record<string, string> | undefined;
    if (spec.stream) {
      const built = await spec.stream({ reuseChunks: writesOnlyToSockets(undici, dispatcher) });
      // undici takes the encoder's async iterable as it is: it asks for the next chunk only once
      // the last one is written or has drained, so nothing is read ahead of the socket.
      body = built.body;
      extra = built.headers;
    } else if (spec.body !== undefined) {
      body = JSON.stringify(spec.body);
      extra = { 'content-type': 'application/json' };
    }
    const logging = this.config.logger !== undefined;
    if (logging) this.log('debug', `→ ${spec.method} ${target}`);
    try {
      let origin = this.origin;
      let targetPath = path;
      if (targetPath === undefined) {
        const parsed = new URL(target);
        origin = parsed.origin;
        targetPath = parsed.pathname + parsed.search;
      }
      const options: Dispatcher.RequestOptions = {
        origin,
        path: targetPath,
        method: spec.method,
        headers: this.headersFor(spec, withAuth, extra, sameOrigin),
        // undici's types omit async iterables, which it sends as they come (its docs list them).
        body: (body ?? null) as string | Readable | null,
        // undici's own 300 s defaults would cut a 600 s edit short: follow the operation's timeout.
        // The deadline is what ends a JSON call; for a download's body, streamed after the
        // deadline is released, the body timeout is the longest pause between chunks.
        headersTimeout: timeout,
        bodyTimeout: timeout,
        // undici takes an EventEmitter as the signal (its docs say so): the deadline is one.
        signal: deadline as unknown as EventEmitter,
      };
      // undici's request API on the dispatcher, as `undici.request` calls it, without that
      // wrapper's URL parse and options copy (a few µs a request).
      const response = await undici.Dispatcher.prototype.request.call(dispatcher, options);
      const headers = flattenHeaders(response.headers);
      const requestId = headers['x-service-request-id'];
      if (logging) this.log('debug', `← ${response.statusCode} ${spec.method} ${target}`, { requestId });
      return { status: response.statusCode, headers, requestId, body: response.body, url: target };
    } catch (error) {
      throw this.connectionError(spec, error, deadline);
    }
  }

  /**
   * Reads an answer's body as text, at most `maxResponseBytes` of it: a larger `content-length`
   * is refused before reading, a body of unknown length is cut off once past the limit. Past
   * the limit a 2xx answer throws {@link ResponseTooLargeError}; any other gives a note in place
   * of its body, for the APIError its status calls for.
   */
  private async readText(spec: RequestSpec, response: RawResponse, deadline: Deadline): Promise<string> {
    const limit = this.maxResponseBytes;
    const declared = response.headers['content-length'];
    const length = declared === undefined ? Number.NaN : Number(declared);
    try {
      // undici's parser reads exactly `content-length` bytes: within the limit, its own reader is safe.
      if (length <= limit) return await response.body.text();
      const tooLarge = () =>
        new ResponseTooLargeError(
          `${this.describe(spec)} answered ${response.status} with a body of ${
            length > limit ? `${length} bytes` : `more than ${limit} bytes`
          }, over maxResponseBytes (${limit}); it was not read`,
          response.status,
          response.requestId,
          limit,
        );
      if (length > limit) {
        const error = tooLarge();
        // Destroyed, the body emits the error too: it is thrown here, not left unhandled there.
        response.body.on('error', ignore).destroy(error);
        throw error;
      }
      return await readCapped(response.body, limit, tooLarge);
    } catch (error) {
      // A refusal is known by its status: an oversized error body is dropped, and its APIError
      // says so in place of the gateway's message.
      if (error instanceof ResponseTooLargeError && (response.status < 200 || response.status >= 300)) {
        return `(the body was not read: it passed maxResponseBytes, ${limit} bytes)`;
      }
      throw this.connectionError(spec, error, deadline, response);
    }
  }

  private parseJSON(spec: RequestSpec, response: RawResponse, text: string): object {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (cause) {
      throw new InvalidResponseError(
        `${this.describe(spec)} answered ${response.status} with a body that is not JSON: ${this.redact(text).slice(0, 120)}`,
        response.status,
        response.requestId,
        { cause },
      );
    }
    // spec: Errors — every answer is a JSON object; `null`, a bare string or number is not one.
    if (!value || typeof value !== 'object') {
      throw new InvalidResponseError(
        `${this.describe(spec)} answered ${response.status} with JSON that is not an object: ${this.redact(text).slice(0, 120)}`,
        response.status,
        response.requestId,
      );
    }
    return value;
  }

  private apiError(spec: RequestSpec, response: RawResponse, text: string): APIError {
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      // Not JSON: the text itself is the body (spec: Errors — "anything else").
    }
    return APIError.fromResponse({
      status: response.status,
      body,
      headers: response.headers,
      requestId: response.requestId,
      operation: this.describe(spec),
    });
  }

  private connectionError(spec: RequestSpec, error: unknown, deadline: Deadline, answered?: RawResponse) {
    if (error instanceof MediaGatewayError) return error;
    const reason = deadline.reason;
    if (reason !== undefined) return reason; // our timeout or the caller's abort
    const code = errorCode(error);
    const what = this.describe(spec);
    if (!answered && code && NOT_SENT_CODES.has(code)) {
      return new NotSentError(`${what}: could not connect (${code})`, { cause: error });
    }
    if (code && TIMEOUT_CODES.has(code)) {
      const timeout = spec.options?.timeout ?? this.config.timeout ?? spec.timeout;
      return new APIConnectionTimeoutError(`${what}: no answer within ${timeout} ms (${code})`, {
        cause: error,
      });
    }
    const detail = answered ? `the answer ${answered.status} was cut off` : `the connection failed`;
    return new APIConnectionError(`${what}: ${detail}${code ? ` (${code})` : ''}`, { cause: error });
  }

  /** Runs `attempt` under the retry policy of the spec's class, with a fresh deadline each time. */
  private withRetries<T>(spec: RequestSpec, attempt: Attempt<T>): Promise<T> {
    let timeout = this.config.timeout ?? spec.timeout;
    const options = spec.options;
    if (options !== undefined) {
      try {
        checkDuration('timeout', options.timeout);
        checkCount('maxRetries', options.maxRetries, 0);
      } catch (error) {
        return Promise.reject(error);
      }
      const signal = options.signal;
      if (signal?.aborted)
        return Promise.reject(this.redact(new APIUserAbortError(undefined, { cause: signal.reason })));
      timeout = options.timeout ?? timeout;
    }
    // Every attempt runs under its own Deadline (a timer, and the caller's signal through one
    // shared listener), which is also the signal undici watches: no AbortController per request.
    // The first attempt runs on its own, with nothing built for a retry: most calls succeed at
    // once. Only a failure worth retrying enters the loop.
    // Not `async`, like the methods that return this promise: each async layer costs a request
    // a promise and a turn.
    return attempt(spec, timeout).catch((error: unknown) => this.retry(spec, attempt, timeout, error));
  }

  /** After a failed first attempt: retries with p-retry while the policy allows, else throws. */
  private async retry<T>(
    spec: RequestSpec,
    attempt: Attempt<T>,
    timeout: number,
    first: unknown,
  ): Promise<T> {
    const userSignal = spec.options?.signal;
    const maxRetries = spec.options?.maxRetries ?? this.config.maxRetries;
    const what = this.describe(spec);
    // Each retry gets the call's full timeout again: `timeout` is per attempt.
    const run = (): Promise<T> => attempt(spec, timeout);
    const shouldRetry = async (error: Error, attemptNumber: number): Promise<boolean> => {
      if (!isRetryable(spec.retry, error)) return false;
      const delay = retryDelay(attemptNumber, error);
      this.log('warn', `${what} failed (${error.message}); retry ${attemptNumber} in ${delay} ms`);
      await sleep(delay, userSignal).catch((reason: unknown) => {
        throw new APIUserAbortError('The request was aborted by the caller during a retry wait.', {
          cause: reason,
        });
      });
      return true;
    };
    try {
      if (maxRetries < 1 || !(first instanceof Error) || !(await shouldRetry(first, 1))) throw first;
      pRetryModule ??= import('p-retry');
      const { default: pRetry } = await pRetryModule;
      return await pRetry(run, {
        retries: maxRetries - 1,
        minTimeout: 0,
        shouldRetry: ({ error, attemptNumber }) => shouldRetry(error, attemptNumber + 1),
      });
    } catch (error) {
      throw this.redact(error);
    }
  }

  // spec: Errors — "A submit timeout is ambiguous: the task may exist". Anything that went
  // wrong after the bytes of a billable submission left is reported as such, never retried.
  private forBillable(spec: RequestSpec, error: unknown): unknown {
    if (spec.retry !== 'billable' || error instanceof NotSentError || error instanceof APIError) return error;
    if (error instanceof InvalidResponseError && (error.status < 200 || error.status >= 300)) return error;
    if (
      error instanceof APIConnectionError ||
      error instanceof InvalidResponseError ||
      error instanceof APIUserAbortError
    ) {
      const reason =
        error instanceof APIConnectionTimeoutError
          ? 'no answer in time'
          : error instanceof APIUserAbortError
            ? 'aborted by the caller after sending'
            : error instanceof InvalidResponseError
              ? 'the answer could not be read'
              : 'the connection failed after sending';
      return new AmbiguousSubmissionError(this.describe(spec), reason, { cause: error });
    }
    return error;
  }
}
