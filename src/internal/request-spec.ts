/**
 * The shapes the transport works with: a request as a resource describes it, the client's
 * resolved options, an answer. Kept apart from the transport so that the resources, the
 * retry loop and the redirect rules can name them without importing the machinery.
 */
import type { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import type { ParsedAnswer } from '../core/api-promise.js';
import type { Deadline } from '../core/deadline.js';
import type { FetchLike } from '../core/fetch-like.js';
import type { RateLimiter } from '../core/limits.js';
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
  /** The URL that answered (after redirects). */
  url: string;
}

/**
 * An answer's body as the rest of the SDK reads it, whichever way it was fetched: a Node
 * `Readable` (for `pipeline`, `saveTo`, the capped reader) with undici's two readers. undici's
 * own body is one as it is; an answer of a `fetch` is wrapped into one (internal/fetch-body.ts).
 */
export interface ResponseBody extends Readable {
  /** The whole body as UTF-8 text, a leading byte order mark dropped. */
  text(): Promise<string>;
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
  /** An undici dispatcher; without one, the SDK's own (see `defaultDispatcher`). */
  dispatcher?: Dispatcher | undefined;
  /** Connections to one origin at most, through the SDK's own dispatcher. @default DEFAULT_MAX_CONNECTIONS */
  maxConnections?: number | undefined;
  /** An HTTP(S) proxy's URL, for the SDK's own dispatcher. */
  proxy?: string | undefined;
  /** A fetch to send every request with, in place of undici. */
  fetch?: FetchLike | undefined;
  /** Headers sent with every request. */
  defaultHeaders?: Record<string, string> | undefined;
  /** Where requests and retries are logged. */
  logger?: Logger | undefined;
  /** How much is logged. @default 'off' */
  logLevel?: LogLevel | undefined;
  /** Functions told of requests, answers, retries and failures. */
  hooks?: Hooks | undefined;
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
