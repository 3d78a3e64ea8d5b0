import { MediaGatewayError } from './base-error.js';

export { MediaGatewayError };

/** One reason a request was refused before sending: the field path and the rule it breaks. */
export interface ValidationIssue {
  /** Dotted path into the request, e.g. `image_with_roles[1].role`; `''` for the whole request. */
  path: string;
  /** The rule, in words: what was expected and, where it helps, what to do instead. */
  message: string;
}

/**
 * The SDK refused the request before sending it. Nothing reached the gateway: no task was
 * created and nothing was reserved.
 *
 * @example
 * try { await client.videos.create({ model: 'vidmodel-2.0-mini', prompt: 'x', duration: 20 }) }
 * catch (e) { if (e instanceof RequestValidationError) console.log(e.issues) } // [{ path: 'duration', ... }]
 */
export class RequestValidationError extends MediaGatewayError {
  override readonly name = 'RequestValidationError';
  readonly issues: ValidationIssue[];

  constructor(operation: string, issues: ValidationIssue[]) {
    const list = issues.map((i) => `${i.path || '(request)'}: ${i.message}`).join('; ');
    super(`${operation} was not sent: ${list}`);
    this.issues = issues;
  }
}

/** What an {@link APIError} is built from. */
export interface APIErrorInit {
  status: number;
  body: unknown;
  headers: Record<string, string>;
  requestId: string | undefined;
  /** `METHOD /v1/path`, for the message. */
  operation: string;
}

/** The parts of an error body that the spec's three body shapes carry. */
interface ErrorFields {
  code: string | undefined;
  message: string | undefined;
  type: string | undefined;
}

// spec: Errors, Body shapes — `{code, message, data:null}`, `{error:{message,type}}`, or anything else.
function readErrorFields(body: unknown): ErrorFields {
  if (body && typeof body === 'object') {
    const b = body as Record<string, unknown>;
    if (b.error && typeof b.error === 'object') {
      const e = b.error as Record<string, unknown>;
      return {
        code: typeof e.code === 'string' ? e.code : typeof e.type === 'string' ? e.type : undefined,
        message: typeof e.message === 'string' ? e.message : undefined,
        type: typeof e.type === 'string' ? e.type : undefined,
      };
    }
    return {
      code: typeof b.code === 'string' ? b.code : undefined,
      message: typeof b.message === 'string' ? b.message : undefined,
      type: undefined,
    };
  }
  if (typeof body === 'string' && body.trim()) {
    return { code: undefined, message: body.trim().slice(0, 500), type: undefined };
  }
  return { code: undefined, message: undefined, type: undefined };
}

/**
 * The gateway answered with a non-2xx status. Subclasses name the status; `fromResponse`
 * picks the right one.
 */
export class APIError extends MediaGatewayError {
  override readonly name: string = 'APIError';
  /** HTTP status of the answer. */
  readonly status: number;
  /** The error code from the body (`invalid_request`, `nsfw_content_detected`, ...), when it has one. */
  readonly code: string | undefined;
  /** `X-Service-Request-Id` of the answer: quote it to support. */
  readonly requestId: string | undefined;
  /** The answer's headers (lower-cased names); not enumerable, so JSON and inspect output stay short. */
  declare readonly headers: Record<string, string>;
  /** The parsed body (or its text when it was not JSON). */
  readonly body: unknown;

  constructor(init: APIErrorInit, fields: ErrorFields = readErrorFields(init.body)) {
    const detail = fields.message ?? '(no message in the body)';
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

  /** Builds the subclass that fits the status and body. */
  static fromResponse(init: APIErrorInit): APIError {
    const fields = readErrorFields(init.body);
    if (fields.type === 'media_library_error') return new MediaLibraryError(init, fields);
    switch (init.status) {
      case 400:
        return fields.code === 'nsfw_content_detected'
          ? new ContentModerationError(init, fields)
          : new BadRequestError(init, fields);
      case 401:
        return new AuthenticationError(init, fields);
      case 403:
        return new PermissionDeniedError(init, fields);
      case 404:
        return new NotFoundError(init, fields);
      case 409:
        return new ConflictError(init, fields);
      case 410:
        return new MediaExpiredError(init, fields);
      case 413:
        return new PayloadTooLargeError(init, fields);
      case 429:
        return new RateLimitError(init, fields);
      default:
        return init.status >= 500 ? new InternalServerError(init, fields) : new APIError(init, fields);
    }
  }
}

/** 400: the gateway refused the request; no task was created and nothing was reserved. */
export class BadRequestError extends APIError {
  override readonly name: string = 'BadRequestError';
}
/** 401: missing or invalid key, or a download without the task account's key. */
export class AuthenticationError extends APIError {
  override readonly name = 'AuthenticationError';
}
/** 403: the key may not use this model. */
export class PermissionDeniedError extends APIError {
  override readonly name = 'PermissionDeniedError';
}
/** 404: unknown, deleted or another account's resource; or a last frame that is not available. */
export class NotFoundError extends APIError {
  override readonly name = 'NotFoundError';
}
/** 409: material not ready, pending rename or delete, or a non-empty group delete. */
export class ConflictError extends APIError {
  override readonly name = 'ConflictError';
}
/** 410: the media has expired or is no longer available. A replay does not bring it back. */
export class MediaExpiredError extends APIError {
  override readonly name = 'MediaExpiredError';
}
/** 413: the upload is over the gateway's size limit. */
export class PayloadTooLargeError extends APIError {
  override readonly name = 'PayloadTooLargeError';
}
/** 429: a rate or quota limit. The gateway did not take the request. */
export class RateLimitError extends APIError {
  override readonly name = 'RateLimitError';
  /** Milliseconds the gateway asked to wait (`Retry-After`), when it said. */
  get retryAfterMs(): number | undefined {
    return parseRetryAfter(this.headers['retry-after']);
  }
}
/** 5xx: the gateway or an upstream failed. */
export class InternalServerError extends APIError {
  override readonly name = 'InternalServerError';
}

/**
 * 400 with code `nsfw_content_detected` (the request had `nsfw_check: true`): no task, no
 * reservation. `categories` holds the flagged categories named in the message.
 */
export class ContentModerationError extends BadRequestError {
  override readonly name = 'ContentModerationError';
  readonly categories: string[];

