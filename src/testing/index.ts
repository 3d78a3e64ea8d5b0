/**
 * `mediagw/testing`: a stateful mock of the Media Generation Gateway on 127.0.0.1, for tests and
 * offline work. Start it with {@link startMockGateway}; point a client at `gateway.url` with
 * `gateway.apiKey`. See docs/testing.md.
 *
 * @example
 * import { startMockGateway } from 'mediagw/testing';
 * const gateway = await startMockGateway({ clock: 'manual' });
 * const client = new MediaGateway({ baseURL: gateway.url, apiKey: gateway.apiKey });
 *
 * @module mediagw/testing
 */

// Starting and using the gateway.
export { startMockGateway } from './gateway.js';
// Error answers a route can throw, and the spec's error bodies.
export {
  libraryErrorBody,
  MockHttpError,
  openAIErrorBody,
  specErrorBody,
  validationError,
} from './http-error.js';
// The gateway's options and the running gateway; routes added by users, their context and handlers.
export type {
  MockAccountInit,
  MockClientOptions,
  MockGateway,
  MockGatewayConfig,
  MockGatewayOptions,
  RouteContext,
  RouteHandler,
  Router,
} from './mock-gateway.js';
// Accounts and keys: `gateway.accounts`, `gateway.account(id)`.
export { DEFAULT_RESTRICTED_MODELS } from './state/accounts.js';
// The mock clock: `gateway.clock.advance(ms)` in `manual` mode, or real time times `speed`.
export { type CancelTimer, type ClockMode, MockClock, type MockClockOptions } from './state/clock.js';
// Fault injection: `gateway.inject({ match, times, fault })`.
export type { Fault, FaultHandle, FaultInit, FaultMatch } from './state/faults.js';
// The gateway's state as its routes and its webhook engine see it.
export type { GatewayState } from './state/gateway-state.js';
// The billing ledger: `gateway.ledger`.
export type { Ledger, LedgerEntry, LedgerEntryKind, ReservationInit } from './state/ledger.js';
// Library reviews decided by a test (or the dashboard): `reviewLibraryAsset(gateway, id, 'approve')`.
export {
  type LibraryReviewDecision,
  type MockAsset,
  reviewLibraryAsset,
} from './state/library-store.js';
// Generated media: a real PNG, a real MP4, and a lazily generated large body.
export { largeBody, largeBodyByteAt, mp4Video, type PngOptions, pngImage } from './state/media.js';
// Published media and the media origin: `gateway.media`.
export {
  MEDIA_EXPIRED_MESSAGE,
  type MediaRecord,
  type MediaStore,
  type PublishInit,
} from './state/media-origin.js';
// Rate limits: `startMockGateway({ rateLimits })` and `gateway.rateLimits`.
export type {
  MockRateLimit,
  MockRateLimitOptions,
  MockRateLimitStats,
  MockRateLimits,
  RateLimitedRequest,
} from './state/rate-limits.js';
// Task kinds and their wire statuses.
export {
  type BuiltInTaskKind,
  type TaskDurations,
  type TaskKindSpec,
  type TaskPhase,
  VIDEO_COMPAT_STATUS,
} from './state/task-kinds.js';
// The task engine: `gateway.tasks`, and the outcome triggers.
export {
  MOCK_TRIGGERS,
  type MockTask,
  outcomeFor,
  type TaskEngine,
  type TaskInit,
  type TaskListener,
  type TaskOutcome,
  type TaskPlan,
  type TaskState,
} from './state/tasks.js';
export {
  DELIVERY_WINDOW_MS,
  type DeliveryAnswer,
  type DeliveryVerdict,
  deliveryVerdict,
  LATER_RETRY_DELAY_MS,
  type MockDeliveryAttempt,
  type MockDeliveryListener,
  type MockDeliveryStatus,
  type MockVerificationRecord,
  type MockWebhookEndpoint,
  type MockWebhookEvent,
  type MockWebhookOptions,
  type MockWebhooks,
  mockWebhooks,
  type PostLimits as WebhookPostLimits,
  type PostOutcome as WebhookPostOutcome,
  postDelivery as postWebhookDelivery,
  RETRY_DELAYS_MS,
  retryDelay as webhookRetryDelay,
  type VerificationVerdict,
  verificationVerdict,
  webhookDeliveryBody,
} from './state/webhooks/index.js';
// Accounts, the request log (`gateway.requests`) and the options and params of routes
// (`gateway.router.add(method, pattern, handler, options)`).
export type {
  MockAccount,
  Origin,
  ReceivedPart,
  RecordedRequest,
  RequestContext,
  RequestHandler,
  RouteOptions,
  RouteParams,
  RouteRegistry,
} from './types.js';
