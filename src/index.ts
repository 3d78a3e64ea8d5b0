export { type ClientOptions, MediaGateway } from './client.js';
export { type DownloadProgress, MediaDownload, type SaveOptions } from './core/download.js';
export {
  AmbiguousSubmissionError,
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  type APIErrorInit,
  APIUserAbortError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  ContentModerationError,
  InternalServerError,
  InvalidResponseError,
  MediaExpiredError,
  MediaGatewayError,
  MediaLibraryError,
  NotFoundError,
  PayloadTooLargeError,
  PermissionDeniedError,
  RateLimitError,
  RequestValidationError,
  TaskFailedError,
  type ValidationIssue,
  WaitTimeoutError,
} from './core/errors.js';
export { TaskEventHub, type TaskEventHubOptions, type TaskEventSource } from './core/events-hub.js';
export { Page, type PageData, PagePromise } from './core/pagination.js';
export type { TaskOutcome, WaitOptions } from './core/polling.js';
export type { WebhookEventLike } from './core/task-events.js';
export type { Logger, RequestOptions } from './internal/transport.js';
export { VERSION } from './version.js';
