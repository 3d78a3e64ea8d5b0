import type { Deadline } from '../core/deadline.js';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  describeCause,
  MediaGatewayError,
} from '../core/errors.js';
import type { FetchLike, FetchResponseLike, RawResponse } from './request-spec.js';
import { FetchFailedError, NotSentError } from './retry-policy.js';

// The failure codes (undici's and the system's) the SDK tells apart: read here alone, for the
// transport's errors below and a download's body (media-download.ts) alike.

/** Connection failures that happen before a request byte can have left this process. */
export const NOT_SENT_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** undici's timeouts: no answer's headers in time, or a body that paused longer than allowed. */
export const TIMEOUT_CODES: ReadonlySet<string> = new Set([
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

/** The system or undici code of a failure, looked for down its `cause` chain. */
export function errorCode(error: unknown): string | undefined {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && code !== 'UND_ERR_SOCKET') return code;
    e = (e as { cause?: unknown }).cause;
  }
  return (error as { code?: string } | undefined)?.code;
}

/**
 * What the client's own `fetch` did instead of answering: thrown by {@link checkedFetch}, mapped
 * to {@link FetchFailedError} by {@link connectionError}. `cause` is what the fetch threw.
 */
class FetchFailure extends Error {}

/**
 * The `fetch` the client was given, its failures told apart from the network's: one that throws
 * (at once or through its promise, a thenable whose `then` throws included) or resolves
 * something other than a Response fails with a {@link FetchFailure} saying so. Otherwise the SDK
 * would meet the thrown error, or the `TypeError` of reading `undefined.status`, as a connection
 * that failed, with no word of the fetch.
 */
export function checkedFetch(fetch: FetchLike): FetchLike {
  return async (url, init) => {
    let response: unknown;
    try {
      response = await fetch(url, init);
    } catch (cause) {
      throw new FetchFailure(`the fetch given failed: ${describeCause(cause)}`, { cause });
    }
    let problem: string | undefined;
    try {
      problem = notAResponse(response);
    } catch (cause) {
      problem = `an object that could not be read (${describeCause(cause)})`;
    }
    if (problem !== undefined) {
      throw new FetchFailure(`the fetch given resolved ${problem}, not a Response`);
    }
    return response as FetchResponseLike;
  };
}

/** What is wrong with what a fetch resolved, or `undefined` when it has what the SDK reads. */
function notAResponse(value: unknown): string | undefined {
  if (value === undefined || value === null) return String(value);
  if (typeof value !== 'object') return `a ${typeof value}`;
  const { status, headers, body } = value as Record<string, unknown>;
  if (!Number.isInteger(status)) return 'an object without a whole-number status';
  if (typeof (headers as { forEach?: unknown } | null | undefined)?.forEach !== 'function') {
    return 'an object without headers to read (a Headers, with forEach)';
  }
  const stream = body as { getReader?: unknown; [Symbol.asyncIterator]?: unknown } | null | undefined;
  if (
    stream !== null &&
    typeof stream?.getReader !== 'function' &&
    typeof stream?.[Symbol.asyncIterator] !== 'function'
  ) {
    return 'an object whose body is neither null nor a stream';
  }
  return undefined;
}

/** The `APIError` subclass for a non-2xx answer of `operation`, its body parsed when it is JSON. */
export function apiError(operation: string, response: RawResponse, text: string): APIError {
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // Not JSON: the text itself is the body (spec: Errors — "anything else").
  }
  return APIError.fromResponse({
    status: response.status,
    body,
    headers: response.headers,
    requestId: response.requestId,
    operation,
  });
}

/**
 * The SDK's error for a failure of `operation` while sending or reading: an SDK error as it is;
 * the attempt's own timeout or the caller's abort (`deadline.reason`); {@link NotSentError} when
 * the connection failed before any byte left (never after an answer began); a timeout by undici's
 * code, naming `timeout()` ms; {@link FetchFailedError} naming what the client's `fetch` did;
 * else a plain connection error, saying whether an answer was cut off.
 */
export function connectionError(
  operation: string,
  error: unknown,
  deadline: Deadline,
  answered: RawResponse | undefined,
  timeout: () => number,
): MediaGatewayError {
  if (error instanceof MediaGatewayError) return error;
  const reason = deadline.reason;
  if (reason !== undefined) return reason; // our timeout or the caller's abort
  // A network failure seen through the client's fetch is told as undici's is, by its code.
  const fetchFailure = error instanceof FetchFailure ? error : undefined;
  const failure = fetchFailure ? fetchFailure.cause : error;
  const code = errorCode(failure);
  if (!answered && code && NOT_SENT_CODES.has(code)) {
    return new NotSentError(`${operation}: could not connect (${code})`, { cause: failure });
  }
  if (code && TIMEOUT_CODES.has(code)) {
    return new APIConnectionTimeoutError(`${operation}: no answer within ${timeout()} ms (${code})`, {
      cause: failure,
    });
  }
  if (fetchFailure) {
    const detail = `${fetchFailure.message}${code ? ` (${code})` : ''}`;
    return new FetchFailedError(operation, detail, 'cause' in fetchFailure ? { cause: failure } : undefined);
  }
  const detail = answered ? `the answer ${answered.status} was cut off` : `the connection failed`;
  return new APIConnectionError(`${operation}: ${detail}${code ? ` (${code})` : ''}`, { cause: error });
}
