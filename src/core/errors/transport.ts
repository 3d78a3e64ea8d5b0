// A request that got no error answer to read: no connection, no answer in time, an abort, an
// unreadable or too large answer, and a submission whose outcome is unknown.
import { brand, MediaGatewayError, nameAsBranded } from '../base-error.js';

/**
 * No answer came back (refused or reset connection, DNS failure, TLS error), and nothing
 * billable can have happened (or the call was not billable). `cause` holds the network error.
 * Calls that are safe to repeat were retried first (up to `maxRetries` times).
 */
export class APIConnectionError extends MediaGatewayError {
  /** `'APIConnectionError'`, or the subclass's name. */
  declare readonly name: string;
  /**
   * @param message - what failed, naming the method and path.
   * @param options - `cause`: the underlying network error.
   */
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/**
 * The attempt's timeout (`timeout` of the client or the call) passed before the answer was
 * complete: it bounds connecting, sending, the headers and the body together (for a download,
 * up to its headers; then the longest pause between chunks). For a billable submission the SDK
 * throws {@link AmbiguousSubmissionError} instead.
 */
export class APIConnectionTimeoutError extends APIConnectionError {
  /** Always `'APIConnectionTimeoutError'`. */
  declare readonly name: 'APIConnectionTimeoutError';
}

/**
 * The caller's `signal` aborted the call or the wait; `cause` is the signal's reason. Never
 * retried. For a billable submission already sent, the SDK throws
 * {@link AmbiguousSubmissionError} with this error as its `cause`.
 */
export class APIUserAbortError extends MediaGatewayError {
  /** Always `'APIUserAbortError'`. */
  declare readonly name: 'APIUserAbortError';
  /**
   * @param message - what was aborted and by whom. @default 'The request was aborted by the caller's signal', with its reason
   * @param options - `cause`: the signal's reason.
   */
  constructor(message?: string, options?: { cause?: unknown }) {
    super(message ?? `The request was aborted ${abortedBy(options?.cause)}.`, options);
  }
}

/**
 * Who aborted and why, from an abort signal's reason, for messages: `by the caller's signal:
 * user left`, or its own `AbortSignal.timeout()` firing, or an `abort()` given no reason.
 */
export function abortedBy(reason: unknown): string {
  const { name, message } = (reason && typeof reason === 'object' ? reason : {}) as {
    name?: unknown;
    message?: unknown;
  };
  if (name === 'TimeoutError') return "by the caller's signal: its AbortSignal.timeout() ran out";
  // What `controller.abort()` gives when called without a reason.
  if (name === 'AbortError' && message === 'This operation was aborted') {
    return "by the caller's signal (abort() was called without a reason)";
  }
  if (reason === undefined) return "by the caller's signal";
  let text: string;
  try {
    text =
      typeof message === 'string'
        ? `${typeof name === 'string' ? `${name}: ` : ''}${message}`
        : String(reason);
  } catch {
    text = Object.prototype.toString.call(reason);
  }
  return `by the caller's signal: ${clip(text)}`;
}

/**
 * A text for a message, cut to its first 200 characters and an ellipsis when longer.
 *
 * @internal
 */
export function clip(text: string): string {
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

/**
 * An answer came back but its body could not be read as the JSON the gateway sends (not JSON,
 * cut short, or missing the fields the operation needs).
 */
export class InvalidResponseError extends MediaGatewayError {
  /** `'InvalidResponseError'`, or the subclass's name. */
  declare readonly name: string;
  /** HTTP status of the unreadable answer. */
  declare readonly status: number;
  /** `X-Service-Request-Id` of the answer, when it had one. */
  declare readonly requestId: string | undefined;
  /**
   * @param message - what could not be read, naming the method and path.
   * @param status - HTTP status of the answer.
   * @param requestId - `X-Service-Request-Id` of the answer.
   * @param options - `cause`: the parse error.
   */
  constructor(message: string, status: number, requestId: string | undefined, options?: { cause?: unknown }) {
    super(message, options);
    this.status = status;
    this.requestId = requestId;
  }
}

/**
 * An answer's body was larger than the client's `maxResponseBytes`: the SDK stopped reading it
 * (a `content-length` over the limit is refused before reading). Not retried: the same request
 * would get the same answer. For a billable submission answered 2xx the SDK throws
 * {@link AmbiguousSubmissionError} with this as `cause`, since the task may exist.
 */
export class ResponseTooLargeError extends InvalidResponseError {
  /** Always `'ResponseTooLargeError'`. */
  declare readonly name: 'ResponseTooLargeError';
  /** The limit in bytes that the answer passed (`maxResponseBytes`). */
  declare readonly limit: number;

  /**
   * @param message - what was refused, naming the method and path.
   * @param status - HTTP status of the answer.
   * @param requestId - `X-Service-Request-Id` of the answer.
   * @param limit - the limit in bytes.
   */
  constructor(message: string, status: number, requestId: string | undefined, limit: number) {
    super(message, status, requestId);
    this.limit = limit;
  }
}

/**
 * A billable submission was sent and its outcome is unknown (timeout, reset, unreadable
 * answer). The SDK never retries it: the task may exist. Look it up (task history, your
 * `client_reference_id`, webhook events) before submitting again, since every accepted
 * submission is a separate billable task.
 */
export class AmbiguousSubmissionError extends MediaGatewayError {
  /** Always `'AmbiguousSubmissionError'`. */
  declare readonly name: 'AmbiguousSubmissionError';
  /** `METHOD /v1/path` of the submission. */
  declare readonly operation: string;
  /**
   * @param operation - `METHOD /v1/path` of the submission.
   * @param reason - why the outcome is unknown, e.g. `timed out after 180000 ms`.
   * @param options - `cause`: the underlying error.
   */
  constructor(operation: string, reason: string, options?: { cause?: unknown }) {
    super(
      `${operation} was sent but its outcome is unknown (${reason}). The task may exist and be billed: ` +
        'check your tasks (or the client_reference_id you sent) before submitting again.',
      options,
    );
    this.operation = operation;
  }
}

brand({
  APIConnectionError,
  APIConnectionTimeoutError,
  APIUserAbortError,
  InvalidResponseError,
  ResponseTooLargeError,
  AmbiguousSubmissionError,
});

// Thrown but not exported: each is thrown as, and prints as, the public class it extends.

/**
 * Marks a connection error raised before any byte of the request left this process.
 *
 * @internal
 */
export class NotSentError extends APIConnectionError {}

/**
 * A connection error of the `fetch` the client was given: it threw or rejected, or resolved
 * something that is not a Response. Whether it sent the request is unknown; `reason` says what
 * it did, for the error a billable call reports in its place.
 *
 * @internal
 */
export class FetchFailedError extends APIConnectionError {
  /** What the fetch did, e.g. `the fetch given failed: TypeError: boom`. */
  declare readonly reason: string;

  constructor(operation: string, reason: string, options?: { cause?: unknown }) {
    super(`${operation}: ${reason}`, options);
    this.reason = reason;
  }
}

/**
 * A redirect the SDK will not follow (https to http, or not http at all): asking again gets the same.
 *
 * @internal
 */
export class RedirectRefusedError extends InvalidResponseError {}

nameAsBranded(NotSentError, FetchFailedError, RedirectRefusedError);
