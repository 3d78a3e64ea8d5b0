/**
 * Client-side rate limits: the option shapes, the limiter contract both the in-process limiter
 * and `mediagw/redis`'s shared one fulfil, and the error a queued request gets when it waited
 * too long. spec: Limits — "Rate limits apply per key and model, and upload and creation
 * endpoints also limit requests per IP."
 */
import { QueueTimeoutError } from './errors/limits.js';
import { checkOptions, count, duration, InvalidOptionError, type OptionTable } from './options.js';

// The class lives with the others under errors/; the limiters throw it.
export { QueueTimeoutError };

/**
 * The longest `Retry-After` the SDK waits for. An answer asking for longer (a daily limit,
 * say) is not retried: the error reaches the caller at once, with the wait it asked for. It is
 * also the longest pause a limiter takes from a 429, so that one answer cannot hold every later
 * call of its model back for days; a limit that lasts longer is met again by the next call.
 */
export const MAX_RETRY_AFTER_MS = 60_000;

/**
 * The pause a limiter takes for `ms` asked: at most {@link MAX_RETRY_AFTER_MS}, and 0 for a
 * value that is not a positive number (`NaN` included). Every limiter's `pause` goes through it.
 */
export function pauseMs(ms: number): number {
  return ms > 0 ? Math.min(ms, MAX_RETRY_AFTER_MS) : 0;
}

/** The kinds of request a limit can be set for: billable submissions, image uploads, everything else. */
export type RouteFamily = 'creation' | 'upload' | 'query';

/** One limit: any of a rate, its burst and a ceiling on requests in flight. */
export interface RateLimit {
  /**
   * Requests started per second, 0.001 or more: a fraction paces a limit under one a second
   * (`0.5` is one every 2 s; 30 a minute), or a little under a limit of 1 or 2 a second.
   */
  requestsPerSecond?: number | undefined;
  /** Requests that may start at once after a quiet spell (a new bucket holds one). @default requestsPerSecond, rounded down, at least 1 */
  burst?: number | undefined;
  /** Requests awaiting their answer at once, a whole number of 1 or more. */
  maxInFlight?: number | undefined;
}

/**
 * The `limits` option of `MediaGateway`: a limit for the whole client (one API key), per model
 * and per route family. A request waits, in arrival order, until every limit it falls under has
 * room. A 429 answered with `Retry-After` pauses that model for every call of the client.
 *
 * @example
 * new MediaGateway({ limits: { maxInFlight: 16, perModel: { '*': { requestsPerSecond: 5 } }, maxQueueWaitMs: 30_000 } });
 */
export interface RequestLimits extends RateLimit {
  /** Limits per model; `'*'` applies to each model not named, one budget per model. */
  perModel?: Readonly<Record<string, RateLimit>> | undefined;
  /** Limits per route family: `creation` (billable submissions), `upload`, `query` (the rest). */
  perRouteFamily?: Readonly<Partial<Record<RouteFamily, RateLimit>>> | undefined;
  /**
   * The longest a request waits for its turn, in milliseconds; past it the call rejects with
   * {@link QueueTimeoutError} and nothing is sent. @default no limit
   */
  maxQueueWaitMs?: number | undefined;
}

/** What a limiter is told of a request. */
export interface LimitedRequest {
  /** The model the request names, when it names one. */
  model: string | undefined;
  /** The request's route family. */
  family: RouteFamily;
  /** The caller's signal: aborts the wait. */
  signal?: AbortSignal | undefined;
}

/** Room for one request; released once its answer's headers arrived or it failed. */
export interface LimitPermit {
  /** Gives the room back. Calling it again does nothing. */
  release(): void;
}

/**
 * Decides when a request may be sent. `MediaGateway` builds one from {@link RequestLimits}; a
 * `RedisRateLimiter` from `mediagw/redis` is one shared by every replica.
 *
 * One of your own is held to the same contract: an `acquire` that throws, rejects with its own
 * error or resolves no permit ends the call with a `MediaGatewayError` before anything is sent,
 * and the call's `signal` ends the wait for a permit even if `acquire` does not heed it; a
 * `release` or `pause` that throws is logged at `warn` (or emitted as a `MEDIAGW_LIMITER_FAILED`
 * process warning) and changes nothing, since the request was sent by then.
 */
