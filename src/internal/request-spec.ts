/**
 * The shapes the transport works with: a request as a resource describes it, the client's
 * options (as given and as resolved), an answer. Kept apart from the transport so that the
 * resources, the retry loop and the redirect rules can name them without importing the machinery.
 */
import type { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import type { ParsedAnswer } from '../core/api-promise.js';
import type { Deadline } from '../core/deadline.js';
import type { FetchLike } from '../core/fetch-like.js';
import type { RateLimiter, RequestLimits } from '../core/limits.js';
import type { CallTrace, Hooks, Logger, LogLevel } from './observe.js';

export type { FetchInit, FetchLike, FetchResponseLike } from '../core/fetch-like.js';
export type { Logger } from './observe.js';

import type { RetryClass } from './retry-policy.js';
import type { StreamOptions } from './upload-file.js';
import type { QueryValue } from './url.js';

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
  /**
   * Extra headers for this call; `null` removes a default header. `content-type` and
   * `content-length` are the SDK's, set from the body it builds: a caller's are ignored.
   */
  headers?: Record<string, string | null | undefined> | undefined;
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
  /**
   * The model a streamed (multipart) body names, for the client's per-model rate limits; a JSON
   * body's or the query's `model` is read from there.
   */
  model?: string | undefined;
  /** How the request may be retried. */
  retry: RetryClass;
  /** The operation's default timeout in milliseconds. */
  timeout: number;
  /** The caller's per-call options. */
  options?: RequestOptions | undefined;
  /** The call as observed by hooks and logs; set by the transport, only when it observes. */
  trace?: CallTrace | undefined;
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
  body: ResponseBody;
}

/**
 * An answer's body as the rest of the SDK reads it, whichever way it was fetched: a Node
 * `Readable` (for `pipeline`, `saveTo`, the capped reader) with undici's two readers. undici's
 * own body is one as it is; an answer of a `fetch` is wrapped into one (internal/fetch-body.ts).
 */
export interface ResponseBody extends Readable {
  /** Discards the rest of the body. */
  dump(): Promise<void>;
}

/** One request as the transport hands it to undici or to a fetch: everything resolved. */
export interface OutgoingRequest {
  /** The origin (`scheme://host:port`) the request goes to. */
  origin: string;
  /** The path and query, encoded. */
  path: string;
  /** HTTP method. */
  method: string;
  /** Every header, lower-cased names. */
  headers: Record<string, string>;
  /** JSON text, a streamed body's chunks, or nothing. */
  body: string | AsyncIterable<Uint8Array> | undefined;
  /**
   * The attempt's timeout in ms, which also bounds each pause of a streamed answer's body;
   * `undefined` leaves the pauses to the dispatcher's own limits (`fileFromURL`, whose deadline
   * bounds the whole download).
   */
  timeout: number | undefined;
  /** The attempt's deadline: the timer and the caller's signal. */
  deadline: Deadline;
}

