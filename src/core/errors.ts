import { MediaGatewayError } from './base-error.js';
import type { SubmissionEnvelope, TaskByKind, TaskKind } from './task-types.js';

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
  /** Always `'RequestValidationError'`. */
  override readonly name = 'RequestValidationError';
  /** Every rule the request breaks, one issue per field path, in the order found. */
  readonly issues: ValidationIssue[];

  /**
   * @param operation - what was refused, e.g. `videos.create`; starts the message.
   * @param issues - the rules broken; listed in the message as `path: rule`.
   */
  constructor(operation: string, issues: ValidationIssue[]) {
    const list = issues.map((i) => `${i.path || '(request)'}: ${i.message}`).join('; ');
    super(`${operation} was not sent: ${list}`);
    this.issues = issues;
  }
}

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
 * The parts of an error body that the spec's three body shapes carry.
 *
 * @inline
 */
export interface ErrorFields {
  /** `code`, or `error.code` (falling back to `error.type`) of a wrapped body. */
  code: string | undefined;
  /** `message` or `error.message`; the text itself for a non-JSON body. */
  message: string | undefined;
  /** `error.type` of a wrapped body, e.g. `media_library_error`. */
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
    // Built outside the class: a class that names itself in its body is built as
    // `class _APIError`, and its `name` would be that.
    return apiErrorFor(init);
  }
}

/** 400: the gateway refused the request; no task was created and nothing was reserved. */
export class BadRequestError extends APIError {
  /** `'BadRequestError'`, or the subclass's name. */
  override readonly name: string = 'BadRequestError';
}
/** 401: missing or invalid key, or a download without the task account's key. */
export class AuthenticationError extends APIError {
  /** Always `'AuthenticationError'`. */
  override readonly name = 'AuthenticationError';
}
/** 403: the key may not use this model. */
export class PermissionDeniedError extends APIError {
  /** Always `'PermissionDeniedError'`. */
  override readonly name = 'PermissionDeniedError';
}
/** 404: unknown, deleted or another account's resource; or a last frame that is not available. */
export class NotFoundError extends APIError {
  /** Always `'NotFoundError'`. */
  override readonly name = 'NotFoundError';
}
/** 409: material not ready, pending rename or delete, or a non-empty group delete. */
export class ConflictError extends APIError {
  /** Always `'ConflictError'`. */
  override readonly name = 'ConflictError';
}
/** 410: the media has expired or is no longer available. A replay does not bring it back. */
export class MediaExpiredError extends APIError {
  /** Always `'MediaExpiredError'`. */
  override readonly name = 'MediaExpiredError';
}
/** 413: the upload is over the gateway's size limit. */
export class PayloadTooLargeError extends APIError {
  /** Always `'PayloadTooLargeError'`. */
  override readonly name = 'PayloadTooLargeError';
}
/** 429: a rate or quota limit. The gateway did not take the request. */
export class RateLimitError extends APIError {
  /** Always `'RateLimitError'`. */
  override readonly name = 'RateLimitError';
  /** Milliseconds the gateway asked to wait (`Retry-After`), when it said. */
  get retryAfterMs(): number | undefined {
    return parseRetryAfter(this.headers['retry-after']);
  }
}
/** 5xx: the gateway or an upstream failed. */
export class InternalServerError extends APIError {
  /** Always `'InternalServerError'`. */
  override readonly name = 'InternalServerError';
}

/**
 * 400 with code `nsfw_content_detected` (the request had `nsfw_check: true`): no task, no
 * reservation. `categories` holds the flagged categories named in the message.
 */
export class ContentModerationError extends BadRequestError {
  /** Always `'ContentModerationError'`. */
  override readonly name = 'ContentModerationError';
  /** The flagged categories named in the message, e.g. `['violence', 'hate']`; empty when it names none. */
  readonly categories: string[];

  /** Built by {@link APIError.fromResponse}. */
  constructor(init: APIErrorInit, fields: ErrorFields) {
    super(init, fields);
    this.categories = parseCategories(fields.message ?? '');
  }
}

/** Characters of a moderation message read for its categories; the list comes first in it. */
const CATEGORY_SCAN_LIMIT = 4096;
/** Categories kept from one message; a longer list is cut here. */
const CATEGORY_LIMIT = 64;

