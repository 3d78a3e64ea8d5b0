/**
 * The tiers and the shapes of a reservation estimate: no zod and no schema here, so that the
 * package entry can export them without loading either (the estimate itself is reservation.ts).
 */
import type { VideoModel } from '../shared/constants.js';

/** spec: Billing and reservations — mini's four tiers. */
export const MINI_TIERS = ['480P', '720P', '480P-input', '720P-input'] as const;

/**
 * `vidmodel-2.5` tiers as the SDK names them: the output resolution, with `-input` when the
 * request carries reference video (the spec bills by resolution and input-media type).
 */
export const V25_TIERS = ['480p', '720p', '1080p', '480p-input', '720p-input', '1080p-input'] as const;

/** spec: Billing and reservations — motion control is priced per reference second by mode. */
export const MOTION_TIERS = ['std', 'pro'] as const;

/** What the caller knows that the request alone does not say. All optional. */
export interface ReservationHints {
  /** Seconds of each `video_urls` entry, in order; each is rounded up to whole seconds. */
  videoDurations?: number[] | undefined;
  /** Motion control: seconds of the `video_url` reference video; rounded up. */
  referenceVideoSeconds?: number | undefined;
  /** Upgrades (`draft_task_id`): the preview's duration in seconds (-1 counts as 30). */
  previewDuration?: number | undefined;
  /** Price per billable second by tier name, e.g. `{ '720P-input': 0.12 }`; adds `cost`. */
  prices?: Record<string, number> | undefined;
}

/** The seconds and tier a submission reserves, by the spec's billing rules. */
export interface ReservationEstimate {
  /** The request's model. */
  model: VideoModel;
  /** Billable seconds reserved: generated plus reference-video seconds. */
  seconds: number;
  /** Tier whose unit price applies: see {@link MINI_TIERS}, {@link V25_TIERS}, {@link MOTION_TIERS}. */
  tier: string;
  /** How `seconds` splits between generated output and reference video. */
  billableSeconds: {
    /** Output seconds reserved (the requested duration, or the default the spec names). */
    generated: number;
    /** Reference-video seconds added, each input rounded up to whole seconds. */
    referenceVideo: number;
  };
  /** `seconds` times the tier's price, present only when `hints.prices` names the tier. */
  cost?: number;
  /** What was assumed, in words, e.g. `duration omitted: 5 s reserved`. */
  notes: string[];
}
