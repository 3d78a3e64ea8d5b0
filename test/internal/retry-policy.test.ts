// Covers: src/internal/retry-policy.ts
import { describe, expect, test } from 'vitest';
import {
  AmbiguousSubmissionError,
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  InvalidResponseError,
  ResponseTooLargeError,
} from '../../src/core/errors.js';
import { RedirectRefusedError } from '../../src/internal/redirects.js';
import {
  FetchFailedError,
  forBillable,
  isRetryable,
  MAX_RETRY_AFTER_MS,
  NotSentError,
  type RetryClass,
  retryDelay,
} from '../../src/internal/retry-policy.js';

const OPERATION = 'POST /v1/videos/generations';

/** An answer of `status`, as the transport maps it, with its `Retry-After` when given. */
const answer = (status: number, retryAfter?: string): APIError =>
  APIError.fromResponse({
    status,
    body: { code: 'x', message: 'x', data: null },
    headers: retryAfter === undefined ? {} : { 'retry-after': retryAfter },
    requestId: 'req_1',
    operation: OPERATION,
  });

/** What goes wrong, by name: answers by status, failures by what the transport raises. */
const failures = {
  'refused before sending': () => new NotSentError(`${OPERATION}: could not connect (ECONNREFUSED)`),
  'no answer in time': () => new APIConnectionTimeoutError(`${OPERATION}: no answer within 10 ms`),
  'reset after sending': () => new APIConnectionError(`${OPERATION}: the connection failed (ECONNRESET)`),
  'the fetch given threw': () =>
    new FetchFailedError(OPERATION, 'the fetch given failed: TypeError: boom', {
      cause: new TypeError('boom'),
    }),
  'a 2xx that is not JSON': () => new InvalidResponseError(`${OPERATION}: not JSON`, 200, 'req_1'),
  'a 502 cut off mid-body': () => new InvalidResponseError(`${OPERATION}: cut off`, 502, 'req_1'),
  'a 2xx over maxResponseBytes': () => new ResponseTooLargeError(`${OPERATION}: too large`, 200, 'req_1', 10),
  'a refused redirect': () => new RedirectRefusedError(`${OPERATION}: refused a redirect`, 302, 'req_1'),
  'the caller aborted': () => new APIUserAbortError(undefined, { cause: 'stop' }),
  '400': () => answer(400),
  '408': () => answer(408),
  '409': () => answer(409),
  '429': () => answer(429),
  '429, Retry-After 2': () => answer(429, '2'),
  '429, Retry-After 3600': () => answer(429, '3600'),
  '500': () => answer(500),
  '503, Retry-After 1': () => answer(503, '1'),
  'not an SDK error': () => new TypeError('x'),
} satisfies Record<string, () => unknown>;

type Failure = keyof typeof failures;

// What reaches the caller for each class: R retried, A reported as an ambiguous submission,
// - neither (thrown as it is). spec: Retries — GET, PATCH and DELETE are retried on connection
// errors, 408, 429 and 5xx; a billable submission only where the gateway provably did not take it.
const table: Array<[Failure, safe: string, billable: string, create: string]> = [
  ['refused before sending', 'R', 'R', 'R'],
  ['no answer in time', 'R', 'A', '-'],
  ['reset after sending', 'R', 'A', '-'],
  // Whether the client's fetch sent anything is unknown: retried only where that is safe.
  ['the fetch given threw', 'R', 'A', '-'],
  ['a 2xx that is not JSON', 'R', 'A', '-'],
  ['a 502 cut off mid-body', 'R', '-', '-'],
  ['a 2xx over maxResponseBytes', '-', 'A', '-'],
  ['a refused redirect', '-', '-', '-'],
  ['the caller aborted', '-', 'A', '-'],
  ['400', '-', '-', '-'],
  ['408', 'R', '-', '-'],
  ['409', '-', '-', '-'],
  ['429', 'R', 'R', 'R'],
  ['429, Retry-After 2', 'R', 'R', 'R'],
  ['429, Retry-After 3600', '-', '-', '-'],
  ['500', 'R', '-', '-'],
  ['503, Retry-After 1', 'R', '-', '-'],
  ['not an SDK error', '-', '-', '-'],
];
const rows = table.flatMap(([failure, ...outcomes]) =>
  (['safe', 'billable', 'create'] as const).map(
    (retryClass, i) => [retryClass, failure, outcomes[i]] as [RetryClass, Failure, string],
  ),
);

describe('which failures are retried, and which are ambiguous', () => {
  test.each(rows)('%s request, %s: %s', (retryClass, failure, outcome) => {
    const error = failures[failure]();
    expect(isRetryable(retryClass, error)).toBe(outcome === 'R');
    const reported = forBillable(retryClass, OPERATION, error);
    if (outcome === 'A') {
      expect(reported).toBeInstanceOf(AmbiguousSubmissionError);
      expect((reported as Error).cause).toBe(error);
      expect((reported as Error).message).toContain(OPERATION);
    } else {
      expect(reported).toBe(error);
    }
  });

  test.each([
    ['no answer in time', 'no answer in time'],
    ['reset after sending', 'the connection failed after sending'],
    ['the fetch given threw', '(the fetch given failed: TypeError: boom)'],
    ['a 2xx that is not JSON', 'the answer could not be read'],
    ['the caller aborted', 'aborted by the caller after sending'],
  ] as Array<[Failure, string]>)('an ambiguous submission after %s says %j', (failure, reason) => {
    const reported = forBillable('billable', OPERATION, failures[failure]()) as Error;
    expect(reported.message).toContain(reason);
  });
});

describe('the wait before a retry', () => {
  test.each([
    // [failure, retry number, random, delay in ms]
    ['500', 1, 0, 500],
    ['500', 2, 0, 1_000],
    ['500', 3, 0, 2_000],
    ['500', 3, 1, 1_500],
    ['500', 5, 0, 8_000],
    ['500', 10, 0, 8_000],
    ['500', 10, 1, 6_000],
    ['refused before sending', 1, 0.5, 438],
    ['429', 2, 0, 1_000],
    ['429, Retry-After 2', 1, 1, 2_000],
    ['429, Retry-After 2', 4, 0, 2_000],
    ['503, Retry-After 1', 3, 0, 1_000],
    ['429, Retry-After 3600', 1, 0, MAX_RETRY_AFTER_MS],
  ] as Array<[Failure, number, number, number]>)(
    '%s, retry %i, jitter %d: %i ms',
    (failure, retry, random, delay) => {
      expect(retryDelay(retry, failures[failure](), () => random)).toBe(delay);
    },
  );

  test('a Retry-After up to the maximum is waited for in full, a longer one is not retried', () => {
    const atMost = answer(429, String(MAX_RETRY_AFTER_MS / 1000));
    expect(isRetryable('safe', atMost)).toBe(true);
    expect(retryDelay(1, atMost)).toBe(MAX_RETRY_AFTER_MS);
    expect(isRetryable('safe', answer(429, String(MAX_RETRY_AFTER_MS / 1000 + 1)))).toBe(false);
  });
});