// One pass per character, no regular expression: a trimming pattern anchored at the end of
// the text (`[...]+$`) is retried from every position of a long run of dots, and a 100 KB
// message took seconds to parse.
function parseCategories(message: string): string[] {
  // spec: Errors — the message is text listing the flagged categories; only its start is read,
  // so a hostile body costs at most CATEGORY_SCAN_LIMIT characters of work here.
  const text = message.length > CATEGORY_SCAN_LIMIT ? message.slice(0, CATEGORY_SCAN_LIMIT) : message;
  // The categories follow a colon, separated by commas, "and" or "|".
  const colon = text.indexOf(':');
  const list = colon >= 0 ? text.slice(colon + 1) : text;
  const categories: string[] = [];
  for (const part of list.split(/,|\band\b|\|/)) {
    const category = trimCategory(part);
    if (category.length > 0 && category.length < 64) categories.push(category);
    if (categories.length === CATEGORY_LIMIT) break;
  }
  return categories;
}

const isSpace = (c: string) => c.trim() === '';
// Quotes and brackets around a category, and a sentence's closing dot after the last one.
const isLeading = (c: string) => '[]"\'`'.includes(c) || isSpace(c);
const isTrailing = (c: string) => '[]"\'`.'.includes(c) || isSpace(c);

/** `part` without the spaces, quotes, brackets (and trailing dots) around it. */
function trimCategory(part: string): string {
  let start = 0;
  let end = part.length;
  while (start < end && isLeading(part.charAt(start))) start++;
  while (end > start && isTrailing(part.charAt(end - 1))) end--;
  return part.slice(start, end);
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
    // biome-ignore lint/complexity/noThisInStatic: see above.
    return Object.hasOwn(this.prototype, LIBRARY)
      ? (value as Record<symbol, unknown> | null)?.[LIBRARY] === true
      : // biome-ignore lint/complexity/noThisInStatic: see above.
        Function.prototype[Symbol.hasInstance].call(this, value);
  }

  /** @internal The brand behind `instanceof`. */
  get [LIBRARY](): true {
    return true;
  }

  /** Always `'MediaLibraryError'`. */
  override readonly name: string = 'MediaLibraryError';
  /** Zero-based index of the batch item the message names (`assets[<n>]`), when it names one. */
  readonly assetIndex: number | undefined;

  /** Built by {@link APIError.fromResponse}. */
  constructor(init: APIErrorInit, fields: ErrorFields) {
    super(init, fields);
    this.assetIndex = libraryAssetIndex(fields);
  }
}

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

/**
 * No answer came back (refused or reset connection, DNS failure, TLS error), and nothing
 * billable can have happened (or the call was not billable). `cause` holds the network error.
 * Calls that are safe to repeat were retried first (up to `maxRetries` times).
 */
export class APIConnectionError extends MediaGatewayError {
  /** `'APIConnectionError'`, or the subclass's name. */
  override readonly name: string = 'APIConnectionError';
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
  override readonly name = 'APIConnectionTimeoutError';
}

/**
 * The caller's `signal` aborted the call or the wait; `cause` is the signal's reason. Never
 * retried. For a billable submission already sent, the SDK throws
 * {@link AmbiguousSubmissionError} with this error as its `cause`.
 */
export class APIUserAbortError extends MediaGatewayError {
  /** Always `'APIUserAbortError'`. */
  override readonly name = 'APIUserAbortError';
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
  return `by the caller's signal: ${text.length > 200 ? `${text.slice(0, 200)}…` : text}`;
}

/**
 * An answer came back but its body could not be read as the JSON the gateway sends (not JSON,
 * cut short, or missing the fields the operation needs).
 */
