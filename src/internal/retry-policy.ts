import { FetchFailedError, NotSentError } from '../core/errors/transport.js';
import {
  AmbiguousSubmissionError,
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  InvalidResponseError,
  MediaGatewayError,
  ResponseTooLargeError,
  retryAfterOf,
} from '../core/errors.js';
import { MAX_RETRY_AFTER_MS } from '../core/limits.js';
import { RedirectRefusedError } from './redirects.js';

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

// The connection errors the retry policy tells apart, declared with the other errors.
// The longest `Retry-After` the SDK waits for, kept in core/ beside the limiters that pause by it.
export { FetchFailedError, MAX_RETRY_AFTER_MS, NotSentError };

const INITIAL_DELAY_MS = 500;
const MAX_DELAY_MS = 8_000;

/** Whether `error` may be retried for a request of class `retryClass`. */
export function isRetryable(retryClass: RetryClass, error: unknown): boolean {
  if (!(error instanceof MediaGatewayError)) return false;
  if (error instanceof NotSentError) return true;
  if (error instanceof APIError) {
    const asked = retryAfterOf(error);
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
    const asked = retryAfterOf(error);
    if (asked !== undefined) return Math.min(asked, MAX_RETRY_AFTER_MS);
  }
  const step = Math.min(INITIAL_DELAY_MS * 2 ** (attempt - 1), MAX_DELAY_MS);
  return Math.round(step * (1 - 0.25 * random()));
}

/**
 * What a failed attempt reports to the caller. spec: Errors — "A submit timeout is ambiguous:
 * the task may exist". For a `billable` request, anything that went wrong after its bytes left
 * (no answer in time, a reset, an unreadable answer, the caller's abort) becomes an
 * {@link AmbiguousSubmissionError} naming `operation`, which is never retried. A refusal the
 * gateway answered (an `APIError`, or an unreadable non-2xx answer), a failure before sending,
 * and every failure of the other classes are reported as they are.
 */
export function forBillable(retryClass: RetryClass, operation: string, error: unknown): unknown {
  if (retryClass !== 'billable' || error instanceof NotSentError || error instanceof APIError) return error;
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
            : error instanceof FetchFailedError
              ? error.reason
              : 'the connection failed after sending';
    return new AmbiguousSubmissionError(operation, reason, { cause: error });
  }
  return error;
}
