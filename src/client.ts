import { MediaGatewayError } from './core/base-error.js';
import type { RateLimiter } from './core/limits.js';
import { checkInterval, checkOptions, count, duration, InvalidOptionError } from './core/options.js';
import { showUnparsedURL } from './core/redact.js';
import { createLimiter } from './internal/limiter.js';
import { LOG_LEVELS } from './internal/observe.js';
import { OBSERVER_OPTIONS, resolveLogLevel } from './internal/observe-options.js';
import { type ClientOptions, DEFAULT_MAX_RESPONSE_BYTES } from './internal/request-spec.js';
import { Transport } from './internal/transport.js';
import { normalizeBaseURL } from './internal/url.js';
import { Embeddings } from './resources/embeddings.js';
import { Images } from './resources/images.js';
import { Library } from './resources/library/index.js';
import { Midjourney } from './resources/midjourney.js';
import { Uploads } from './resources/uploads.js';
import { Videos } from './resources/videos.js';
import { Webhooks } from './resources/webhooks/index.js';

// Declared beside the transport's own view of them (`TransportConfig`), which takes its fields from it.
export type { ClientOptions };

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

  /**
   * The rate limiter this client's requests wait on: the one given as `limits`, or the one built
   * from them in this process; `undefined` without `limits`. Clients made by {@link withOptions}
   * share it; give it as another client's `limits` to share one budget with that one too.
   */
  get rateLimiter(): RateLimiter | undefined {
    return this.#options.limits as RateLimiter | undefined;
  }

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
    checkOptions(OBSERVER_OPTIONS, options);
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