  constructor(init: APIErrorInit, fields: ErrorFields) {
    super(init, fields);
    this.categories = parseCategories(fields.message ?? '');
  }
}

function parseCategories(message: string): string[] {
  // The message lists the categories after a colon, separated by commas, "and" or "|".
  const colon = message.indexOf(':');
  const list = colon >= 0 ? message.slice(colon + 1) : message;
  return list
    .split(/,|\band\b|\|/)
    .map((s) =>
      s
        .trim()
        .replace(/^[[\]"'`]+|[[\]"'`.]+$/g, '')
        .trim(),
    )
    .filter((s) => s.length > 0 && s.length < 64);
}

/**
 * A library input error (`error.type` `media_library_error`). `assetIndex` is the zero-based
 * index of the batch item the message names (`assets[<n>]`), when it names one.
 */
export class MediaLibraryError extends APIError {
  override readonly name = 'MediaLibraryError';
  readonly assetIndex: number | undefined;

  constructor(init: APIErrorInit, fields: ErrorFields) {
    super(init, fields);
    const match = /assets\[(\d+)\]/.exec(fields.message ?? '');
    this.assetIndex = match ? Number(match[1]) : undefined;
  }
}

/** No answer came back, and nothing billable can have happened (or the call was not billable). */
export class APIConnectionError extends MediaGatewayError {
  override readonly name: string = 'APIConnectionError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** No answer came back in time. */
export class APIConnectionTimeoutError extends APIConnectionError {
  override readonly name = 'APIConnectionTimeoutError';
}

/** The caller's `signal` aborted the call. */
export class APIUserAbortError extends MediaGatewayError {
  override readonly name = 'APIUserAbortError';
  constructor(message = 'The request was aborted by the caller.', options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** An answer came back but its body could not be read as the JSON the gateway sends. */
export class InvalidResponseError extends MediaGatewayError {
  override readonly name = 'InvalidResponseError';
  readonly status: number;
  readonly requestId: string | undefined;
  constructor(message: string, status: number, requestId: string | undefined, options?: { cause?: unknown }) {
    super(message, options);
    this.status = status;
    this.requestId = requestId;
  }
}

/**
 * A billable submission was sent and its outcome is unknown (timeout, reset, unreadable
 * answer). The SDK never retries it: the task may exist. Look it up (task history, your
 * `client_reference_id`, webhook events) before submitting again, since every accepted
 * submission is a separate billable task.
 */
export class AmbiguousSubmissionError extends MediaGatewayError {
  override readonly name = 'AmbiguousSubmissionError';
  /** `METHOD /v1/path` of the submission. */
  readonly operation: string;
  constructor(operation: string, reason: string, options?: { cause?: unknown }) {
    super(
      `${operation} was sent but its outcome is unknown (${reason}). The task may exist and be billed: ` +
        'check your tasks (or the client_reference_id you sent) before submitting again.',
      options,
    );
    this.operation = operation;
  }
}

/** A waited-for task ended failed. */
export class TaskFailedError extends MediaGatewayError {
  override readonly name = 'TaskFailedError';
  /** The task as last read. */
  readonly task: unknown;
  readonly taskId: string;
  /** The task's error code (`task_failed`, `FormatUnsupported`, `InvalidParameter.TaskTypeMismatch`, ...). */
  readonly code: string | undefined;
  constructor(taskId: string, task: unknown, code: string | undefined, message: string | undefined) {
    super(`Task ${taskId} failed${code ? ` (${code})` : ''}: ${message ?? 'no detail given'}`);
    this.taskId = taskId;
    this.task = task;
    this.code = code;
  }
}

/** The wait's deadline passed. Nothing was resubmitted: keep `taskId` and look again later. */
export class WaitTimeoutError extends MediaGatewayError {
  override readonly name = 'WaitTimeoutError';
  readonly taskId: string;
  /** The task as last read, if any poll answered. */
  readonly lastTask: unknown;
  constructor(taskId: string, timeoutMs: number, lastTask: unknown) {
    super(
      `Task ${taskId} was not finished after ${Math.round(timeoutMs / 1000)} s. It was not resubmitted; ` +
        'keep the task ID and query it again later.',
    );
    this.taskId = taskId;
    this.lastTask = lastTask;
  }
}

/** Parses `Retry-After` (seconds or an HTTP date) into milliseconds from now. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}