/** Options of `MediaGateway`, the client. */
export interface ClientOptions {
  /** The API key. @default process.env.MEDIAGW_API_KEY */
  apiKey?: string | undefined;
  /**
   * The gateway's scheme-and-host root. A trailing `/` or `/v1` is dropped, so `/v1` is never
   * sent twice. @default process.env.MEDIAGW_BASE_URL
   */
  baseURL?: string | undefined;
  /**
   * Milliseconds per request attempt, a whole number from 1 to 2147483647: the total for
   * connecting, sending, the headers and the body (for a download: up to its headers; the body
   * then has this long between chunks). Overrides every per-operation default (60 s for ordinary
   * calls, 180-600 s for images).
   */
  timeout?: number | undefined;
  /** Retries where a retry is safe (see the Retries guide): a whole number, `0` means exactly one attempt. @default 2 */
  maxRetries?: number | undefined;
  /**
   * The largest JSON answer the SDK reads, in bytes. A larger `content-length` is refused before
   * reading, a longer body is cut off there: `ResponseTooLargeError` (for a billable submission
   * answered 2xx, `AmbiguousSubmissionError`). Downloads are streamed and not limited.
   * @default 33554432 (32 MiB)
   */
  maxResponseBytes?: number | undefined;
  /**
   * An undici `Dispatcher` (pool, proxy, MockAgent) to send every request through, in place of
   * the SDK's own: `maxConnections` and `proxy` are then not used. Not with `fetch`.
   * @default the dispatcher installed with undici's `setGlobalDispatcher` when it is not a plain
   * `Agent` (a `ProxyAgent`, an `EnvHttpProxyAgent`, a `MockAgent`); else the SDK's own, an
   * `Agent` with at most `maxConnections` connections to one origin, shared by every client
   * with the same `maxConnections` and `proxy`
   */
  dispatcher?: Dispatcher | undefined;
  /**
   * The most connections open at once to one origin (the gateway; a media host), a whole number
   * from 1: a burst of calls beyond it waits on the client for a free connection instead of
   * opening more. Not used with `dispatcher` or `fetch`. A download whose body is never read
   * holds its connection until it is read or its timeout ends it.
   * @throws InvalidOptionError when it is not a whole number from 1.
   * @default 128
   */
  maxConnections?: number | undefined;
  /**
   * An HTTP proxy to send every request through, as a URL (`http://proxy.internal:3128`, with
   * `user:password@` for Basic auth). Requests to an `https:` gateway go through a `CONNECT`
   * tunnel; to an `http:` one, in absolute form. Redirects are followed by the same rules as
   * without it. `dispatcher` wins over it. The environment's `HTTPS_PROXY`, `HTTP_PROXY` and
   * `NO_PROXY` are not read: for them, pass `dispatcher: new EnvHttpProxyAgent()` (undici).
   * @throws InvalidOptionError when it is not an http(s) URL, or is given with `fetch`.
   * @default none
   */
  proxy?: string | undefined;
  /**
   * A WHATWG `fetch` to send every request with, in place of undici: `globalThis.fetch`, a
   * wrapper around it, or a test double. The rules stay the same (timeouts, retries, redirects and
   * their header rules, `maxResponseBytes`, errors); undici is then never loaded. undici remains
   * the faster path on Node. See the Runtimes guide.
   * @throws InvalidOptionError when it is not a function, or given with `dispatcher`.
   * @default undici; the runtime's `fetch` where `import('undici')` gives no dispatcher API (Bun)
   */
  fetch?: FetchLike | undefined;
  /** Headers sent with every request. `content-type` and `content-length` are ignored: the SDK sets them from the body it builds. */
  defaultHeaders?: Record<string, string> | undefined;
  /**
   * Where log lines go, console-style: `logger.info(message, fields)`, the fields structured
   * (`method`, `path`, `status`, `attempt`, `durationMs`, `requestId`, `bytes`). Every line
   * passes the redactor: the API key, secret fields and presigned URL signatures never reach it.
   * See the Observability guide for pino.
   * @throws InvalidOptionError when it is not an object (`null` included), or one of `debug`,
   * `info`, `warn`, `error` is given and is not a function (`logger.info`).
   * @default console, when `logLevel` or `MEDIAGW_LOG` is set
   */
  logger?: Logger | undefined;
  /**
   * How much is logged: `debug` (every request and answer), `info` (+ each call that
   * succeeded), `warn` (+ retries), `error` (+ calls that failed), `off`.
   * @default process.env.MEDIAGW_LOG, else `debug` with a `logger` (it keeps what its methods take) and `off` without one
   */
  logLevel?: LogLevel | undefined;
  /**
   * Functions told of each attempt sent (`onRequest`), answer read (`onResponse`), retry
   * (`onRetry`) and failed call (`onError`), with structured info: for metrics and tracing.
   * A hook that throws or rejects never changes the call (it is logged at `warn`, or emitted
   * as a process warning without a logger).
   * @throws InvalidOptionError when it is not an object (`null` included), or a hook is given
   * and is not a function (`hooks.onRequest`).
   */
  hooks?: Hooks | undefined;
  /**
   * Client-side rate limits: requests per second and in flight, for the client, per model and
   * per route family, the excess queued in order; a 429 with `Retry-After` pauses its model for
   * every call. Pass a `RedisRateLimiter` (`mediagw/redis`) to share the limits among replicas.
   * A client made by `MediaGateway.withOptions` shares this client's limiter (its queues,
   * budgets and 429 pauses: one API key, one budget) unless `limits` is given to it, which
   * builds its own (`limits: undefined` for none). See the Scaling guide. @default no limits
   */
  limits?: RequestLimits | RateLimiter | undefined;
  /**
   * Milliseconds between the polls of every wait of this client (`waitForTask`, `createAndWait`,
   * review tasks), in place of the spec's figures per task kind: a number, or `[min, max]` for a
   * jittered interval, whole numbers from 1 to 2147483647. A wait's own `interval` wins; the
   * fallback polls of a wait on `events` keep `fallbackInterval`. Not checked against the spec's
   * figures (3-5 s for images and `vidmodel-2.0-mini`, 5-10 s for `vidmodel-2.5` and review tasks):
   * keep to them against the gateway; shorter intervals are for a local mock, e.g.
   * `gateway.clientOptions()` of `mediagw/testing`, which sets it from the mock's clock.
   * @default the spec's figure for each task kind
   */
  pollInterval?: number | readonly [number, number] | undefined;
}

/** What the client hands the transport: its options, resolved; each is documented on {@link ClientOptions}. */
export interface TransportConfig
  extends Pick<
    ClientOptions,
    | 'timeout'
    | 'maxResponseBytes'
    | 'dispatcher'
    | 'maxConnections'
    | 'proxy'
    | 'fetch'
    | 'defaultHeaders'
    | 'logger'
    | 'logLevel'
    | 'hooks'
  > {
  /** The API key; never logged. */
  apiKey: string;
  /** The normalised base URL, without `/v1`. */
  baseURL: string;
  /** Retries where a retry is safe. */
  maxRetries: number;
  /** Decides when each attempt may be sent; none when the client has no `limits`. */
  limiter?: RateLimiter | undefined;
}

/**
 * The default of the client's `maxConnections`: the most connections its own dispatcher opens to
 * one origin (the gateway, a media host). A burst of calls beyond it waits on the client for a
 * free connection rather than opening hundreds.
 */
export const DEFAULT_MAX_CONNECTIONS = 128;

/** The default of the client's `maxResponseBytes`: 32 MiB. */
export const DEFAULT_MAX_RESPONSE_BYTES = 32 * 1024 * 1024;

/** A JSON answer: the parsed object, with the status, headers, request ID and text beside it. */
export type JSONAnswer<T> = ParsedAnswer<T>;
