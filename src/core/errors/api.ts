// Error answers of the gateway: APIError, a class per status, and the mapping that picks one.
import { brand, MediaGatewayError } from '../base-error.js';
import { type ErrorFields, parseCategories, parseRetryAfter, readErrorFields } from './api-fields.js';

/** What an {@link APIError} is built from. */
export interface APIErrorInit {
  /** HTTP status of the answer. */
  status: number;
  /** The parsed JSON body, or its text when it was not JSON. */
  body: unknown;
  /** The answer's headers, names lower-cased. */
  headers: Record<string, string>;
  /** `X-Service-Request-Id` of the answer, when it had one. */
  requestId: string | undefined;
  /** `METHOD /v1/path`, for the message. */
  operation: string;
}

/**
 * The gateway answered with a non-2xx status. Subclasses name the status; `fromResponse`
 * picks the right one. The message reads `METHOD /v1/path failed with <status> <code>: <message>
 * [request <id>]`.
 *
 * @example
 * try {
 *   await client.library.assets.retrieve('asset_missing');
 * } catch (error) {
 *   if (error instanceof NotFoundError) console.log(error.status, error.code, error.requestId);
 *   else throw error;
 * }
 */
export class APIError extends MediaGatewayError {
  /** The class name, e.g. `'APIError'` or `'NotFoundError'`. */
  declare readonly name: string;
  /** HTTP status of the answer. */
  declare readonly status: number;
  /** The error code from the body (`invalid_request`, `nsfw_content_detected`, ...), when it has one. */
  declare readonly code: string | undefined;
  /** `X-Service-Request-Id` of the answer: quote it to support. */
  declare readonly requestId: string | undefined;
  /** The answer's headers (lower-cased names); not enumerable, so JSON and inspect output stay short. */
  declare readonly headers: Record<string, string>;
  /** The parsed body (or its text when it was not JSON). */
  declare readonly body: unknown;

  /**
   * Prefer {@link APIError.fromResponse}, which picks the subclass.
   *
   * @param init - the answer.
   * @param fields - the code, message and type of the body; read from `init.body` when omitted.
   */
  constructor(init: APIErrorInit, fields: ErrorFields = readErrorFields(init.body)) {
    // A hostile or broken gateway may send megabytes of message: the error's message stays
    // readable, and `body` keeps all of it.
    const message = fields.message ?? '(no message in the body)';
    const detail =
      message.length > 500 ? `${message.slice(0, 500)}... (${message.length} characters)` : message;
    const id = init.requestId ? ` [request ${init.requestId}]` : '';
    super(
      `${init.operation} failed with ${init.status}${fields.code ? ` ${fields.code}` : ''}: ${detail}${id}`,
    );
    this.status = init.status;
    this.code = fields.code;
    this.requestId = init.requestId;
    this.body = init.body;
    Object.defineProperty(this, 'headers', { value: init.headers, enumerable: false });
  }

  /**
   * Builds the subclass that fits the status and body: `error.type` `media_library_error` gives
   * {@link MediaLibraryError}; 400 with code `nsfw_content_detected` gives
   * {@link ContentModerationError}; then 400, 401, 403, 404, 409, 410, 413, 429 and 5xx each
   * map to their class, and any other status to a plain `APIError`.
   *
   * @example
   * const error = APIError.fromResponse({
   *   status: 404, body: { code: 'not_found', message: 'no such task', data: null },
   *   headers: {}, requestId: 'req_1', operation: 'GET /v1/videos/task_1',
   * }); // a NotFoundError
   */
  static fromResponse(init: APIErrorInit): APIError {
    const fields = readErrorFields(init.body);
    const error = statusErrorFor(init, fields);
    // A library error keeps its status class as well: spec: Errors — unknown material 404, not
    // ready 409, input error 400, all with the library body.
    return fields.type === 'media_library_error' ? asLibraryError(error, fields) : error;
  }
}

/** 400: the gateway refused the request; no task was created and nothing was reserved. */
export class BadRequestError extends APIError {
  /** `'BadRequestError'`, or the subclass's name. */
  declare readonly name: string;
}
/** 401: missing or invalid key, or a download without the task account's key. */
export class AuthenticationError extends APIError {
  /** Always `'AuthenticationError'`. */
  declare readonly name: 'AuthenticationError';
}
/** 403: the key may not use this model. */
export class PermissionDeniedError extends APIError {
  /** Always `'PermissionDeniedError'`. */
  declare readonly name: 'PermissionDeniedError';
}
/** 404: unknown, deleted or another account's resource; or a last frame that is not available. */
export class NotFoundError extends APIError {
  /** Always `'NotFoundError'`. */
  declare readonly name: 'NotFoundError';
}
/** 409: material not ready, pending rename or delete, or a non-empty group delete. */
export class ConflictError extends APIError {
  /** Always `'ConflictError'`. */
  declare readonly name: 'ConflictError';
}
/** 410: the media has expired or is no longer available. A replay does not bring it back. */
export class MediaExpiredError extends APIError {
  /** Always `'MediaExpiredError'`. */
  declare readonly name: 'MediaExpiredError';
}
/** 413: the upload is over the gateway's size limit. */
export class PayloadTooLargeError extends APIError {
  /** Always `'PayloadTooLargeError'`. */
  declare readonly name: 'PayloadTooLargeError';
}
/** 429: a rate or quota limit. The gateway did not take the request. */
export class RateLimitError extends APIError {
  /** Always `'RateLimitError'`. */
  declare readonly name: 'RateLimitError';
  /**
   * Milliseconds the gateway asked to wait (`Retry-After`), when it said. A date is counted from
   * the answer's `Date` header when it has one, so that this clock's skew does not count.
   */
  get retryAfterMs(): number | undefined {
    return retryAfterOf(this);
  }
}
/** 5xx: the gateway or an upstream failed. */
export class InternalServerError extends APIError {
  /** Always `'InternalServerError'`. */
  declare readonly name: 'InternalServerError';
}

