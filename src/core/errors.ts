// The SDK's error classes, one module per concern under errors/; this file names them all, so
// that a caller of core needs one import path.
export { MediaGatewayError } from './base-error.js';
export {
  APIError,
  type APIErrorInit,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  ContentModerationError,
  InternalServerError,
  MediaExpiredError,
  MediaLibraryError,
  NotFoundError,
  PayloadTooLargeError,
  PermissionDeniedError,
  RateLimitError,
  retryAfterOf,
} from './errors/api.js';
export { type ErrorFields, parseRetryAfter } from './errors/api-fields.js';
export { FileInputError, FileWriteError } from './errors/files.js';
export { RedisUnavailableError } from './errors/redis.js';
export {
  AmbiguousSubmissionError,
  APIConnectionError,
  APIConnectionTimeoutError,
  APIUserAbortError,
  abortedBy,
  InvalidResponseError,
  ResponseTooLargeError,
} from './errors/transport.js';
export { RequestValidationError, type ValidationIssue } from './errors/validation.js';
export {
  type AcceptedSubmission,
  describeCause,
  messageOf,
  ProgressCallbackError,
  SubmittedCallbackError,
  TaskFailedError,
  WaitTimeoutError,
} from './errors/wait.js';
