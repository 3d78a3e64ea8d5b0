import { APIUserAbortError, abortedBy } from '../core/errors/transport.js';
import { sleep } from '../core/sleep.js';
import { isRetryable, type RetryClass, retryDelay } from './retry-policy.js';

/** What {@link retryAfterFailure} needs of a request. */
export interface RetryLoop<T> {
  /** Runs one more attempt. */
  run: () => Promise<T>;
  /** How the request may be retried. */
  retryClass: RetryClass;
  /** Retries allowed; below 1, the first failure is thrown as it is. */
  maxRetries: number;
  /** `METHOD /v1/path`, for the message of an abort during a wait. */
  operation?: string | undefined;
  /** The caller's signal: aborts a wait between attempts. */
  signal?: AbortSignal | undefined;
  /** Told of each retry before its wait: the failure, the retry's number (1-based) and the delay. */
  onRetry?: ((error: Error, retry: number, delay: number) => void) | undefined;
}

let pRetryModule: Promise<typeof import('p-retry')> | undefined;

/**
 * After a failed first attempt: retries with p-retry while {@link isRetryable} allows it, waiting
 * {@link retryDelay} before each retry, and gives the first answer that is not retried (a result
 * or an error). p-retry is imported on the first retry only, so importing the SDK stays cheap.
 *
 * @throws `first` itself when it may not be retried; the last attempt's error when the retries
 * run out or one may not be retried; APIUserAbortError when `signal` aborts a wait (`cause` holds
 * its reason).
 */
export async function retryAfterFailure<T>(first: unknown, loop: RetryLoop<T>): Promise<T> {
  const shouldRetry = async (error: Error, attemptNumber: number): Promise<boolean> => {
    if (!isRetryable(loop.retryClass, error)) return false;
    const delay = retryDelay(attemptNumber, error);
    loop.onRetry?.(error, attemptNumber, delay);
    await sleep(delay, loop.signal).catch((reason: unknown) => {
      throw new APIUserAbortError(
        `${loop.operation ?? 'The request'} was aborted ${abortedBy(reason)}, during the ${delay} ms retry wait before retry ${attemptNumber}.`,
        { cause: reason },
      );
    });
    return true;
  };
  if (loop.maxRetries < 1 || !(first instanceof Error) || !(await shouldRetry(first, 1))) throw first;
  pRetryModule ??= import('p-retry');
  const { default: pRetry } = await pRetryModule;
  return pRetry(loop.run, {
    retries: loop.maxRetries - 1,
    minTimeout: 0,
    shouldRetry: ({ error, attemptNumber }) => shouldRetry(error, attemptNumber + 1),
  });
}
