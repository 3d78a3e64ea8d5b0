/**
 * The client's rate limits on the wire: which model and route family a request falls under, a
 * permit taken before each attempt, and a 429's `Retry-After` passed on to the limiter so that
 * every call of the model waits, not only the one that got it.
 */
import { APIError, APIUserAbortError, abortedBy, parseRetryAfter } from '../core/errors.js';
import {
  checkLimits,
  isRateLimiter,
  type LimitedRequest,
  pauseMs,
  type RateLimiter,
  type RequestLimits,
  type RouteFamily,
} from '../core/limits.js';
import { LocalLimiter } from '../core/local-limiter.js';
import type { RequestSpec } from './request-spec.js';

/**
 * The limiter for the client's `limits` option: the one given, or an in-process one built from
 * the limits. `undefined` when no limits are set, so that requests pay nothing for the feature.
 * @throws InvalidOptionError for a number out of range.
 */
export function createLimiter(limits: RequestLimits | RateLimiter | undefined): RateLimiter | undefined {
  if (limits === undefined) return undefined;
  return isRateLimiter(limits) ? limits : new LocalLimiter(checkLimits(limits));
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
 */
export function limitedAttempt<A extends unknown[], T>(
  limiter: RateLimiter,
  spec: RequestSpec,
  attempt: (...args: A) => Promise<T>,
  operation = 'The request',
): (...args: A) => Promise<T> {
  const request: LimitedRequest = {
    model: modelOf(spec),
    family: routeFamilyOf(spec),
    signal: spec.options?.signal,
  };
  return async (...args) => {
    const signal = request.signal;
    const permit = await limiter.acquire(request).catch((error: unknown) => {
      // A limiter rejects with the signal's reason; the caller gets the SDK's abort error.
      if (signal?.aborted && error === signal.reason) {
        const message = `${operation} was not sent: it was aborted while it waited for its turn under the client's rate limits, ${abortedBy(error)}.`;
        throw new APIUserAbortError(message, { cause: error });
      }
      throw error;
    });
    try {
      return await attempt(...args);
    } catch (error) {
      // spec: Errors — a 429 is a rate limit of the key and model: every call of it waits.
      if (error instanceof APIError && error.status === 429) {
        const ms = parseRetryAfter(error.headers['retry-after']);
        // At most the longest wait the retry policy honours: a limiter given by the caller gets
        // the same bound as the SDK's own, and one answer cannot hold the model back for days.
        if (ms !== undefined && ms > 0) limiter.pause(request.model, request.family, pauseMs(ms));
      }
      throw error;
    } finally {
      permit.release();
    }
  };
}
