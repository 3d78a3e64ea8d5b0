import { video25RequestKind } from '../../schemas/video/2-5.js';
import { videoRequestSchema } from '../../schemas/video/index.js';
import { inputDuration, inputList } from '../../schemas/video/inputs.js';
import { estimateReservation } from '../../schemas/video/reservation.js';
import type { ReservationHints } from '../../schemas/video/reservation-tiers.js';
import type { VideoCreateParams } from '../../schemas/video/types.js';
import { MockHttpError } from '../http-error.js';
import type { GatewayState } from '../state/gateway-state.js';
import type { MockTask } from '../state/tasks.js';
import type { RequestContext } from '../types.js';
import { checkVideoAssets } from './videos-assets.js';
import {
  AUTOMATIC_DURATION_SECONDS,
  detectedSeconds,
  PREVIEW_VALIDITY_MS,
  VIDEO_MODERATION_MESSAGE,
  VIDEO_TRIGGERS,
  type VideoTaskData,
  videoPlan,
} from './videos-shared.js';
import { webhookEndpointCheck } from './webhook-endpoint-check.js';

type Body = Record<string, unknown>;

const invalid = (message: string) => MockHttpError.spec(400, 'invalid_request', message);

// spec: Errors — Moderation rejection: HTTP 400 `nsfw_content_detected`, no task, no reservation.
// `vidmodel-2.5` moderates prompt and negative_prompt; the marker is looked for in both.
function checkModeration(body: Body): void {
  if (body.nsfw_check !== true) return;
  const texts = [body.prompt, body.negative_prompt].filter((t): t is string => typeof t === 'string');
  if (texts.some((t) => t.includes(VIDEO_TRIGGERS.moderation))) {
    throw MockHttpError.spec(400, 'nsfw_content_detected', VIDEO_MODERATION_MESSAGE);
  }
}

/**
 * spec: States — Preview and upgrade. `draft_task_id` must name a succeeded preview of the same
 * account and model whose age (from its submission, on the mock clock) is under 7 days; anything
 * else is HTTP 400 with no task and no reservation.
 */
function findPreview(
  gateway: GatewayState,
  ctx: RequestContext<unknown>,
  id: string,
): MockTask<VideoTaskData> {
  const preview = gateway.tasks.getFor<VideoTaskData>(ctx.account.id, id, 'video');
  // Another account's preview is reported like an unknown one: its existence is not disclosed.
  if (!preview?.data.draft || preview.model !== 'vidmodel-2.5') {
    throw invalid(`draft_task_id: ${id} is not a vidmodel-2.5 preview (draft: true) of this account`);
  }
  const state = gateway.tasks.state(preview);
  if (state.phase !== 'succeeded') {
    throw invalid(
      `draft_task_id: preview ${id} has not succeeded (status ${state.status}); only a succeeded preview can be upgraded`,
    );
  }
  if (gateway.clock.now() - preview.createdAt >= PREVIEW_VALIDITY_MS) {
    throw invalid(`draft_task_id: preview ${id} is older than 7 days and can no longer be upgraded`);
  }
  return preview;
}

function secondsOf(list: unknown[]): Array<number | undefined> {
  return list.map(detectedSeconds);
}

// The input aliases (`seconds`, `video_list`, ...) are the fields they stand for on vidmodel-2.5,
// the one model whose aliases the spec names.
function requestedDuration(body: Body): unknown {
  return body.model === 'vidmodel-2.5' ? inputDuration(body) : body.duration;
}

function mediaList(body: Body, field: 'video_urls' | 'audio_urls'): unknown[] {
  if (body.model === 'vidmodel-2.5') return inputList(body, field);
  return Array.isArray(body[field]) ? (body[field] as unknown[]) : [];
}

function allDetected(seconds: Array<number | undefined>): seconds is number[] {
  return seconds.length > 0 && seconds.every((s) => s !== undefined);
}

/**
 * The reference media lengths the mock "detects" (`mock_seconds=<n>` in a URL), checked against
 * the model's limits (spec: Limits — Media and parameters), and the hints they give the estimate.
 */
function detectMedia(body: Body, kind: string): ReservationHints {
  const model = body.model;
  const hints: ReservationHints = {};
  if (model === 'motion-v3-motion-control') {
    const seconds = detectedSeconds(body.video_url);
    if (seconds === undefined) return hints;
    const ceiling = body.character_orientation === 'image' ? 10 : 30;
    if (seconds < 3 || seconds > ceiling) {
      throw invalid(
        `video_url: the reference video is ${seconds} s; orientation ${String(body.character_orientation)} accepts 3-${ceiling} s`,
      );
    }
    hints.referenceVideoSeconds = seconds;
    return hints;
  }
  if (model !== 'vidmodel-2.0-mini' && model !== 'vidmodel-2.5') return hints;
  if (kind === 'upgrade') return hints;
  const limit = model === 'vidmodel-2.0-mini' ? 15 : 30;
  const videos = secondsOf(mediaList(body, 'video_urls'));
  for (const [field, seconds] of [
    ['video_urls', videos],
    ['audio_urls', secondsOf(mediaList(body, 'audio_urls'))],
  ] as const) {
    // spec: Video — vidmodel-2.5 reference "videos 2-30 s each", "audio 2-30 s each".
    if (model === 'vidmodel-2.5') {
      for (const [i, s] of seconds.entries()) {
        if (s !== undefined && s < 2) {
          throw invalid(`${field}[${i}]: each reference must be 2-30 s for ${model} (detected ${s} s)`);
        }
      }
    }
    // Only the detected lengths count: they alone can prove the total is too long. spec: Video —
    // mini's videos are held to a total *billable* duration, and billing rounds each input up
    // to whole seconds; every other total (mini's audio, 2.5's videos and audio) is of the
    // lengths themselves, so 7.4 s + 7.4 s of audio is 14.8 s, within 15.
    const billable = model === 'vidmodel-2.0-mini' && field === 'video_urls';
    const detected = seconds.reduce<number>((sum, s) => sum + (billable ? Math.ceil(s ?? 0) : (s ?? 0)), 0);
    if (detected > limit) {
      throw invalid(`${field}: at most ${limit} s in total for ${model} (detected ${detected} s)`);
    }
  }
  // spec: Video — an edit's source video is 4-30 s.
  const source = videos[0];
  if (body.omni_reference_task_type === 'edit' && source !== undefined && (source < 4 || source > 30)) {
    throw invalid(`video_urls[0]: an edit's source video must be 4-30 s (detected ${source} s)`);
  }
  if (allDetected(videos)) hints.videoDurations = videos;
  return hints;
}

