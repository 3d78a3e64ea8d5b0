/**
 * The client's rate limits on the wire: which model and route family a request falls under, a
 * permit taken before each attempt, and a 429's `Retry-After` passed on to the limiter so that
 * every call of the model waits, not only the one that got it.
 */
import {
  APIError,
  APIUserAbortError,
  abortedBy,
  MediaGatewayError,
  messageOf,
  retryAfterOf,
} from '../core/errors.js';
import {
  checkLimits,
  isRateLimiter,
  type LimitedRequest,
  type LimitPermit,
  pauseMs,
  type RateLimiter,
  type RequestLimits,
  type RouteFamily,
} from '../core/limits.js';
import { LocalLimiter } from '../core/local-limiter.js';
import { InvalidOptionError } from '../core/options.js';
import { untilAborted } from '../core/signal-fanout.js';
import type { RequestSpec } from './request-spec.js';

/**
 * The limiter for the client's `limits` option: the one given, or an in-process one built from
 * the limits. `undefined` when no limits are set, so that requests pay nothing for the feature.
 * @throws InvalidOptionError for a number out of range, or a limiter without `pause()`.
 */
export function createLimiter(limits: RequestLimits | RateLimiter | undefined): RateLimiter | undefined {
  if (limits === undefined) return undefined;
  if (!isRateLimiter(limits)) return new LocalLimiter(checkLimits(limits));
  // A 429 calls pause(): a limiter without one would turn every 429 into a TypeError.
  if (typeof limits.pause !== 'function')
    throw new InvalidOptionError('limits.pause', limits.pause, 'a function');
  return limits;
}

/** Billable submissions are creation; `/uploads/*` is upload; every other request is query. */
export function routeFamilyOf(spec: RequestSpec): RouteFamily {
  if (spec.retry === 'billable') return 'creation';
  return spec.path.startsWith('/uploads/') ? 'upload' : 'query';
}

/** The model a request names: the spec's own (multipart), the JSON body's or the query's `model`. */
export function modelOf(spec: RequestSpec): string | undefined {
  const model = spec.model ?? (spec.body as { model?: unknown } | undefined)?.model ?? spec.query?.model;
  return typeof model === 'string' ? model : undefined;
}

/**
 * Wraps one attempt: waits for a permit, sends, releases the permit when the attempt settles.
 * An error while waiting (a queue timeout, an abort) is thrown as it is: nothing was sent.
 * `operation` names the call in the abort's message (`POST /v1/...`).
 *
 * A limiter given by the caller is held to the same contract as the SDK's own: one whose
 * `acquire` throws, resolves no permit, or never settles after the call's signal aborted ends
 * the call before anything is sent, with an SDK error; one whose `release` or `pause` throws is
 * reported through `warn` and changes nothing, since the request was sent by then (an accepted
 * billable submission keeps its task ID).
 */
export function limitedAttempt<A extends unknown[], T>(
  limiter: RateLimiter,
  spec: RequestSpec,
  attempt: (...args: A) => Promise<T>,
  operation = 'The request',
  warn: (message: string) => void = () => {},
): (...args: A) => Promise<T> {
  const request: LimitedRequest = {
    model: modelOf(spec),
    family: routeFamilyOf(spec),
    signal: spec.options?.signal,
  };
  const failed = (method: string, error: unknown) =>
    `the rate limiter's ${method}() threw (${messageOf(error)})`;
  return async (...args) => {
    const permit = await acquire(limiter, request, operation);
    try {
      return await attempt(...args);
    } catch (error) {
      // spec: Errors — a 429 is a rate limit of the key and model: every call of it waits.
      if (error instanceof APIError && error.status === 429) {
        const ms = retryAfterOf(error);
        // At most the longest wait the retry policy honours: a limiter given by the caller gets
        // the same bound as the SDK's own, and one answer cannot hold the model back for days.
        try {
          if (ms !== undefined && ms > 0) limiter.pause(request.model, request.family, pauseMs(ms));
        } catch (pauseError) {
          warn(`${failed('pause', pauseError)}; ${operation} goes on without pausing its model`);
        }
      }
      throw error;
    } finally {
      try {
        permit.release();
      } catch (releaseError) {
        warn(`${failed('release', releaseError)} after ${operation}; the call went on`);
      }
    }
  };
}

/**
 * Takes a permit. The limiter's own failures (a queue timeout) pass through; the signal's
 * abort becomes the SDK's abort error, also when the limiter does not heed the signal; any
 * other failure, and a permit without `release()`, is a MediaGatewayError saying nothing was sent.
 */
async function acquire(
  limiter: RateLimiter,
  request: LimitedRequest,
  operation: string,
): Promise<LimitPermit> {
  const signal = request.signal;
  const notSent = `${operation} was not sent`;
  let pending: Promise<LimitPermit> | undefined;
  try {
    const permit = await untilAborted(() => (pending = Promise.resolve(limiter.acquire(request))), signal);
    if (typeof permit?.release !== 'function') {
      throw new MediaGatewayError(
        `${notSent}: the rate limiter's acquire() resolved ${permit === null ? 'null' : typeof permit}, not a permit with release(); fix the limiter given as \`limits\``,
      );
    }
    return permit;
  } catch (error) {
    // The call gave up (its signal aborted) while the limiter was still granting: a permit it
    // grants after all is given back, or its room (an in-flight slot) would be held for good.
    pending?.then(
      (late) => {
        try {
          late?.release?.();
        } catch {}
      },
      () => undefined,
    );
    // A limiter rejects with the signal's reason; the caller gets the SDK's abort error.
    if (signal?.aborted && error === signal.reason) {
      const message = `${notSent}: it was aborted while it waited for its turn under the client's rate limits, ${abortedBy(error)}.`;
      throw new APIUserAbortError(message, { cause: error });
    }
    if (error instanceof MediaGatewayError) throw error;
    throw new MediaGatewayError(
      `${notSent}: the rate limiter's acquire() failed (${messageOf(error)}); fix the limiter given as \`limits\``,
      { cause: error },
    );
  }
}
