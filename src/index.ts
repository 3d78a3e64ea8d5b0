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
export {
  estimateReservation,
  MINI_TIERS,
  MOTION_TIERS,
  type ReservationEstimate,
  type ReservationHints,
  V25_TIERS,
} from './core/reservation.js';
export type { WebhookEventLike } from './core/task-events.js';
export type { Logger, RequestOptions } from './internal/transport.js';
export type { TaskSubmission } from './resources/submission.js';
export type { VideoTask, VideoTaskCompat } from './resources/video-task.js';
export type { CreateAndWaitOptions, Videos, VideoWaitOptions } from './resources/videos.js';
export type { Notifications } from './schemas/common.js';
export {
  parseVideoRequest,
  VIDEO_MODELS,
  VIDEO_RATIOS,
  type VideoModel,
  type VideoRatio,
} from './schemas/video.js';
export { UPGRADE_INHERITED_FIELDS } from './schemas/video-2-5-upgrade.js';
export type {
  ImageWithRole,
  MotionControlParams,
  Video25OrdinaryParams,
  Video25Params,
  Video25PreviewParams,
  Video25UpgradeParams,
  VideoCreateParams,
  VideoLegacyParams,
  VideoMiniParams,
  VideoTaskAdditions,
  WebSearchTool,
} from './schemas/video-types.js';
export { VERSION } from './version.js';