/**
 * 400 with code `nsfw_content_detected` (the request had `nsfw_check: true`): no task, no
 * reservation. `categories` holds the flagged categories named in the message.
 */
export class ContentModerationError extends BadRequestError {
  /** Always `'ContentModerationError'`. */
  declare readonly name: 'ContentModerationError';
  /** The flagged categories named in the message, e.g. `['violence', 'hate']`; empty when it names none. */
  declare readonly categories: string[];

  /** Built by {@link APIError.fromResponse}. */
  constructor(init: APIErrorInit, fields: ErrorFields) {
    super(init, fields);
    this.categories = parseCategories(fields.message ?? '');
  }
}

// Set on library errors, whatever class their status gives them.
const LIBRARY = Symbol.for('mediagw.media-library-error');

/**
 * A library error (`error.type` `media_library_error`). `assetIndex` is the zero-based index of
 * the batch item the message names (`assets[<n>]`), when it names one.
 *
 * A library error is also the class of its status: a 404 one is a {@link NotFoundError}, a 409
 * one a {@link ConflictError}, a 400 one a {@link BadRequestError}, so a handler of either kind
 * catches it. `instanceof MediaLibraryError` holds for all of them.
 *
 * @example
 * catch (e) { if (e instanceof MediaLibraryError && e.assetIndex !== undefined) retryWithout(e.assetIndex) }
 */
export class MediaLibraryError extends APIError {
  /** True for every library error, whichever status class it was built as. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    // A subclass keeps the ordinary prototype check (see MediaGatewayError for why the class is
    // not named here).
    try {
      // biome-ignore lint/complexity/noThisInStatic: see above.
      return Object.hasOwn(this.prototype, LIBRARY)
        ? (value as Record<symbol, unknown> | null)?.[LIBRARY] === true
        : // biome-ignore lint/complexity/noThisInStatic: see above.
          Function.prototype[Symbol.hasInstance].call(this, value);
    } catch {
      // A Proxy whose trap throws, or a revoked one: no library error.
      return false;
    }
  }

  /** @internal The brand behind `instanceof`. */
  get [LIBRARY](): true {
    return true;
  }

  /** Always `'MediaLibraryError'`. */
  declare readonly name: string;
  /** Zero-based index of the batch item the message names (`assets[<n>]`), when it names one. */
  declare readonly assetIndex: number | undefined;

  /** Built by {@link APIError.fromResponse}. */
  constructor(init: APIErrorInit, fields: ErrorFields) {
    super(init, fields);
    this.assetIndex = libraryAssetIndex(fields);
  }
}

brand({
  APIError,
  BadRequestError,
  AuthenticationError,
  PermissionDeniedError,
  NotFoundError,
  ConflictError,
  MediaExpiredError,
  PayloadTooLargeError,
  RateLimitError,
  InternalServerError,
  ContentModerationError,
  MediaLibraryError,
});

function libraryAssetIndex(fields: ErrorFields): number | undefined {
  const match = /assets\[(\d+)\]/.exec(fields.message ?? '');
  return match ? Number(match[1]) : undefined;
}

/** Gives an error of a status class the library error's brand, name and `assetIndex`. */
function asLibraryError(error: APIError, fields: ErrorFields): APIError {
  Object.defineProperty(error, LIBRARY, { value: true });
  Object.defineProperty(error, 'name', { value: 'MediaLibraryError', enumerable: true });
  Object.defineProperty(error, 'assetIndex', { value: libraryAssetIndex(fields), enumerable: true });
  return error;
}

// The class of each status that has its own; any other 5xx is an InternalServerError.
const STATUS_ERRORS: Record<number, typeof APIError> = {
  400: BadRequestError,
  401: AuthenticationError,
  403: PermissionDeniedError,
  404: NotFoundError,
  409: ConflictError,
  410: MediaExpiredError,
  413: PayloadTooLargeError,
  429: RateLimitError,
};

function statusErrorFor(init: APIErrorInit, fields: ErrorFields): APIError {
  const type =
    init.status === 400 && fields.code === 'nsfw_content_detected'
      ? ContentModerationError
      : (STATUS_ERRORS[init.status] ?? (init.status >= 500 ? InternalServerError : APIError));
  return new type(init, fields);
}

/**
 * The wait an answer's `Retry-After` asks for, in ms: see {@link parseRetryAfter}; a date is
 * counted from the answer's `Date`. `undefined` when it has none or it is unreadable.
 *
 * @internal
 */
export function retryAfterOf(error: { readonly headers: Record<string, string> }): number | undefined {
  return parseRetryAfter(error.headers['retry-after'], Date.now(), error.headers.date);
}