export class InvalidResponseError extends MediaGatewayError {
  /** `'InvalidResponseError'`, or the subclass's name. */
  override readonly name: string = 'InvalidResponseError';
  /** HTTP status of the unreadable answer. */
  readonly status: number;
  /** `X-Service-Request-Id` of the answer, when it had one. */
  readonly requestId: string | undefined;
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
  override readonly name = 'ResponseTooLargeError';
  /** The limit in bytes that the answer passed (`maxResponseBytes`). */
  readonly limit: number;

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
  override readonly name = 'AmbiguousSubmissionError';
  /** `METHOD /v1/path` of the submission. */
  readonly operation: string;
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

/**
 * A waited-for task ended failed (thrown by `waitForTask` and `createAndWait`); `task` holds
 * it as last read. For a video task the gateway refunds the reservation. Submitting again makes
 * a new, separately billed task.
 *
 * Generic over the {@link TaskKind}: `kind` says which wait threw it, and checking it narrows
 * `task` to that kind's type (`VideoTask` for `'video'`, `ImageTask`, `ReviewTask`).
 *
 * @example
 * try { await client.videos.createAndWait(params) }
 * catch (e) {
 *   if (e instanceof TaskFailedError && e.kind === 'video') console.log(e.code, e.task.error?.message);
 * }
 */
export class TaskFailedError<K extends TaskKind = TaskKind> extends MediaGatewayError {
  /** Always `'TaskFailedError'`. */
  override readonly name = 'TaskFailedError';
  /** Which kind of task failed: `'video'`, `'image'` or `'review'`; checking it narrows `task`. */
  readonly kind: K;
  /** The task as last read. */
  readonly task: TaskByKind[K];
  /** The public task ID. */
  readonly taskId: string;
  /** The task's error code (`task_failed`, `FormatUnsupported`, `InvalidParameter.TaskTypeMismatch`, ...). */
  readonly code: string | undefined;
  /**
   * @param taskId - the public task ID.
   * @param task - the task as last read.
   * @param code - the task's error code.
   * @param message - the task's error message; `no detail given` when absent.
   * @param kind - which kind of task it is.
   */
  constructor(
    taskId: string,
    task: TaskByKind[K],
    code: string | undefined,
    message: string | undefined,
    kind: K,
  ) {
    super(`Task ${taskId} failed${code ? ` (${code})` : ''}: ${message ?? 'no detail given'}`);
    this.taskId = taskId;
    this.kind = kind;
    this.task = task;
    this.code = code;
  }

  /** `instanceof` narrows to one error per kind, so that checking `kind` narrows `task`. */
  static override [Symbol.hasInstance](
    value: unknown,
  ): value is { [Kind in TaskKind]: TaskFailedError<Kind> }[TaskKind] {
    // biome-ignore lint/complexity/noThisInStatic: `super` keeps this class as `this`, so the check stays the prototype check (see MediaGatewayError).
    return super[Symbol.hasInstance](value);
  }
}

/**
 * The wait's deadline (`timeout`, 10 minutes by default) passed before the task ended. Nothing
 * was resubmitted: keep `taskId` and query it again later; the task may still succeed and bill.
 * Generic over the {@link TaskKind} like {@link TaskFailedError}: checking `kind` narrows `lastTask`.
 *
 * @example
 * catch (e) {
 *   if (e instanceof WaitTimeoutError && e.kind === 'video') console.log(e.taskId, e.lastTask?.progress);
 * }
 */
export class WaitTimeoutError<K extends TaskKind = TaskKind> extends MediaGatewayError {
  /** Always `'WaitTimeoutError'`. */
  override readonly name = 'WaitTimeoutError';
  /** Which kind of task was waited for: `'video'`, `'image'` or `'review'`; checking it narrows `lastTask`. */
  readonly kind: K;
  /** The public task ID, to query again later. */
  readonly taskId: string;
  /** The task as last read, if any poll answered. */
  readonly lastTask: TaskByKind[K] | undefined;
  /**
   * @param taskId - the public task ID.
   * @param timeoutMs - the deadline that passed, for the message.
   * @param lastTask - the task as last read, if any poll answered.
   * @param kind - which kind of task was waited for.
   */
  constructor(taskId: string, timeoutMs: number, lastTask: TaskByKind[K] | undefined, kind: K) {
    // Whole seconds read best, but a deadline of 1500 ms must not be reported as "2 s".
    const after = timeoutMs % 1000 === 0 ? `${timeoutMs / 1000} s` : `${timeoutMs} ms`;
    super(
      `Task ${taskId} was not finished after ${after}. It was not resubmitted; ` +
        'keep the task ID and query it again later.',
    );
    this.taskId = taskId;
    this.kind = kind;
    this.lastTask = lastTask;
  }