/** Seconds of video the mock generates for a generation request (not an upgrade). */
function outputSeconds(body: Body, kind: string, referenceSeconds: number): number {
  const requested = requestedDuration(body);
  const duration = typeof requested === 'number' ? requested : undefined;
  if (body.model === 'motion-v3-motion-control') return referenceSeconds;
  if (duration === -1) return AUTOMATIC_DURATION_SECONDS;
  if (duration !== undefined && duration > 0) return duration;
  // spec: Versioning 4 — an omitted duration is 5 s; an edit's default is -1 (automatic).
  return kind !== 'upgrade' && body.omni_reference_task_type === 'edit' ? AUTOMATIC_DURATION_SECONDS : 5;
}

function numberOrUndefined(value: unknown): number | undefined {
  return typeof value === 'number' ? value : undefined;
}

function defaultResolution(body: Body, kind: string): string | undefined {
  if (typeof body.resolution === 'string') return body.resolution;
  if (body.model === 'vidmodel-2.0-mini') return '720p';
  if (body.model !== 'vidmodel-2.5') return undefined;
  return kind === 'preview' ? '480p' : kind === 'upgrade' ? '1080p' : '720p';
}

// spec: Billing and reservations — the duration an upgrade inherits: -1 (or an edit's omitted
// duration) reserves 30 s, another omitted duration 5 s.
function previewDuration(preview: MockTask<VideoTaskData>): number {
  const duration = preview.data.duration;
  if (duration !== undefined) return duration;
  return preview.data.request.omni_reference_task_type === 'edit' ? -1 : 5;
}

/**
 * Handles `POST /v1/videos/generations` (and its alias): validates with the SDK's own schema,
 * checks the key's models, the webhook endpoint, the library materials referenced, moderation and
 * the preview reference, then
 * creates one `video` task with its reservation and answers the submission envelope.
 * spec: Errors — an invalid request gives HTTP 400, no task created, no reservation charged.
 */
export function submitVideo(gateway: GatewayState, ctx: RequestContext<unknown>): Promise<void> {
  const body = ctx.validate(videoRequestSchema) as Body;
  ctx.requireModel(body.model);
  webhookEndpointCheck(gateway, ctx.account, body.notifications);
  checkVideoAssets(gateway, ctx.account.id, body);
  checkModeration(body);
  const model = String(body.model);
  const kind = model === 'vidmodel-2.5' ? video25RequestKind(body) : 'ordinary';
  const preview = kind === 'upgrade' ? findPreview(gateway, ctx, String(body.draft_task_id)) : undefined;
  const hints = detectMedia(body, kind);
  if (preview) hints.previewDuration = previewDuration(preview);
  const estimate = estimateReservation(body as unknown as VideoCreateParams, hints);

  const generated = preview
    ? preview.data.output_seconds
    : outputSeconds(body, kind, estimate.billableSeconds.referenceVideo);
  // A preview's estimate caps the reference part; the settlement counts what was detected.
  const reference = hints.videoDurations
    ? hints.videoDurations.reduce((sum, d) => sum + Math.ceil(d), 0)
    : estimate.billableSeconds.referenceVideo;
  let settle = generated + (model === 'motion-v3-motion-control' ? 0 : reference);
  // spec: Billing — a preview's combined billable duration is at most 30 s.
  if (kind === 'preview') settle = Math.min(30, settle);

  const prompt = preview ? preview.data.prompt : typeof body.prompt === 'string' ? body.prompt : undefined;
  const data: VideoTaskData = {
    request: body,
    return_last_frame: body.return_last_frame === true,
    output_format: body.output_format === 'mov' ? 'mov' : 'mp4',
    draft: kind === 'preview',
    duration: preview ? preview.data.duration : numberOrUndefined(requestedDuration(body)),
    output_seconds: generated,
    resolution: defaultResolution(body, kind) ?? 'unspecified',
    prompt,
  };
  if (preview) data.draft_task_id = preview.id;
  if (body.notifications !== undefined) data.notifications = body.notifications;
  if (typeof body.client_reference_id === 'string') data.client_reference_id = body.client_reference_id;

  const task = gateway.tasks.create<VideoTaskData>({
    account: ctx.account.id,
    kind: 'video',
    model,
    plan: { ...videoPlan(prompt), settleSeconds: settle },
    data,
    reserve: { seconds: estimate.seconds, tier: estimate.tier },
  });
  // spec: Asynchronous submission envelope — `error: null` is present in the vidmodel-2.5 envelope.
  const envelope: Record<string, unknown> = { code: 200, data: [{ status: 'submitted', task_id: task.id }] };
  if (model === 'vidmodel-2.5') envelope.error = null;
  return ctx.json(200, envelope);
}
