import type { Dispatcher } from 'undici';
import { MediaGatewayError } from './core/base-error.js';
import type { RateLimiter, RequestLimits } from './core/limits.js';
import { checkInterval, checkOptions, count, duration, InvalidOptionError } from './core/options.js';
import { showUnparsedURL } from './core/redact.js';
import { createLimiter } from './internal/limiter.js';
import { type Hooks, LOG_LEVELS, type Logger, type LogLevel } from './internal/observe.js';
import { checkObservers, resolveLogLevel } from './internal/observe-options.js';
import { DEFAULT_MAX_RESPONSE_BYTES, type FetchLike } from './internal/request-spec.js';
import { Transport } from './internal/transport.js';
import { normalizeBaseURL } from './internal/url.js';
import { Embeddings } from './resources/embeddings.js';
import { Images } from './resources/images.js';
import { Library } from './resources/library/index.js';
import { Midjourney } from './resources/midjourney.js';
import { Uploads } from './resources/uploads.js';
import { Videos } from './resources/videos.js';
import { Webhooks } from './resources/webhooks/index.js';

/** Options of {@link MediaGateway}. */
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
   * A client made by {@link MediaGateway.withOptions} shares this client's limiter (its queues,
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

/**
 * The Media Generation Gateway client.
 *
 * @throws MediaGatewayError when the key or base URL is missing, or the base URL is not http(s).
 * @throws InvalidOptionError when `timeout`, `maxRetries`, `maxResponseBytes`, `maxConnections`, `pollInterval` or a number of `limits` is not a whole number in its range, `fetch` is not a function or is given with `dispatcher`, `proxy` is not an http(s) URL or is given with `fetch`, or `hooks` or `logger` is not an object of functions.
 * @example
 * const client = new MediaGateway(); // reads MEDIAGW_API_KEY and MEDIAGW_BASE_URL
 * const task = await client.videos.createAndWait({ model: 'vidmodel-2.0-mini', prompt: 'a red kite', duration: 5 });
 */
export class MediaGateway {
  /** The normalised base URL (no trailing `/v1`). */
  readonly baseURL: string;
  /** @internal The HTTP transport shared by the resources. */
  declare readonly _transport: Transport;
  /** Image generation (JSON) and editing (multipart files), sync and async, and image tasks. */
  readonly images: Images;
  /** Video generation: submit, wait, download, estimate reservations. */
  readonly videos: Videos;
  /** Text embeddings. */
  readonly embeddings: Embeddings;
  /** Image upload: a local image in, a public URL out. */
  readonly uploads: Uploads;
  /** The media library: groups, materials and review tasks. */
  readonly library: Library;
  /** Webhook endpoints, capabilities and event records. Receiving lives in `mediagw/webhooks`. */
  readonly webhooks: Webhooks;
  /** The Midjourney-family asynchronous route. */
  readonly midjourney: Midjourney;
  /** The options as resolved (the key and base URL from the environment included), for {@link withOptions}. */
  readonly #options: ClientOptions;

  constructor(options: ClientOptions = {}) {
    const apiKey = options.apiKey ?? process.env.MEDIAGW_API_KEY;
    const baseURL = options.baseURL ?? process.env.MEDIAGW_BASE_URL;
    const missing = [
      !apiKey && 'the API key (option apiKey or environment variable MEDIAGW_API_KEY)',
      !baseURL && 'the base URL (option baseURL or environment variable MEDIAGW_BASE_URL)',
    ].filter(Boolean);
    if (!apiKey || !baseURL) throw new MediaGatewayError(`MediaGateway needs ${missing.join(' and ')}.`);
    // The rules of the options that stand alone, in the order they are checked; those that
    // depend on another (fetch, proxy) or on the environment (logLevel) follow.
    const { maxRetries, timeout, maxResponseBytes, pollInterval, maxConnections } = checkOptions(
      {
        maxRetries: count(0, 2),
        timeout: duration(),
        maxResponseBytes: count(1, DEFAULT_MAX_RESPONSE_BYTES),
        pollInterval: checkInterval,
        maxConnections: count(1),
      },
      options,
    );
    this.baseURL = normalizeBaseURL(baseURL);
    checkSender(options);
    checkProxy(options);
    checkObservers(options.hooks, options.logger);
    const logLevel = resolveLogLevel(options.logLevel, process.env.MEDIAGW_LOG, options.logger !== undefined);
    if (typeof logLevel === 'object') {
      throw new InvalidOptionError(logLevel.from, logLevel.refused, `one of ${LOG_LEVELS.join(', ')}`);
    }
    // Built once per client; `withOptions` hands it on (see `limits`).
    const limiter = createLimiter(options.limits);
    this.#options = { ...options, apiKey, baseURL, limits: limiter };
    const transport = new Transport({
      apiKey,
      baseURL: this.baseURL,
      timeout,
      maxRetries,
      maxResponseBytes,
      dispatcher: options.dispatcher,
      fetch: options.fetch,
      maxConnections,
      proxy: options.proxy,
      defaultHeaders: options.defaultHeaders,
      logger: options.logger ?? (logLevel === 'off' ? undefined : console),
      logLevel,
      hooks: options.hooks,
      limiter,
    });
    Object.defineProperty(this, '_transport', { value: transport, enumerable: false });
    // Copied, so that changing the caller's array later does not move this client's waits.
    const settings = {
      pollInterval: typeof pollInterval === 'object' ? ([...pollInterval] as const) : pollInterval,
    };
    this.images = new Images(transport, settings);
    this.videos = new Videos(transport, settings);
    this.embeddings = new Embeddings(transport);
    this.uploads = new Uploads(transport);
    this.library = new Library(transport, settings);
    this.webhooks = new Webhooks(transport);
    this.midjourney = new Midjourney(transport);
  }

