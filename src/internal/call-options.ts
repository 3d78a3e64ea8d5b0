// The checks of a call's own options (`RequestOptions`), made once per call before the first
// attempt.
import { checkOptionsArgument } from '../core/arguments.js';
import { APIUserAbortError, abortedBy } from '../core/errors.js';
import { checkOptions, count, duration } from '../core/options.js';
import type { RequestOptions } from './request-spec.js';

/** The rules of a call's own options (`RequestOptions`, where each is documented). */
const CALL_OPTIONS = { timeout: duration(), maxRetries: count(0) };

/**
 * Why a call's options refuse it, or `undefined` when it may be sent: options that are not an
 * object, a bad `timeout` or `maxRetries` (a `RequestValidationError` naming the option), or a
 * signal already aborted (an `APIUserAbortError` naming `operation`, redacted by `redact`).
 */
export function refusedCallOptions(
  operation: string,
  options: RequestOptions,
  redact: <T>(value: T) => T,
): unknown {
  try {
    // A caller without types may pass anything here: a number or null is named, not read.
    checkOptionsArgument(operation, options);
    checkOptions(CALL_OPTIONS, options);
  } catch (error) {
    return error;
  }
  const signal = options.signal;
  if (signal?.aborted) {
    const message = `${operation} was not sent: it was aborted before it started, ${abortedBy(signal.reason)}.`;
    return redact(new APIUserAbortError(message, { cause: signal.reason }));
  }
  return undefined;
}