export interface RateLimiter {
  /**
   * Resolves once the request may be sent.
   * @throws QueueTimeoutError past `maxQueueWaitMs`; the signal's reason when it aborts (the
   * client reports that as `APIUserAbortError`).
   */
  acquire(request: LimitedRequest): Promise<LimitPermit>;
  /**
   * Holds back every request of `model` (or of `family` when there is none) for `ms`. The client
   * asks for at most 60 s (the longest `Retry-After` it waits for), whatever the 429 said.
   */
  pause(model: string | undefined, family: RouteFamily, ms: number): void;
}

/** The rules of one limit, in the order they are checked. */
const RATE_LIMIT = {
  // From one request every 1,000 s: a slower rate's waits would pass what a timer holds.
  requestsPerSecond: (option: string, rate: number | undefined) => {
    if (rate === undefined || (Number.isFinite(rate) && rate >= 0.001)) return rate;
    throw new InvalidOptionError(option, rate, 'a number of 0.001 or more');
  },
  burst: count(1),
  maxInFlight: count(1),
};

/** A limit's burst: as given, else its rate rounded down, at least 1. */
export function burstOf(limit: RateLimit): number {
  return limit.burst ?? Math.max(1, Math.floor(limit.requestsPerSecond ?? 1));
}

/** `undefined`, or an object whose numbers `table` checks, named `name.<option>`. */
function checkLimit<L extends object>(name: string, limit: L | undefined, table: OptionTable<L>): void {
  if (limit === undefined) return;
  if (typeof limit !== 'object' || limit === null || Array.isArray(limit))
    throw new InvalidOptionError(name, limit, 'an object');
  checkOptions(table, limit, `${name}.`);
}

/** The rules of `limits`: its own limit, the queue wait, then each limit per model and per family. */
const REQUEST_LIMITS: OptionTable<RequestLimits> = {
  ...RATE_LIMIT,
  maxQueueWaitMs: duration(),
  perModel: (option, models) => {
    checkLimit(option, models, {});
    for (const [model, limit] of Object.entries(models ?? {}))
      checkLimit(`${option}.${model}`, limit, RATE_LIMIT);
    return models;
  },
  perRouteFamily: (option, families) => {
    checkLimit(option, families, {});
    for (const [family, limit] of Object.entries(families ?? {})) {
      if (family !== 'creation' && family !== 'upload' && family !== 'query') {
        throw new InvalidOptionError(option, family, `one of creation, upload, query`);
      }
      checkLimit(`${option}.${family}`, limit, RATE_LIMIT);
    }
    return families;
  },
};

/**
 * Checks every number of `limits`, naming the option as written (`limits.perModel.x.burst`).
 * @throws InvalidOptionError for a value that is not a whole number in range.
 */
export function checkLimits(limits: RequestLimits, name = 'limits'): RequestLimits {
  checkLimit(name, limits, REQUEST_LIMITS);
  return limits;
}

/** Whether `value` is a limiter (it has `acquire`) rather than limits to build one from. */
export function isRateLimiter(value: RequestLimits | RateLimiter): value is RateLimiter {
  // `?.`: a `null` (plain JavaScript) is refused by checkLimits as not an object, not a TypeError.
  return typeof (value as RateLimiter | null)?.acquire === 'function';
}

/** The limit a model falls under: its own, else the `'*'` one. */
export function modelLimit(limits: RequestLimits, model: string): RateLimit | undefined {
  return limits.perModel?.[model] ?? limits.perModel?.['*'];
}

/**
 * `limits` divided among `replicas` processes: each number becomes its share (rates may become
 * fractional; a burst or in-flight ceiling is at least 1).
 */
export function shareOf(limits: RequestLimits, replicas: number): RequestLimits {
  const share = (limit: RateLimit | undefined): RateLimit | undefined =>
    limit && {
      requestsPerSecond: limit.requestsPerSecond && limit.requestsPerSecond / replicas,
      // floor(burstOf / n) is floor(burst / n): the floor of a floor divided by a whole number.
      burst: (limit.burst ?? limit.requestsPerSecond) && Math.max(1, Math.floor(burstOf(limit) / replicas)),
      maxInFlight: limit.maxInFlight && Math.max(1, Math.floor(limit.maxInFlight / replicas)),
    };
  const map = <K extends string>(record: Readonly<Partial<Record<K, RateLimit>>> | undefined) =>
    record &&
    (Object.fromEntries(Object.entries(record).map(([k, v]) => [k, share(v as RateLimit)])) as Record<
      K,
      RateLimit
    >);
  return {
    ...share(limits),
    perModel: map(limits.perModel),
    perRouteFamily: map(limits.perRouteFamily),
    maxQueueWaitMs: limits.maxQueueWaitMs,
  };
}