  /** `instanceof` narrows to one error per kind, so that checking `kind` narrows `lastTask`. */
  static override [Symbol.hasInstance](
    value: unknown,
  ): value is { [Kind in TaskKind]: WaitTimeoutError<Kind> }[TaskKind] {
    // biome-ignore lint/complexity/noThisInStatic: `super` keeps this class as `this`, so the check stays the prototype check (see MediaGatewayError).
    return super[Symbol.hasInstance](value);
  }
}

/** What {@link SubmittedCallbackError} keeps of the accepted submission (a `TaskSubmission`). */
export interface AcceptedSubmission {
  /** The public task ID. */
  task_id: string;
  /** Normally `submitted`. */
  status: string;
  /** The submission envelope as received. */
  raw: SubmissionEnvelope;
}

/**
 * `onSubmitted` of a `createAndWait` threw or rejected. The submission had been accepted: the
 * task exists and is billed, and the wait never started. `taskId` and `submission` hold what
 * the callback was given; `cause` holds what it threw. Do not submit again: store the ID and
 * wait for the task with `waitForTask(taskId)`.
 *
 * @example
 * try { await client.videos.createAndWait(params, { onSubmitted: (id) => db.save(id) }) }
 * catch (e) { if (e instanceof SubmittedCallbackError) await client.videos.waitForTask(e.taskId) }
 */
export class SubmittedCallbackError extends MediaGatewayError {
  /** Always `'SubmittedCallbackError'`. */
  override readonly name = 'SubmittedCallbackError';
  /** The public task ID of the accepted submission. */
  readonly taskId: string;
  /** The accepted submission. */
  readonly submission: AcceptedSubmission;
  /**
   * @param submission - the accepted submission.
   * @param waitMethod - the method to wait for the task with, for the message, e.g. `videos.waitForTask`.
   * @param cause - what `onSubmitted` threw or rejected with.
   */
  constructor(submission: AcceptedSubmission, waitMethod: string, cause: unknown) {
    super(
      `onSubmitted failed for task ${submission.task_id} (${describeCause(cause)}). The task exists and is ` +
        `billed; the wait did not start. Do not submit again: keep the task ID and wait for it with ` +
        `${waitMethod}('${submission.task_id}').`,
      { cause },
    );
    this.taskId = submission.task_id;
    this.submission = submission;
  }
}

/**
 * `onProgress` of a wait threw or rejected. The wait stopped polling; the task was not
 * resubmitted and may still be running. `task` is the task the callback was given and `cause`
 * what it threw: wait for the task again with `waitForTask(taskId)`. Generic over the
 * {@link TaskKind} like {@link TaskFailedError}: checking `kind` narrows `task`.
 */
export class ProgressCallbackError<K extends TaskKind = TaskKind> extends MediaGatewayError {
  /** Always `'ProgressCallbackError'`. */
  override readonly name = 'ProgressCallbackError';
  /** Which kind of task was waited for: `'video'`, `'image'` or `'review'`; checking it narrows `task`. */
  readonly kind: K;
  /** The public task ID, to wait for again. */
  readonly taskId: string;
  /** The task `onProgress` was given. */
  readonly task: TaskByKind[K];
  /**
   * @param taskId - the public task ID.
   * @param task - the task `onProgress` was given.
   * @param cause - what `onProgress` threw or rejected with.
   * @param kind - which kind of task was waited for.
   */
  constructor(taskId: string, task: TaskByKind[K], cause: unknown, kind: K) {
    super(
      `onProgress failed for task ${taskId} (${describeCause(cause)}). The wait stopped; the task was not ` +
        'resubmitted and may still be running: wait for it again with waitForTask and the same task ID.',
      { cause },
    );
    this.taskId = taskId;
    this.kind = kind;
    this.task = task;
  }

