import type { Deadline } from '../core/deadline.js';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  MediaGatewayError,
} from '../core/errors.js';
import type { RawResponse } from './request-spec.js';
import { NotSentError } from './retry-policy.js';

// Connection failures that happen before a request byte can have left this process.
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT']);
const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/** The system or undici code of a failure, looked for down its `cause` chain. */
function errorCode(error: unknown): string | undefined {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && code !== 'UND_ERR_SOCKET') return code;
    e = (e as { cause?: unknown }).cause;
  }
  return (error as { code?: string } | undefined)?.code;
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
 * code, naming `timeout()` ms; else a plain connection error, saying whether an answer was cut off.
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
  const code = errorCode(error);
  if (!answered && code && NOT_SENT_CODES.has(code)) {
    return new NotSentError(`${operation}: could not connect (${code})`, { cause: error });
  }
  if (code && TIMEOUT_CODES.has(code)) {
    return new APIConnectionTimeoutError(`${operation}: no answer within ${timeout()} ms (${code})`, {
      cause: error,
    });
  }
  const detail = answered ? `the answer ${answered.status} was cut off` : `the connection failed`;
  return new APIConnectionError(`${operation}: ${detail}${code ? ` (${code})` : ''}`, { cause: error });
}
