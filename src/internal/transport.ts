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
} from '../core/errors.js';
import { VERSION } from '../version.js';
import { createRedactor } from './redact.js';
import { isRetryable, NotSentError, type RetryClass, retryDelay } from './retry-policy.js';
import { sleep } from './sleep.js';
import { writesOnlyToSockets } from './socket-writer.js';
import type { StreamOptions } from './upload-file.js';
import { buildPath, type QueryValue } from './url.js';

/** Per-call options, accepted as the last argument of every method. */
export interface RequestOptions {
  /** Aborts the call, including any backoff sleep or wait. */
  signal?: AbortSignal | undefined;
  /** Milliseconds for this call (each attempt); overrides the client's and the operation's default. */
  timeout?: number | undefined;
  /** Retries for this call, where a retry is safe. `0` means exactly one attempt. */
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
  /** An undici dispatcher. */
  dispatcher?: Dispatcher | undefined;
  /** Headers sent with every request. */
  defaultHeaders?: Record<string, string> | undefined;
  /** Where requests and retries are logged. */
  logger?: Logger | undefined;
}

/** One attempt of a request: the signal that aborts it (if any) and its timeout in ms. */
type Attempt<T> = (spec: RequestSpec, signal: AbortSignal | undefined, timeout: number) => Promise<T>;

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

  constructor({ apiKey, ...config }: TransportConfig) {
    this.config = config;
    this.#authorization = `Bearer ${apiKey}`;
    this.baseURL = config.baseURL;
    const base = new URL(config.baseURL);
    this.origin = base.origin;
    this.basePath = base.pathname.replace(/\/+$/, '');
    this.redact = createRedactor(apiKey);
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
  private readonly attemptJSON = async (
    spec: RequestSpec,
    signal: AbortSignal | undefined,
    timeout: number,
  ): Promise<JSONAnswer<unknown>> => {
    const response = await this.send(spec, undefined, signal, timeout);
    const text = await this.readText(spec, response, signal);
    if (response.status < 200 || response.status >= 300) throw this.apiError(spec, response, text);
    return { body: this.parseJSON(spec, response, text), requestId: response.requestId };
  };

  /**
   * Sends a GET whose answer is streamed (downloads). Redirects are followed (at most 5), and
   * `Authorization` is sent only while the URL stays on `authOrigin`.
   */
  async stream(
    spec: RequestSpec & { url?: string | undefined; authOrigin?: string | undefined },
  ): Promise<RawResponse> {
    return this.withRetries(spec, async (_spec, signal, timeout) => {
      let url = spec.url ?? this.origin + buildPath(this.basePath, spec.path, spec.query);
      const authOrigin = spec.authOrigin ?? this.origin;
      for (let hop = 0; ; hop++) {
        const withAuth = new URL(url).origin === authOrigin;
        const response = await this.send(spec, url, signal, timeout, withAuth);
        const location = response.headers.location;
        if (response.status >= 300 && response.status < 400 && location) {
          await response.body.dump().catch(() => undefined);
          if (hop >= 5) throw new APIConnectionError(`${this.describe(spec)}: more than 5 redirects`);
          url = new URL(location, url).toString();
          continue;
        }
        if (response.status < 200 || response.status >= 300) {
          throw this.apiError(spec, response, await this.readText(spec, response, signal));
        }
        return response;
      }
    });
  }

  private describe(spec: RequestSpec): string {
    return `${spec.method} /v1${spec.path}`;
  }

  private headersFor(
    spec: RequestSpec,
    withAuth: boolean,
    extra?: Record<string, string>,
  ): Record<string, string> {
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': this.userAgent };
    if (this.config.defaultHeaders) Object.assign(headers, this.config.defaultHeaders);
    if (extra) Object.assign(headers, extra);
    const perCall = spec.options?.headers;
    if (perCall) {
      for (const [key, value] of Object.entries(perCall)) {
        if (value === null) delete headers[key.toLowerCase()];
        else if (value !== undefined) headers[key.toLowerCase()] = value;
      }
    }
    if (withAuth) headers.authorization = this.#authorization;
    else delete headers.authorization;
    return headers;
  }

  private async send(
    spec: RequestSpec,
    url: string | undefined,
    signal: AbortSignal | undefined,
    timeout: number,
    withAuth = true,
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
        headers: this.headersFor(spec, withAuth, extra),
        // undici's types omit async iterables, which it sends as they come (its docs list them).
        body: (body ?? null) as string | Readable | null,
        // undici's own 300 s defaults would cut a 600 s edit short: follow the operation's timeout.
        // For downloads the body timeout is the longest pause between chunks, not the whole transfer.
        headersTimeout: timeout,
        bodyTimeout: timeout,
      };
      if (signal) options.signal = signal;
      // undici's request API on the dispatcher, as `undici.request` calls it, without that
      // wrapper's URL parse and options copy (a few µs a request).
      const response = await undici.Dispatcher.prototype.request.call(dispatcher, options);
      const headers = flattenHeaders(response.headers);
      const requestId = headers['x-service-request-id'];
      if (logging) this.log('debug', `← ${response.statusCode} ${spec.method} ${target}`, { requestId });
      return { status: response.statusCode, headers, requestId, body: response.body, url: target };
    } catch (error) {
      throw this.connectionError(spec, error, signal);
    }
  }

  private async readText(
    spec: RequestSpec,
    response: RawResponse,
    signal: AbortSignal | undefined,
  ): Promise<string> {
    try {
      return await response.body.text();
    } catch (error) {
      throw this.connectionError(spec, error, signal, response);
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

  private connectionError(
    spec: RequestSpec,
    error: unknown,
    signal: AbortSignal | undefined,
    answered?: RawResponse,
  ) {
    if (error instanceof MediaGatewayError) return error;
    const reason = signal?.reason;
    if (reason instanceof MediaGatewayError) return reason; // our timeout or the caller's abort
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

  /** Runs `attempt` under the retry policy of the spec's class, with a fresh timeout each time. */
  private withRetries<T>(spec: RequestSpec, attempt: Attempt<T>): Promise<T> {
    const userSignal = spec.options?.signal;
    if (userSignal?.aborted) return Promise.reject(this.redact(new APIUserAbortError()));
    const timeout = spec.options?.timeout ?? this.config.timeout ?? spec.timeout;
    // A JSON request without a caller's signal needs no AbortController of its own: undici's
    // headersTimeout and bodyTimeout, set from the same figure, end the attempt, and passing a
    // signal to undici costs a fifth of a loopback round trip. A streamed upload (whose sending
    // undici does not time) and a call the caller can abort get a controller and a timer.
    const controlled = spec.stream !== undefined || userSignal !== undefined;
    // The first attempt runs on its own, with nothing built for a retry: most calls succeed at
    // once. Only a failure worth retrying enters the loop.
    // Not `async`, like the methods that return this promise: each async layer costs a request
    // a promise and a turn.
    if (controlled) {
      return this.controlled(spec, attempt, timeout).catch((error: unknown) =>
        this.retry(spec, attempt, timeout, true, error),
      );
    }
    return attempt(spec, undefined, timeout).catch((error: unknown) =>
      this.retry(spec, attempt, timeout, false, this.forBillable(spec, error)),
    );
  }

  /** One attempt under its own AbortController: the caller's signal and a timer abort it. */
  private async controlled<T>(spec: RequestSpec, attempt: Attempt<T>, timeout: number): Promise<T> {
    const userSignal = spec.options?.signal;
    const controller = new AbortController();
    const onAbort = () => controller.abort(new APIUserAbortError());
    userSignal?.addEventListener('abort', onAbort, { once: true });
    const timer = setTimeout(
      () =>
        controller.abort(
          new APIConnectionTimeoutError(`${this.describe(spec)}: no answer within ${timeout} ms`),
        ),
      timeout,
    );
    try {
      return await attempt(spec, controller.signal, timeout);
    } catch (error) {
      throw this.forBillable(spec, error);
    } finally {
      clearTimeout(timer);
      userSignal?.removeEventListener('abort', onAbort);
    }
  }

  /** After a failed first attempt: retries with p-retry while the policy allows, else throws. */
  private async retry<T>(
    spec: RequestSpec,
    attempt: Attempt<T>,
    timeout: number,
    controlled: boolean,
    first: unknown,
  ): Promise<T> {
    const userSignal = spec.options?.signal;
    const maxRetries = spec.options?.maxRetries ?? this.config.maxRetries;
    const what = this.describe(spec);
    const run = async (): Promise<T> => {
      if (controlled) return this.controlled(spec, attempt, timeout);
      try {
        return await attempt(spec, undefined, timeout);
      } catch (error) {
        throw this.forBillable(spec, error);
      }
    };
    const shouldRetry = async (error: Error, attemptNumber: number): Promise<boolean> => {
      if (!isRetryable(spec.retry, error)) return false;
      const delay = retryDelay(attemptNumber, error);
      this.log('warn', `${what} failed (${error.message}); retry ${attemptNumber} in ${delay} ms`);
      await sleep(delay, userSignal).catch(() => {
        throw new APIUserAbortError('The request was aborted by the caller during a retry wait.');
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
