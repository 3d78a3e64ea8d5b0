import type { Dispatcher } from 'undici';
import { APIPromise } from '../core/api-promise.js';
import { Deadline } from '../core/deadline.js';
import { unreadableRequest } from '../core/errors/validation.js';
import type { APIError } from '../core/errors.js';
import { createRedactor, urlScrubber } from '../core/redact.js';
import { VERSION } from '../version.js';
import { refusedCallOptions } from './call-options.js';
import { apiError, checkedFetch, connectionError } from './error-mapping.js';
import { fetchRequest, runtimeFetch } from './fetch-send.js';
import { followDownloadRedirects } from './follow-redirects.js';
import { jsonBody } from './json-body.js';
import { limitedAttempt } from './limiter.js';
import { type CallTrace, Observer } from './observe.js';
import { describeRequest, requestHeaders } from './outgoing.js';
import {
  DEFAULT_MAX_CONNECTIONS,
  DEFAULT_MAX_RESPONSE_BYTES,
  type FetchLike,
  type JSONAnswer,
  type Logger,
  type OutgoingRequest,
  type RawResponse,
  type RequestSpec,
  type TransportConfig,
} from './request-spec.js';
import { parseJSONObject, readBodyText, withRequestId } from './response-body.js';
import { retryAfterFailure } from './retry.js';
import { forBillable } from './retry-policy.js';
import { writesOnlyToSockets } from './socket-writer.js';
import { defaultDispatcher, loadUndici, undiciIfLoaded, undiciRequest } from './undici.js';
import { buildPath } from './url.js';

/**
 * One attempt of a request with its timeout in ms. It runs under its own {@link Deadline} and
 * reports a billable submission's unknown outcome as such (`forBillable`).
 */
type Attempt<T> = (spec: RequestSpec, timeout: number) => Promise<T>;

/** The body's length as the answer declares it (`Content-Length`), when it does. */
function declaredBytes(response: RawResponse): number | undefined {
  const length = Number(response.headers['content-length']);
  return length >= 0 ? length : undefined;
}

/** A request, or a function that builds one (and may refuse it by throwing). */
type SpecOrBuilder = RequestSpec | (() => RequestSpec | Promise<RequestSpec>);

/**
 * The one HTTP path of the SDK, on undici (or a `fetch`: internal/fetch-send.ts): auth, JSON, timeouts, error mapping and redaction.
 * Resources describe requests; this sends them, and hands a failed attempt to the retry loop
 * (retry.ts), which asks the retry policy (retry-policy.ts) whether and when to try again.
 */
export class Transport {
  /** The base URL's origin: the key is sent only there. */
  declare readonly origin: string;
  /** The base URL's path prefix before `/v1`, usually empty. */
  readonly #basePath: string;
  /** Replaces the API key with a mask anywhere in a value. */
  declare readonly redact: <T>(value: T) => T;
  readonly #userAgent = `mediagw/${VERSION} node/${process.version}`;
  /**
   * `Bearer <key>`, built once rather than for every request. Held in an ES private field:
   * `util.inspect`, even with `showHidden`, never shows it.
   */
  readonly #authorization: string;
  /** Everything else of the configuration: the key is not among it. */
  declare private readonly config: Omit<TransportConfig, 'apiKey'>;
  /** The largest JSON body read, in bytes. */
  readonly #maxResponseBytes: number;
  /** `defaultHeaders` with lower-cased names, as undici sends them and as redirects filter them. */
  readonly #defaultHeaders: Record<string, string> | undefined;
  /** The logger and hooks; `undefined` when nothing is logged and no hook is set, so calls build nothing for them. */
  declare private readonly observer: Observer | undefined;
  /** The client's `fetch`, or the runtime's once undici turned out not to run here; else undici sends. */
  #fetch: FetchLike | undefined;
  /** The client's `dispatcher`, else the SDK's own (`defaultDispatcher`), chosen at the first request. */
  #dispatcher: Dispatcher | undefined;

