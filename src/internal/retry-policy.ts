import {
  APIConnectionError,
  APIError,
  InvalidResponseError,
  MediaGatewayError,
  parseRetryAfter,
  ResponseTooLargeError,
} from '../core/errors.js';

/**
 * How a request may be retried.
 * - `safe`: creates nothing (GET, PATCH, DELETE, embeddings): retried on connection errors,
 *   timeouts, unreadable answers, 408, 429 and 5xx.
 * - `billable`: a generation submission: retried only when the gateway provably did not take
 *   it (a 429, or a connection that failed before any byte was sent).
 * - `create`: a management call that creates state (a group, a review batch, an endpoint):
 *   retried on the same narrow triggers as billable, but an unknown outcome is a plain
 *   connection error, since nothing is billed.
 */
export type RetryClass = 'safe' | 'billable' | 'create';

/** Marks a connection error raised before any byte of the request left this process. */
export class NotSentError extends APIConnectionError {}

/** A redirect the SDK will not follow (https to http, or not http at all): asking again gets the same. */
export class RedirectRefusedError extends InvalidResponseError {}

/**
 * The longest `Retry-After` the SDK waits for. An answer asking for longer (a daily limit,
 * say) is not retried: the error reaches the caller at once, with the wait it asked for.
 */
export const MAX_RETRY_AFTER_MS = 60_000;
const INITIAL_DELAY_MS = 500;
const MAX_DELAY_MS = 8_000;

/** Whether `error` may be retried for a request of class `retryClass`. */
export function isRetryable(retryClass: RetryClass, error: unknown): boolean {
  if (!(error instanceof MediaGatewayError)) return false;
  if (error instanceof NotSentError) return true;
  if (error instanceof APIError) {
    const asked = parseRetryAfter(error.headers['retry-after']);
    if (asked !== undefined && asked > MAX_RETRY_AFTER_MS) return false;
    if (error.status === 429) return true;
    if (retryClass !== 'safe') return false; // spec: only a 429 proves a billable submission was not taken
    return error.status === 408 || error.status >= 500;
  }
  if (retryClass !== 'safe') return false;
  // The same request would get the same oversized answer or the same redirect.
  if (error instanceof ResponseTooLargeError || error instanceof RedirectRefusedError) return false;
  return error instanceof APIConnectionError || error instanceof InvalidResponseError;
}

/**
 * The wait before retry number `attempt` (1-based): `Retry-After` when the answer carried one
 * (at most {@link MAX_RETRY_AFTER_MS}; longer ones are not retried), else exponential backoff from 0.5 s up to 8 s with
 * up to 25% jitter below the step.
 */
export function retryDelay(attempt: number, error: unknown, random: () => number = Math.random): number {
  if (error instanceof APIError) {
    const asked = parseRetryAfter(error.headers['retry-after']);
    if (asked !== undefined) return Math.min(asked, MAX_RETRY_AFTER_MS);
  }
  const step = Math.min(INITIAL_DELAY_MS * 2 ** (attempt - 1), MAX_DELAY_MS);
  return Math.round(step * (1 - 0.25 * random()));
}
