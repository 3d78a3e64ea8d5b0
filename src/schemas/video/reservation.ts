/**
 * The reservation estimate, by the spec's "Billing and reservations" rules. It checks the request
 * with the video schemas, so it is a family of its own in internal/schemas-loader.ts: the public
 * `estimateReservation` (internal/schemas.ts) loads it, and zod, on its first call.
 */
import { checkOptionsArgument, describeArgument, isRecord } from '../../core/arguments.js';
import { RequestValidationError } from '../../core/errors/validation.js';
import { MOTION_ORIENTATION_CEILING, type VideoModel } from '../shared/constants.js';
import { parseParams } from '../shared/validate.js';
import { video25RequestKind } from './2-5.js';
import { videoRequestSchema } from './index.js';
import { inputDuration, inputList } from './inputs.js';
import type { ReservationEstimate, ReservationHints } from './reservation-tiers.js';
import type { VideoCreateParams } from './types.js';

const OPERATION = 'videos.estimateReservation';

interface Parts {
  tier: string;
  generated: number;
  referenceVideo: number;
  seconds?: number;
}

function refuseHint(path: string, message: string): never {
  throw new RequestValidationError(OPERATION, [{ path: `hints.${path}`, message }]);
}

/** `hints` from a caller without types: an object whose list and record are what they say. */
function checkHints(hints: unknown): asserts hints is ReservationHints {
  checkOptionsArgument(OPERATION, hints, 'hints');
  const { videoDurations, prices } = hints as ReservationHints;
  if (videoDurations !== undefined && !Array.isArray(videoDurations)) {
    refuseHint(
      'videoDurations',
      `must be an array of seconds, one per video_urls entry; got ${describeArgument(videoDurations)}`,
    );
  }
  if (prices !== undefined && !isRecord(prices)) {
    refuseHint('prices', `must be an object of prices by tier name; got ${describeArgument(prices)}`);
  }
}

function checkSeconds(path: string, value: number | undefined): void {
  if (value !== undefined && !(Number.isFinite(value) && value >= 0)) {
    refuseHint(path, 'must be a finite number of seconds, 0 or more');
  }
}

// spec: Billing and reservations — "Input durations are rounded up to whole seconds."
function referenceSeconds(
  videoCount: number,
  maxTotal: number,
  hints: ReservationHints,
  notes: string[],
): number {
  const durations = hints.videoDurations;
  if (videoCount === 0) {
    if (durations?.length) notes.push('hints.videoDurations ignored: the request has no video_urls');
    return 0;
  }
  if (durations === undefined) {
    notes.push(
      `reference video durations unknown: assumed the ${maxTotal} s total maximum; pass hints.videoDurations`,
    );
    return maxTotal;
  }
  if (durations.length !== videoCount) {
    refuseHint('videoDurations', `has ${durations.length} entries but video_urls has ${videoCount}`);
  }
  for (const [i, d] of durations.entries()) checkSeconds(`videoDurations[${i}]`, d);
  const total = durations.reduce((sum, d) => sum + Math.ceil(d), 0);
  if (total > maxTotal)
    notes.push(`reference videos total ${total} s, above the ${maxTotal} s the gateway accepts`);
  return total;
}

function miniParts(params: Record<string, unknown>, hints: ReservationHints, notes: string[]): Parts {
  const resolution = typeof params.resolution === 'string' ? params.resolution : '720p';
  if (params.resolution === undefined) notes.push('resolution omitted: the 720p default assumed');
  let generated = params.duration as number | undefined;
  if (generated === undefined) {
    generated = 5;
    notes.push('duration omitted: 5 s reserved');
  }
  const videos = Array.isArray(params.video_urls) ? params.video_urls.length : 0;
  const referenceVideo = referenceSeconds(videos, 15, hints, notes);
  const tier = `${resolution.toUpperCase()}${videos > 0 ? '-input' : ''}`;
  return { tier, generated, referenceVideo };
}

// spec: Billing and reservations — "omitted duration reserves 5 s; -1 reserves the 30 s maximum";
// a preview's "-1 (including omitted in edit) reserves 30 s". An omitted duration in an ordinary
// edit defaults to -1 as well, so it is reserved the same way. `seconds` is `duration`'s alias.
function v25Generated(params: Record<string, unknown>, notes: string[]): number {
  const duration = inputDuration(params) as number | undefined;
  if (duration === -1) {
    notes.push('duration -1 (automatic): the 30 s maximum reserved');
    return 30;
  }
  if (duration !== undefined) return duration;
  if (params.omni_reference_task_type === 'edit') {
    notes.push('duration omitted in an edit (automatic, -1): the 30 s maximum reserved');
    return 30;
  }
  notes.push('duration omitted: 5 s reserved');
  return 5;
}