  constructor({ apiKey, ...config }: TransportConfig) {
    this.#fetch = config.fetch && checkedFetch(config.fetch);
    this.#authorization = `Bearer ${apiKey}`;
    const base = new URL(config.baseURL);
    this.origin = base.origin;
    this.#basePath = base.pathname.replace(/\/+$/, '');
    this.redact = createRedactor(apiKey);
    this.config = config;
    this.#maxResponseBytes = config.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    this.observer = Observer.create(
      config.hooks,
      config.logger,
      config.logLevel ?? (config.logger ? 'debug' : 'off'),
      this.redact,
    );
    if (config.defaultHeaders) {
      this.#defaultHeaders = {};
      for (const [key, value] of Object.entries(config.defaultHeaders))
        this.#defaultHeaders[key.toLowerCase()] = value;
    }
  }

  /** The logger, at the client's level, with every message and field scrubbed of the key. */
  log(level: keyof Logger, message: string, data?: Record<string, unknown>): void {
    this.observer?.log(level, message, data);
  }

  /**
   * Reports a failure that does not change the call (a callback that threw): logged at `warn`
   * when the client logs that level, else emitted as a process warning with `code`, as a
   * failing hook is.
   */
  warn(message: string, code: string): void {
    if (this.observer?.logs.warn) this.log('warn', message);
    else process.emitWarning(this.redact(message), { code });
  }

  /**
   * Sends a request and parses its JSON answer; the request ID is kept on the result, and the
   * answer itself is there through `withResponse()` and `asResponse()`. A function in place of
   * the spec is called first, once, so that a request refused while being built (validation,
   * reading files) rejects the call rather than throwing.
   */
  json<T>(spec: SpecOrBuilder): APIPromise<T> {
    return new APIPromise(this.answer<unknown>(spec), withRequestId as (answer: JSONAnswer<unknown>) => T);
  }

  /**
   * Sends a request and parses its JSON answer, giving the request ID beside the object: for a
   * resource that builds its own result (defining a property on a freshly parsed object costs
   * more than building a small one). Takes a spec or a function that builds one, as {@link json}.
   */
  answer<T>(spec: SpecOrBuilder): Promise<JSONAnswer<T>> {
    if (typeof spec === 'function') {
      // Called at once, inside a catch: a refusal rejects the call (never throws), with no
      // turn spent waiting for a builder that needs none.
      let built: RequestSpec | Promise<RequestSpec>;
      try {
        built = spec();
      } catch (error) {
        return Promise.reject(unreadableRequest(error));
      }
      if (built instanceof Promise) {
        return built.then(this.#answerOf, (error: unknown) => {
          throw unreadableRequest(error);
        }) as Promise<JSONAnswer<T>>;
      }
      spec = built;
    }
    return this.#withRetries(spec, this.#attemptJSON as Attempt<JSONAnswer<T>>);
  }

  // Held once per transport, for specs built by a function.
  readonly #answerOf = (spec: RequestSpec) => this.answer<unknown>(spec);

  // An arrow function held once per transport: the attempt needs no closure per request.
  // The deadline bounds the whole attempt: connect, send, headers and the body's last byte.
  readonly #attemptJSON = async (spec: RequestSpec, timeout: number): Promise<JSONAnswer<unknown>> => {
    const deadline = new Deadline(describeRequest(spec), timeout, spec.options?.signal);
    const trace = spec.trace;
    if (trace) this.observer?.request(trace);
    try {
      const response = await this.#send(spec, undefined, deadline, timeout);
      const text = await this.#readText(spec, response, deadline);
      if (response.status < 200 || response.status >= 300) {
        this.#responded(trace, response, Buffer.byteLength(text));
        throw this.#apiError(spec, response, text);
      }
      const body = parseJSONObject(describeRequest(spec), response, text, this.redact);
      this.#responded(trace, response, Buffer.byteLength(text));
      return {
        body,
        requestId: response.requestId,
        status: response.status,
        headers: response.headers,
        text,
      };
    } catch (error) {
      throw forBillable(spec.retry, describeRequest(spec), error);
    } finally {
      deadline.release();
    }
  };

  /**
   * Sends a GET whose answer is streamed (downloads). Redirects are followed (at most 5, never
   * from https to http). The attempt's deadline covers every hop up to the final answer's
   * headers; the body then streams under undici's `bodyTimeout` (the longest pause between
   * chunks; through a fetch, the same limit in fetch-body.ts) and the caller's signal. `Authorization` is sent only while the URL is on
   * `authOrigin`; the caller's other headers only while it is on the first URL's origin, and a
   * hop to any other origin gets only those `crossOriginHeaders` keeps (redirects.ts).
   */
  async stream(
    spec: RequestSpec & { url?: string | undefined; authOrigin?: string | undefined },
  ): Promise<RawResponse> {
    return this.#withRetries(spec, async (observed, timeout) => {
      const deadline = new Deadline(describeRequest(spec), timeout, spec.options?.signal);
      const trace = observed.trace;
      if (trace) this.observer?.request(trace);
      try {
        const authOrigin = spec.authOrigin ?? this.origin;
        const { answer: response, url } = await followDownloadRedirects(
          describeRequest(spec),
          new URL(spec.url ?? this.origin + buildPath(this.#basePath, spec.path, spec.query)),
          (hop, sameOrigin) =>
            this.#send(observed, hop.href, deadline, timeout, hop.origin === authOrigin, sameOrigin),
        );
        if (response.status < 200 || response.status >= 300) {
          const text = await this.#readText(spec, response, deadline);
          this.#responded(trace, response, Buffer.byteLength(text));
          // Storage may quote the signature it refused (S3's <SignatureProvided>) on its own,
          // with no name the redactor knows: every query value of the link is taken out.
          throw this.#apiError(spec, response, spec.url === undefined ? text : urlScrubber([url])(text));
        }
        this.#responded(trace, response, declaredBytes(response));
        return response;
      } finally {
        deadline.release();
      }
    });
  }

  async #send(
    spec: RequestSpec,
    url: string | undefined,
    deadline: Deadline,
    timeout: number,
    withAuth = true,
    sameOrigin = true,
  ): Promise<RawResponse> {
    // undici, the fast path, unless the client was given a fetch or the runtime has no undici.
    const undici = this.#fetch === undefined ? (undiciIfLoaded() ?? (await loadUndici())) : undefined;
    if (undici && this.#dispatcher === undefined) {
      this.#dispatcher =
        this.config.dispatcher ??
        defaultDispatcher(undici, this.config.maxConnections ?? DEFAULT_MAX_CONNECTIONS, this.config.proxy);
    }
    const dispatcher = undici && this.#dispatcher;
    if (dispatcher === undefined) this.#fetch ??= runtimeFetch(this.config.dispatcher, this.config.proxy);
    // The SDK's own paths are built encoded and need no URL parser; only a full URL (a download
    // link, a redirect) is parsed.
    const path = url === undefined ? buildPath(this.#basePath, spec.path, spec.query) : undefined;
    const target = url ?? this.origin + path;
    let body: string | AsyncIterable<Uint8Array> | undefined;
    let extra: Record<string, string> | undefined;
    if (spec.stream) {
      const reuseChunks =
        undici !== undefined && dispatcher !== undefined && writesOnlyToSockets(undici, dispatcher);
      const built = await spec.stream({ reuseChunks });
      body = built.body;
      extra = built.headers;
    } else if (spec.body !== undefined) {
      body = jsonBody(describeRequest(spec), spec.body);
      extra = { 'content-type': 'application/json' };
    }
    const debug = this.observer?.logs.debug === true;
    if (debug)
      this.log('debug', `→ ${spec.method} ${target}`, {
        method: spec.method,
        path: target,
        attempt: spec.trace?.attempt,
      });
    try {
      let origin = this.origin;
      let targetPath = path;
      if (targetPath === undefined) {
        const parsed = new URL(target);
        origin = parsed.origin;
        targetPath = parsed.pathname + parsed.search;
      }
      const request: OutgoingRequest = {
        origin,
        path: targetPath,
        method: spec.method,
        headers: requestHeaders(spec, {
          userAgent: this.#userAgent,
          defaultHeaders: this.#defaultHeaders,
          extra,
          authorization: withAuth ? this.#authorization : undefined,
          sameOrigin,
        }),
        body,
        timeout,
        deadline,
      };
      const response =
        undici && dispatcher
          ? await undiciRequest(undici, dispatcher, request)
          : await fetchRequest(this.#fetch as FetchLike, request, target, describeRequest(spec));
      if (debug) {
        this.log('debug', `← ${response.status} ${spec.method} ${target}`, {
          method: spec.method,
          path: target,
          status: response.status,
          attempt: spec.trace?.attempt,
          durationMs: spec.trace && Math.round(performance.now() - spec.trace.attemptStart),
          requestId: response.requestId,
          bytes: declaredBytes(response),
        });
      }
      return response;
    } catch (error) {
      throw this.#connectionError(spec, error, deadline);
    }
  }

  /** Tells the observer, when the call is traced, that an attempt's answer was read. */
  #responded(trace: CallTrace | undefined, response: RawResponse, bytes: number | undefined): void {
    if (trace) this.observer?.response(trace, response.status, response.requestId, bytes);
  }

  /** The body as text, within `maxResponseBytes` (response-body.ts); a failure mapped as the send's. */
  async #readText(spec: RequestSpec, response: RawResponse, deadline: Deadline): Promise<string> {
    try {
      return await readBodyText(describeRequest(spec), response, this.#maxResponseBytes);
    } catch (error) {
      throw this.#connectionError(spec, error, deadline, response);
    }
  }

  /** Redacted before the message is cut to length: a cut key would no longer be recognised. */
  #apiError(spec: RequestSpec, response: RawResponse, text: string): APIError {
    return apiError(describeRequest(spec), response, this.redact(text));
  }

  #connectionError(spec: RequestSpec, error: unknown, deadline: Deadline, answered?: RawResponse) {
    return connectionError(
      describeRequest(spec),
      error,
      deadline,
      answered,
      () => spec.options?.timeout ?? this.config.timeout ?? spec.timeout,
    );
  }

  /** Runs `attempt` under the retry policy of the spec's class, with a fresh deadline each time. */
  #withRetries<T>(spec: RequestSpec, attempt: Attempt<T>): Promise<T> {
    let timeout = this.config.timeout ?? spec.timeout;
    const options = spec.options;
    if (options !== undefined) {
      // Checked once, before the first attempt (call-options.ts).
      const refused = refusedCallOptions(describeRequest(spec), options, this.redact);
      if (refused !== undefined) return Promise.reject(refused);
      timeout = options.timeout ?? timeout;
    }
    // Rate limits: each attempt waits for a permit first (internal/limiter.ts); none when unset.
    if (this.config.limiter)
      attempt = limitedAttempt(this.config.limiter, spec, attempt, describeRequest(spec), (message) =>
        this.warn(message, 'MEDIAGW_LIMITER_FAILED'),
      );
    // Every attempt runs under its own Deadline (a timer, and the caller's signal through one
    // shared listener), which is also the signal undici watches: no AbortController per request.
    // The first attempt runs on its own, with nothing built for a retry: most calls succeed at
    // once. Only a failure worth retrying enters the loop.
    // Not `async`, like the methods that return this promise: each async layer costs a request
    // a promise and a turn.
    const observer = this.observer;
    if (observer) {
      const url = (spec as { url?: string | undefined }).url;
      spec = { ...spec, trace: observer.start(spec.method, url ?? `/v1${spec.path}`) };
    }
    return attempt(spec, timeout).catch((error: unknown) => this.#retry(spec, attempt, timeout, error));
  }

  /** After a failed first attempt: retries while the policy allows (internal/retry.ts), else throws. */
  async #retry<T>(spec: RequestSpec, attempt: Attempt<T>, timeout: number, first: unknown): Promise<T> {
    const trace = spec.trace;
    try {
      return await retryAfterFailure(first, {
        // Each retry gets the call's full timeout again: `timeout` is per attempt.
        run: () => attempt(spec, timeout),
        retryClass: spec.retry,
        maxRetries: spec.options?.maxRetries ?? this.config.maxRetries,
        signal: spec.options?.signal,
        operation: describeRequest(spec),
        onRetry: trace && ((error, _retry, delay) => this.observer?.retry(trace, error, delay)),
      });
    } catch (error) {
      const redacted = this.redact(error);
      if (trace) this.observer?.failure(trace, redacted);
      throw redacted;
    }
  }
}