  /** `instanceof` narrows to one error per kind, so that checking `kind` narrows `task`. */
  static override [Symbol.hasInstance](
    value: unknown,
  ): value is { [Kind in TaskKind]: ProgressCallbackError<Kind> }[TaskKind] {
    // biome-ignore lint/complexity/noThisInStatic: `super` keeps this class as `this`, so the check stays the prototype check (see MediaGatewayError).
    return super[Symbol.hasInstance](value);
  }
}

/** A callback's failure in a few words, for a message; the error itself stays in `cause`. */
export function describeCause(cause: unknown): string {
  let text: string;
  try {
    text = cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause);
  } catch {
    text = typeof cause; // an object without a usable toString
  }
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

/**
 * A file helper (`fileFromPath`, `fileFromURL`, `fileFromBase64`, or an `fs.ReadStream` given
 * as a file) could not make a file of its input: a path that cannot be read or is not a regular
 * file, a URL that is malformed, not `http(s):` or could not be downloaded, text that is not
 * base64. Nothing was sent and nothing is left on disk. Repeating the call with the same input
 * fails the same way, unless the file or server it names changes.
 *
 * @example
 * try { await fileFromPath('missing.png') }
 * catch (e) { if (e instanceof FileInputError) console.log(e.input, e.code) } // 'missing.png' 'ENOENT'
 */
export class FileInputError extends MediaGatewayError {
  /** Always `'FileInputError'`. */
  override readonly name = 'FileInputError';
  /** What refused the input: `fileFromPath`, `fileFromURL`, `fileFromBase64`, or the operation. */
  readonly helper: string;
  /**
   * The input as the message shows it: the path, the URL without its query, fragment or
   * credentials (a presigned URL's signature stays out), or the start of the text.
   */
  readonly input: string;
  /** The system error code behind it (`ENOENT`, `EISDIR`, `EACCES`, ...), when there is one. */
  readonly code: string | undefined;

  /**
   * @param helper - what refused the input; starts the message.
   * @param input - the input as it may be shown (no secrets); control characters are escaped
   * (`\x0a`) in the message.
   * @param reason - what is wrong with it, in words.
   * @param options - `cause`: the underlying error.
   */
  constructor(helper: string, input: string, reason: string, options?: { cause?: unknown }) {
    super(`${helper}: "${printable(input)}" ${reason}`, options);
    this.helper = helper;
    this.input = input;
    this.code = systemCode(options?.cause);
  }
}

/**
 * `MediaDownload.saveTo` could not write the file: the folder is missing or cannot be written,
 * the path names a folder, or a write failed (disk full). When it is raised before any byte
 * was written (a missing folder, a folder as the target), the download is still unread and
 * can be saved elsewhere. Never retried: repeating the same write fails the same way.
 *
 * @example
 * try { await video.saveTo('/missing/dir/video.mp4') }
 * catch (e) { if (e instanceof FileWriteError) await video.saveTo('./video.mp4') }
 */
export class FileWriteError extends MediaGatewayError {
  /** Always `'FileWriteError'`. */
  override readonly name = 'FileWriteError';
  /** The path that was to be written, as given. */
  readonly path: string;
  /** The system error code behind it (`ENOENT`, `EISDIR`, `ENOSPC`, ...), when there is one. */
  readonly code: string | undefined;
  /** Whether the download is still unread, so `saveTo` can be called again with another path. */
  readonly unread: boolean;

  /**
   * @param path - the path that was to be written; control characters are escaped in the message.
   * @param reason - what failed, in words.
   * @param init - `unread`: whether the body is still unread; `cause`: the `fs` error.
   */
  constructor(path: string, reason: string, init: { unread: boolean; cause?: unknown }) {
    super(
      `saveTo: "${printable(path)}" ${reason}${init.unread ? '; nothing was read from the download, which can be saved elsewhere' : ''}`,
      { cause: init.cause },
    );
    this.path = path;
    this.code = systemCode(init.cause);
    this.unread = init.unread;
  }
}

/** Text with its control characters escaped (`\x0a`), so a path or URL cannot forge log lines. */
function printable(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is the point.
  return text.replace(/[\u0000-\u001f\u007f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

function systemCode(cause: unknown): string | undefined {
  const code = (cause as { code?: unknown } | null | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * Parses `Retry-After` (seconds or an HTTP date) into milliseconds from `now`.
 *
 * @returns the delay in milliseconds (0 for a date in the past), or `undefined` when the value
 * is absent or unreadable.
 * @example
 * parseRetryAfter('2'); // 2000
 */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/** {@link APIError.fromResponse}: the subclass for a status and an error body. */
function apiErrorFor(init: APIErrorInit): APIError {
  const fields = readErrorFields(init.body);
  const error = statusErrorFor(init, fields);
  // A library error keeps its status class as well: spec: Errors — unknown material 404, not
  // ready 409, input error 400, all with the library body.
  return fields.type === 'media_library_error' ? asLibraryError(error, fields) : error;
}

function statusErrorFor(init: APIErrorInit, fields: ErrorFields): APIError {
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