  /**
   * A client with other defaults that shares this one's connections: the same `dispatcher`
   * (or, without one, the SDK's own pool for its `maxConnections` and `proxy`). Each option given
   * replaces this client's (`defaultHeaders` too, whole); the others, the key and base URL
   * included, are kept, but for `fetch` and `dispatcher`, one choice: either given alone replaces
   * the other (and `fetch` alone drops `proxy`; `proxy` alone drops both). This client is not changed. Its rate limiter is shared too (one key, one
   * budget) unless `limits` is given: then the new client has its own, or none for `undefined`.
   *
   * @throws as the constructor does, for an option out of its range.
   * @example
   * const patient = client.withOptions({ timeout: 600_000, maxRetries: 5 });
   * const edited = await patient.images.edit(params);
   */
  withOptions(options: ClientOptions): MediaGateway {
    const merged = { ...this.#options, ...options };
    if (options.fetch !== undefined && options.dispatcher === undefined) merged.dispatcher = undefined;
    if (options.dispatcher !== undefined && options.fetch === undefined) merged.fetch = undefined;
    // A proxy goes with the SDK's own dispatcher: a fetch given alone drops it, and a proxy given
    // alone drops the fetch and dispatcher.
    if (options.fetch !== undefined && options.proxy === undefined) merged.proxy = undefined;
    if (options.proxy !== undefined && options.fetch === undefined && options.dispatcher === undefined) {
      merged.fetch = undefined;
      merged.dispatcher = undefined;
    }
    return createClient(merged);
  }
}

/** Requests go through undici (a `dispatcher`) or through a `fetch`, never both. */
function checkSender({ fetch, dispatcher }: ClientOptions): void {
  if (fetch === undefined) return;
  if (typeof fetch !== 'function') {
    throw new InvalidOptionError(
      'fetch',
      fetch,
      'a function called as fetch(url, init), such as globalThis.fetch',
    );
  }
  if (dispatcher !== undefined) {
    throw new InvalidOptionError(
      'fetch',
      fetch,
      'left out when `dispatcher` is given (a dispatcher is undici’s, a fetch replaces undici): pass one of them',
    );
  }
}

/** `proxy`: an http(s) URL, and not with `fetch` (a fetch sends through its own means). */
function checkProxy({ proxy, fetch }: ClientOptions): void {
  if (proxy === undefined) return;
  // Its password is never shown: the value refused is given with it masked.
  const shown = typeof proxy === 'string' ? showUnparsedURL(proxy) : proxy;
  let url: URL | undefined;
  try {
    url = typeof proxy === 'string' ? new URL(proxy) : undefined;
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new InvalidOptionError(
      'proxy',
      shown,
      'the URL of an HTTP proxy, such as http://proxy.internal:3128',
    );
  }
  if (fetch !== undefined) {
    throw new InvalidOptionError(
      'proxy',
      shown,
      'left out when `fetch` is given (a fetch sends by its own means): pass one of them',
    );
  }
}

/**
 * Builds a {@link MediaGateway} from outside its class: a class that names itself in its own
 * body is emitted as `class _MediaGateway`, and its `name` would be that.
 */
function createClient(options: ClientOptions): MediaGateway {
  return new MediaGateway(options);
}