function v25Parts(params: Record<string, unknown>, hints: ReservationHints, notes: string[]): Parts {
  const kind = video25RequestKind(params);
  if (kind === 'upgrade') {
    // spec: "Upgrade reservation: same duration at the 1080p tier without video input".
    const preview = hints.previewDuration;
    if (preview !== undefined && preview !== -1) checkSeconds('previewDuration', preview);
    let generated = preview === -1 ? 30 : Math.ceil(preview ?? 30);
    if (preview === undefined) {
      notes.push('preview duration unknown: assumed the 30 s maximum; pass hints.previewDuration');
    }
    generated = Math.min(generated, 30);
    notes.push("an upgrade excludes the preview's reference video");
    if (hints.videoDurations?.length) notes.push('hints.videoDurations ignored for an upgrade');
    return { tier: '1080p', generated, referenceVideo: 0 };
  }
  // `video_list` is `video_urls`'s alias: its videos are reference video too.
  const videos = inputList(params, 'video_urls').length;
  const generated = v25Generated(params, notes);
  const referenceVideo = referenceSeconds(videos, 30, hints, notes);
  const suffix = videos > 0 ? '-input' : '';
  if (kind === 'preview') {
    // spec: a preview's "combined billable duration at most 30 s".
    const seconds = Math.min(30, generated + referenceVideo);
    if (seconds < generated + referenceVideo) {
      notes.push(`preview: combined billable duration capped at 30 s (was ${generated + referenceVideo} s)`);
    }
    return { tier: `480p${suffix}`, generated, referenceVideo: seconds - generated, seconds };
  }
  const resolution = typeof params.resolution === 'string' ? params.resolution : '720p';
  if (params.resolution === undefined) notes.push('resolution omitted: the 720p default assumed');
  return { tier: `${resolution}${suffix}`, generated, referenceVideo };
}

// spec: Billing and reservations, 3 — detected video seconds, else `duration`, else the ceiling.
function motionParts(params: Record<string, unknown>, hints: ReservationHints, notes: string[]): Parts {
  const orientation = params.character_orientation as 'image' | 'video';
  const ceiling = MOTION_ORIENTATION_CEILING[orientation];
  checkSeconds('referenceVideoSeconds', hints.referenceVideoSeconds);
  let referenceVideo: number;
  if (hints.referenceVideoSeconds !== undefined) {
    referenceVideo = Math.ceil(hints.referenceVideoSeconds);
    if (referenceVideo > ceiling) {
      notes.push(
        `a ${referenceVideo} s video is longer than the ${ceiling} s allowed for orientation ${orientation}`,
      );
    }
  } else if (typeof params.duration === 'number') {
    referenceVideo = params.duration;
    notes.push(
      'reference video length unknown: the supplied duration used, as the gateway does when detection fails',
    );
  } else {
    referenceVideo = ceiling;
    notes.push(
      `reference video length unknown: the ${ceiling} s ceiling for orientation ${orientation} reserved`,
    );
  }
  return { tier: params.mode as string, generated: 0, referenceVideo };
}

function legacyParts(params: Record<string, unknown>, notes: string[]): Parts {
  notes.push(`the spec publishes no billing rules for ${String(params.model)}: generated seconds only`);
  let generated = typeof params.duration === 'number' && params.duration > 0 ? params.duration : undefined;
  if (generated === undefined) {
    generated = 5;
    notes.push('duration omitted: 5 s assumed');
  }
  return { tier: 'unpublished', generated, referenceVideo: 0 };
}

/** The estimate behind the public `estimateReservation` (internal/schemas.ts), which documents it. */
export function estimateReservation(
  params: VideoCreateParams,
  hints: ReservationHints = {},
): ReservationEstimate {
  const body = parseParams(videoRequestSchema, params, OPERATION) as Record<string, unknown>;
  checkHints(hints);
  const model = body.model as VideoModel;
  const notes: string[] = [];
  let parts: Parts;
  if (model === 'vidmodel-2.0-mini') parts = miniParts(body, hints, notes);
  else if (model === 'vidmodel-2.5') parts = v25Parts(body, hints, notes);
  else if (model === 'motion-v3-motion-control') parts = motionParts(body, hints, notes);
  else parts = legacyParts(body, notes);

  const seconds = parts.seconds ?? parts.generated + parts.referenceVideo;
  const estimate: ReservationEstimate = {
    model,
    seconds,
    tier: parts.tier,
    billableSeconds: { generated: parts.generated, referenceVideo: parts.referenceVideo },
    notes,
  };
  if (hints.prices) {
    const price = hints.prices[parts.tier];
    if (typeof price === 'number' && Number.isFinite(price)) estimate.cost = seconds * price;
    else notes.push(`hints.prices has no price for tier ${parts.tier}`);
  }
  return estimate;
}
