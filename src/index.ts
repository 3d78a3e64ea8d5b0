/**
 * `mediagw`: the client of the Media Generation Gateway. {@link MediaGateway} holds one resource
 * per area (`images`, `videos`, `embeddings`, `uploads`, `library`, `webhooks`, `midjourney`);
 * requests are checked against the gateway's rules before they are sent, and every failure is
 * a {@link MediaGatewayError}. Receiving webhooks lives in `mediagw/webhooks`, the mock gateway
 * in `mediagw/testing`.
 *
 * @example
 * import { MediaGateway } from 'mediagw';
 * const client = new MediaGateway(); // MEDIAGW_API_KEY and MEDIAGW_BASE_URL
 * const task = await client.videos.createAndWait({ model: 'vidmodel-2.0-mini', prompt: 'a red kite', duration: 5 });
 * await (await client.videos.downloadContent(task.id)).saveTo('./kite.mp4');
 *
 * @module mediagw
 */
export { type ClientOptions, MediaGateway } from './client.js';
export { APIPromise, type WithResponse } from './core/api-promise.js';
export {
  type AcceptedSubmission,
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
  type ErrorFields,
  FileInputError,
  FileWriteError,
  InternalServerError,
  InvalidResponseError,
  MediaExpiredError,
  MediaGatewayError,
  MediaLibraryError,
  NotFoundError,
  PayloadTooLargeError,
  PermissionDeniedError,
  ProgressCallbackError,
  RateLimitError,
  RequestValidationError,
  ResponseTooLargeError,
  SubmittedCallbackError,
  TaskFailedError,
  type ValidationIssue,
  WaitTimeoutError,
} from './core/errors.js';
export { TaskEventHub, type TaskEventHubOptions, type TaskEventSource } from './core/events-hub.js';
export { type WithExtraFields, withExtraFields } from './core/extra-fields.js';
export type { FetchInit, FetchLike, FetchResponseLike } from './core/fetch-like.js';
export {
  type LimitedRequest,
  type LimitPermit,
  QueueTimeoutError,
  type RateLimit,
  type RateLimiter,
  type RequestLimits,
  type RouteFamily,
} from './core/limits.js';
export { InvalidOptionError } from './core/options.js';
export { Page, type PageData, PagePromise } from './core/pagination.js';
export type { TaskOutcome, WaitOptions } from './core/polling.js';
export type { WebhookEventLike } from './core/task-events.js';
export type { AnyTask, TaskByKind, TaskKind } from './core/task-types.js';
export {
  type FileFromURLOptions,
  type FileOptions,
  fileFromBase64,
  fileFromPath,
  fileFromURL,
  type Uploadable,
} from './internal/files.js';
export { type DownloadProgress, MediaDownload, type SaveOptions } from './internal/media-download.js';
export type {
  HookErrorInfo,
  HookRequestInfo,
  HookResponseInfo,
  HookRetryInfo,
  Hooks,
  Logger,
  LogLevel,
} from './internal/observe.js';
export type { RequestOptions } from './internal/request-spec.js';
export { checkVideoRequest as parseVideoRequest, estimateReservation } from './internal/schemas.js';
export {
  operationForModel,
  REQUEST_OPERATIONS,
  type RequestOperation,
  validateRequest,
} from './internal/validate-request.js';
export type { BatchOptions, BatchProgress, Embeddings } from './resources/embeddings.js';
export {
  cosineSimilarity,
  type Embedding,
  type EmbeddingsResponse,
} from './resources/embeddings-response.js';
export type { ImageTask, ImageTaskData, ImageTaskState } from './resources/image-task.js';
export type { ImageData, Images, ImagesResponse, ImageWaitOptions } from './resources/images.js';
export type { Assets } from './resources/library/assets.js';
export type { Groups } from './resources/library/groups.js';
export type { Library } from './resources/library/index.js';
export type { ReviewTasks } from './resources/library/review-tasks.js';
export { type Asset, assetReference, type Group, type ReviewTask } from './resources/library/types.js';
export type { Midjourney } from './resources/midjourney.js';
export type { SubmissionEnvelope, TaskSubmission } from './resources/submission.js';
export type { UploadedImage, UploadOptions, UploadProgress, Uploads } from './resources/uploads.js';
export type { VideoTask, VideoTaskCompat } from './resources/video-task.js';
export type { CreateAndWaitOptions, Videos, VideoWaitOptions } from './resources/videos.js';
export type { Endpoints } from './resources/webhooks/endpoints.js';
export type { WebhookEvents } from './resources/webhooks/events.js';
export type { Webhooks } from './resources/webhooks/index.js';
export type {
  EndpointCreated,
  SecretRotation,
  WebhookManagementResponse,
} from './resources/webhooks/types.js';
export type {
  BgeM3Params,
  EmbeddingBatchParams,
  EmbeddingCreateParams,
  EmbeddingInputParams,
  TextEmbedding3SmallParams,
} from './schemas/embeddings/index.js';
export type { MidjourneyGenerateParams } from './schemas/images/midjourney.js';
export type {
  Image2EditParams,
  Image2GenerateParams,
  Image25EditParams,
  Image25GenerateParams,
  ImageEditAsyncParams,
  ImageEditFiles,
  ImageEditParams,
  ImageGenerateAsyncParams,
  ImageGenerateParams,
  ImageModel25,
  ImageOutputParams,
  ImageTaskAdditions,
} from './schemas/images/types.js';
export type {
  AssetListParams,
  AssetSubmitItem,
  AssetSubmitParams,
  AssetUpdateParams,
  GroupCreateParams,
  GroupUpdateParams,
  ListParams,
} from './schemas/library/index.js';
export type { Notifications, SubscribableEvent } from './schemas/shared/common.js';
export {
  ASSET_STATUSES,
  ASSET_TYPES,
  type AssetStatus,
  type AssetType,
  EMBEDDING_DIMENSIONS,
  EMBEDDING_MODELS,
  type EmbeddingModel,
  IMAGE_MODELS,
  type ImageModel,
  UPGRADE_INHERITED_FIELDS,
  VIDEO_MODELS,
  VIDEO_RATIOS,
  type VideoModel,
  type VideoRatio,
} from './schemas/shared/constants.js';
export {
  MINI_TIERS,
  MOTION_TIERS,
  type ReservationEstimate,
  type ReservationHints,
  V25_TIERS,
} from './schemas/video/reservation-tiers.js';
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
} from './schemas/video/types.js';
export type {
  WebhookCapabilitiesParams,
  WebhookEndpointCreateParams,
  WebhookEndpointUpdateParams,
  WebhookEventListParams,
} from './schemas/webhook-endpoints/index.js';
export { VERSION } from './version.js';
