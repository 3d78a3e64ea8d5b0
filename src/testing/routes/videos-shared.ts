import type { GatewayState } from '../state/gateway-state.js';
import type { TaskPlan } from '../state/tasks.js';
import { outcomeFor } from '../state/tasks.js';

/**
 * Prompt markers of the video routes, besides `mock:fail` and `mock:slow` (which apply too).
 * - `mock:moderation` in `prompt` or `negative_prompt` with `nsfw_check: true`: 400
 *   `nsfw_content_detected`, no task, no reservation.
 * - `mock:format`: the task fails with `FormatUnsupported` (an asynchronous format review).
 * - `mock:mismatch`: the task fails with `InvalidParameter.TaskTypeMismatch` (the prompt
 *   contradicts the declared `omni_reference_task_type`).
 * - `mock_seconds=<n>` in the query of a reference video URL: the mock "detects" that video as
 *   `n` seconds long (for reservations and the per-model totals). Without it the length is
 *   unknown and the reservation assumes the maximum, as `estimateReservation` does without hints.
 */
export const VIDEO_TRIGGERS = {
  moderation: 'mock:moderation',
  format: 'mock:format',
  mismatch: 'mock:mismatch',
  seconds: 'mock_seconds',
} as const;

/** The failures the video markers produce. spec: Errors — asynchronous failures reported in the task. */
export const VIDEO_FAILURES = {
  format: { code: 'FormatUnsupported', message: 'Unsupported media format' },
  mismatch: {
    code: 'InvalidParameter.TaskTypeMismatch',
    message: 'the prompt contradicts the declared omni_reference_task_type',
  },
} as const;

/** The moderation refusal's message: it lists the flagged categories. spec: Errors — Moderation rejection. */
export const VIDEO_MODERATION_MESSAGE = 'flagged categories: sexual, violence';

/** spec: Limits — preview validity: 7 days. */
export const PREVIEW_VALIDITY_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * How long after completion a `vidmodel-2.5` task answers without `usage` (mock ms).
 * spec: Video task — `usage.completion_tokens` "may be absent right after completion".
 */
export const USAGE_DELAY_MS = 2_000;

/** Seconds the mock generates for `duration: -1` (automatic). */
export const AUTOMATIC_DURATION_SECONDS = 10;

/** What a video task keeps in its `data`. */
export interface VideoTaskData {
  /** The request's `notifications`, for the webhook delivery engine. */
  notifications?: unknown;
  /** The request's `client_reference_id`, echoed in events. */
  client_reference_id?: string | undefined;
  /** The request body as accepted. */
  request: Record<string, unknown>;
  /** Whether a last frame is produced on success. */
  return_last_frame: boolean;
  /** Container of the result. */
  output_format: 'mp4' | 'mov';
  /** A `vidmodel-2.5` preview (`draft: true`). */
  draft: boolean;
  /** The preview an upgrade was made from. */
  draft_task_id?: string | undefined;
  /** The requested duration as sent (`undefined` when omitted; upgrades inherit the preview's). */
  duration: number | undefined;
  /** Seconds of video the mock generates (the requested duration, its default, or 10 s for -1). */
  output_seconds: number;
  /** Effective resolution: the request's, or the model's default. */
  resolution: string;
  /** The text the outcome markers are read from (an upgrade uses its preview's). */
  prompt: string | undefined;
  /** Tokens of the published result and last frame, set when the task succeeds. */
  video_token?: string | undefined;
  /** Token of the published last frame, when one was requested. */
  last_frame_token?: string | undefined;
}

/** The task plan a request's text asks for: the engine's markers plus the video ones. */
export function videoPlan(text: string | undefined): TaskPlan {
  const plan = outcomeFor(text);
  if (plan.outcome === undefined && text?.includes(VIDEO_TRIGGERS.format)) {
    plan.outcome = { failed: { ...VIDEO_FAILURES.format } };
  } else if (plan.outcome === undefined && text?.includes(VIDEO_TRIGGERS.mismatch)) {
    plan.outcome = { failed: { ...VIDEO_FAILURES.mismatch } };
  }
  return plan;
}

/**
 * The length the mock "detects" for a reference video URL: the `mock_seconds` query value, or
 * `undefined` when the URL does not say (or is an `asset://` reference without it).
 */
export function detectedSeconds(url: unknown): number | undefined {
  if (typeof url !== 'string') return undefined;
  const match = new RegExp(`[?&]${VIDEO_TRIGGERS.seconds}=([0-9.]+)`).exec(url);
  const seconds = match ? Number(match[1]) : Number.NaN;
  return Number.isFinite(seconds) && seconds >= 0 ? seconds : undefined;
}

/** The gateway's authenticated content URL of a task (spec: `url` — "Authenticated download URL"). */
export function contentUrl(gateway: GatewayState, taskId: string): string {
  return `${gateway.url}/v1/videos/${encodeURIComponent(taskId)}/content`;
}

/** The gateway's authenticated last-frame URL of a task. */
export function lastFrameUrl(gateway: GatewayState, taskId: string): string {
  return `${gateway.url}/v1/videos/${encodeURIComponent(taskId)}/last-frame`;
}
