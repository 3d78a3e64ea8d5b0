/**
 * The request types of `videos.create`, what a caller may write, checked by the compiler: the
 * fields every video request shares, then each model family's request. The rules themselves
 * (and their messages) live in the schemas beside this file.
 */

import type { Notifications } from '../shared/common.js';
import type { ImageRole, UPGRADE_INHERITED_FIELDS, VideoRatio } from '../shared/constants.js';

/** Fields every video JSON request accepts (spec: Webhook management, "Task request additions"). */
export interface VideoTaskAdditions {
  /**
   * `notifications`: the verified webhook endpoint and the events to send for this task. Must not
   * be combined with the legacy `webhook` or `callback_url` parameters.
   */
  notifications?: Notifications | undefined;
  /**
   * `client_reference_id`: your own reference, at most 128 bytes of UTF-8, echoed in events.
   * It is not an idempotency key.
   */
  client_reference_id?: string | undefined;
}

/** One item of `image_with_roles`. */
export interface ImageWithRole {
  /** `url`: `http(s)://` URL or `asset://` reference. Base64 and data URLs are refused. */
  url: string;
  /** `role`: `first_frame`, `last_frame` or `reference_image`. */
  role: ImageRole;
}

/** One item of `tools`: a search declaration. */
export interface WebSearchTool {
  /** `type`: always `web_search`. */
  type: 'web_search';
}

/** Fields shared by `vidmodel-2.5` ordinary generation and previews. */
export interface Video25GenerationFields extends VideoTaskAdditions {
  /** `model`. */
  model: 'vidmodel-2.5';
  /** `prompt`: required, non-empty. Reference media as `@图片1`, `@视频1`, `@音频1` (1-based). */
  prompt: string;
  /**
   * `duration`: whole seconds 4-30, or -1 for automatic; an edit accepts only -1.
   * Set it explicitly for stable output: the default changed from 4 to 5 on 2026-10-01.
   * @default 5 (edit: -1)
   */
  duration?: number | undefined;
  /** `seconds`: input alias of `duration`, held to the same rules; must match it when both are set. */
  seconds?: number | undefined;
  /**
   * `aspect_ratio`: one of seven ratios; frame, edit and extend tasks require `adaptive`.
   * The default changed from `16:9` to `adaptive` on 2026-10-01.
   * @default 'adaptive'
   */
  aspect_ratio?: VideoRatio | undefined;
  /** `ratio`: alias of `aspect_ratio`; must match it when both are set. */
  ratio?: VideoRatio | undefined;
  /** `size`: legacy convenience field. @default 'adaptive' */
  size?: string | undefined;
  /** `image_urls`: reference images; at most 30 images in all, counting roles and frame aliases. */
  image_urls?: readonly string[] | undefined;
  /** `images`: input alias of `image_urls`; must match it when both are set. */
  images?: readonly string[] | undefined;
  /** `image`: input alias of a one-entry `image_urls`; must match it when both are set. */
  image?: string | undefined;
  /** `input_reference`: input alias of a one-entry `image_urls` (a reference image, not a frame). */
  input_reference?: string | undefined;
  /** `image_with_roles`: images with a `first_frame`, `last_frame` or `reference_image` role. */
  image_with_roles?: readonly ImageWithRole[] | undefined;
  /** `first_frame_image`: alias of a `first_frame` role; not also given in `image_with_roles`. */
  first_frame_image?: string | undefined;
  /** `last_frame_image`: alias of a `last_frame` role; not also given in `image_with_roles`. */
  last_frame_image?: string | undefined;
  /** `video_urls`: up to 10 reference or source videos, at most 30 s in total. */
  video_urls?: readonly string[] | undefined;
  /** `video_list`: input alias of `video_urls`; must match it when both are set. */
  video_list?: readonly string[] | undefined;
  /** `audio_urls`: up to 10 audios, at most 30 s in total; an audio-only reference is allowed. */
  audio_urls?: readonly string[] | undefined;
  /** `generate_audio`: generate a soundtrack. @default true (since 2026-10-01) */
  generate_audio?: boolean | undefined;
  /** `audio`: alias of `generate_audio`; must match it when both are set. */
  audio?: boolean | undefined;
  /** `watermark`. @default false */
  watermark?: boolean | undefined;
  /** `seed`: an integer; 0 is a valid explicit seed. @default model-selected */
  seed?: number | undefined;
  /** `output_format`: `mp4` or `mov`. @default 'mp4' */
  output_format?: 'mp4' | 'mov' | undefined;
  /** `omni_reference_task_type`: `auto`, `reference`, `edit` or `extend`. @default 'auto' */
  omni_reference_task_type?: 'auto' | 'reference' | 'edit' | 'extend' | undefined;
  /** `nsfw_check`: moderate the prompt, negative prompt and images first. @default false */
  nsfw_check?: boolean | undefined;
  /** `return_last_frame`: add an authenticated last-frame URL on success. @default false */
  return_last_frame?: boolean | undefined;
  /** `negative_prompt`: what to avoid; moderated when `nsfw_check` is true. */
  negative_prompt?: string | undefined;
  /** `tools`: search declarations, `[{ type: 'web_search' }]`. */
  tools?: readonly WebSearchTool[] | undefined;
  /** Not with generation: `draft_task_id` makes an upgrade request. */
  draft_task_id?: never;
}

/** A `vidmodel-2.5` ordinary generation. */
export interface Video25OrdinaryParams extends Video25GenerationFields {
  /** `resolution`: `480p`, `720p` or `1080p`. @default '720p' */
  resolution?: '480p' | '720p' | '1080p' | undefined;
  /** `draft`: `true` makes a preview instead; see {@link Video25PreviewParams}. @default false */
  draft?: false | undefined;
  /** `generation_type`: ordinary generation only. */
  generation_type?: string | undefined;
  /** `camerafixed`: ordinary generation only. */
  camerafixed?: boolean | undefined;
  /** `service_tier`: ordinary generation only. */
  service_tier?: string | undefined;
}

/**
 * A `vidmodel-2.5` 480p preview (`draft: true`): a billable generation whose task ID can later
 * be upgraded to 1080p with {@link Video25UpgradeParams} within 7 days.
 */
export interface Video25PreviewParams extends Video25GenerationFields {
  /** `draft`: `true` for a preview. */
  draft: true;
  /** `resolution`: only `480p`. @default '480p' */
  resolution?: '480p' | undefined;
  /** Rejected for previews. */
  generation_type?: never;
  /** Rejected for previews. */
  camerafixed?: never;
  /** Rejected for previews. */
  service_tier?: never;
}

/** The fields an upgrade inherits from its preview: never resent, even when equal, false, 0 or null. */
export type Video25UpgradeInheritedFields = {
  [field in (typeof UPGRADE_INHERITED_FIELDS)[number]]?: never;
};

/**
 * A `vidmodel-2.5` upgrade (`draft_task_id`): a new, separately billed 1080p task from a preview
 * that succeeded less than 7 days ago. Everything else comes from the preview, and the fields
 * typed `never` below ({@link UPGRADE_INHERITED_FIELDS}) are refused even when equal to the
 * preview's, `false`, `0` or `null`.
 *
 * @example
 * const upgrade = await client.videos.create({ model: 'vidmodel-2.5', draft_task_id: preview.task_id });
 * @property prompt - inherited from the preview: never sent in an upgrade.
 * @property image_urls - inherited from the preview: never sent in an upgrade.
 * @property image_with_roles - inherited from the preview: never sent in an upgrade.
 * @property video_urls - inherited from the preview: never sent in an upgrade.
 * @property audio_urls - inherited from the preview: never sent in an upgrade.
 * @property duration - inherited from the preview: never sent in an upgrade.
 * @property size - inherited from the preview: never sent in an upgrade.
 * @property aspect_ratio - inherited from the preview: never sent in an upgrade.
 * @property ratio - inherited from the preview: never sent in an upgrade.
 * @property seed - inherited from the preview: never sent in an upgrade.
 * @property generate_audio - inherited from the preview: never sent in an upgrade.
 * @property audio - inherited from the preview: never sent in an upgrade.
 * @property omni_reference_task_type - inherited from the preview: never sent in an upgrade.
 * @property generation_type - inherited from the preview: never sent in an upgrade.
 * @property camerafixed - inherited from the preview: never sent in an upgrade.
 * @property web_search - inherited from the preview: never sent in an upgrade.
 * @property tools - inherited from the preview: never sent in an upgrade.
 * @property seconds - inherited from the preview: never sent in an upgrade.
 * @property images - inherited from the preview: never sent in an upgrade.
 * @property image - inherited from the preview: never sent in an upgrade.
 * @property input_reference - inherited from the preview: never sent in an upgrade.
 * @property first_frame_image - inherited from the preview: never sent in an upgrade.
 * @property last_frame_image - inherited from the preview: never sent in an upgrade.
 * @property video_list - inherited from the preview: never sent in an upgrade.
 * @property negative_prompt - inherited from the preview: never sent in an upgrade.
 * @property metadata - inherited from the preview: never sent in an upgrade.
 */
export interface Video25UpgradeParams extends VideoTaskAdditions, Video25UpgradeInheritedFields {
  /** `model`. */
  model: 'vidmodel-2.5';
  /** `draft_task_id`: the task ID of a succeeded preview of the same account. */
  draft_task_id: string;
  /** `output_format`: `mp4` or `mov`. @default 'mp4' */
  output_format?: 'mp4' | 'mov' | undefined;
  /** `return_last_frame`: add an authenticated last-frame URL on success. @default false */
  return_last_frame?: boolean | undefined;
  /** `watermark`. @default false */
  watermark?: boolean | undefined;
  /** `resolution`: only `1080p`. @default '1080p' */
  resolution?: '1080p' | undefined;
  /** `draft`: only `false` (or omitted): `draft: true` must not be combined with `draft_task_id`. */
  draft?: false | undefined;
  /** Rejected for upgrades. */
  service_tier?: never;
}

/** A `vidmodel-2.5` request in one of its three shapes. */
export type Video25Params = Video25OrdinaryParams | Video25PreviewParams | Video25UpgradeParams;

/** A request to `vidmodel-2.0-mini`: 480p/720p, 4-15 s. */
export interface VideoMiniParams extends VideoTaskAdditions {
  /** `model`. */
  model: 'vidmodel-2.0-mini';
  /** `prompt`: required, non-empty. Reference media as `@图片1`, `@视频1`, `@音频1` (1-based). */
  prompt: string;
  /** `duration`: whole seconds, 4-15 (-1 is not supported). @default 5 */
  duration?: number | undefined;
  /** `resolution`: `480p` or `720p`. @default '720p' */
  resolution?: '480p' | '720p' | undefined;
  /** `aspect_ratio`: one of seven ratios; must be `adaptive` in first/last-frame tasks. @default '16:9' */
  aspect_ratio?: VideoRatio | undefined;
  /** `ratio`: alias of `aspect_ratio`; must match it when both are set. */
  ratio?: VideoRatio | undefined;
  /** `size`: a ratio value or `adaptive`; must match `aspect_ratio` and `ratio` when set. */
  size?: VideoRatio | undefined;
  /** `seed`: an integer; equal seeds do not guarantee equal output. */
  seed?: number | undefined;
  /** `generate_audio`: `false` gives silent output. @default true */
  generate_audio?: boolean | undefined;
  /** `image_urls`: up to 9 reference images; not with `image_with_roles`. */
  image_urls?: readonly string[] | undefined;
  /** `image_with_roles`: up to 9 images with roles; at most one `first_frame`, one `last_frame`. */
  image_with_roles?: readonly ImageWithRole[] | undefined;
  /** `video_urls`: up to 3 reference videos, at most 15 s in total; not in frame tasks. */
  video_urls?: readonly string[] | undefined;
  /** `audio_urls`: up to 3 audios, at most 15 s in total; need an image or video reference. */
  audio_urls?: readonly string[] | undefined;
  /** `return_last_frame`: add an authenticated last-frame URL on success. @default false */
  return_last_frame?: boolean | undefined;
  /** `nsfw_check`: moderate text and images before generation. @default false */
  nsfw_check?: boolean | undefined;
  /** `tools`: search declarations, `[{ type: 'web_search' }]`. */
  tools?: readonly WebSearchTool[] | undefined;
  /** Not accepted by this model: previews are a `vidmodel-2.5` feature. */
  draft?: never;
  /** Not accepted by this model: upgrades are a `vidmodel-2.5` feature. */
  draft_task_id?: never;
}

/** A request to `motion-v3-motion-control`: a reference image moved by a reference video. */
export interface MotionControlParams extends VideoTaskAdditions {
  /** `model`. */
  model: 'motion-v3-motion-control';
  /** `image_url`: public `http(s)://` URL of the reference image. */
  image_url: string;
  /** `video_url`: public `http(s)://` URL of the motion video, mp4/mov, at most 100 MB. */
  video_url: string;
  /** `character_orientation`: `image` (reference video 3-10 s) or `video` (3-30 s). */
  character_orientation: 'image' | 'video';
  /** `mode`: `std` or `pro`; sets the price per reference second. */
  mode: 'std' | 'pro';
  /** `prompt`: optional motion, camera or style hint. */
  prompt?: string | undefined;
  /** `keep_original_sound`: the strings `yes` or `no`. @default 'yes' */
  keep_original_sound?: 'yes' | 'no' | undefined;
  /** `watermark_info`: `{ enabled: boolean }`. */
  watermark_info?:
    | {
        /** Whether the output carries a watermark. */
        enabled: boolean;
      }
    | undefined;
  /**
   * `duration`: positive whole seconds, an estimate used for pre-deduction only when the server
   * cannot detect the video's length. It neither sets the output length nor caps the charge.
   */
  duration?: number | undefined;
}

/**
 * A request to `vidmodel-2.0` or `vidmodel-2.0-fast`. The spec does not show their fields, so
 * any field passes through; recognisable fields still follow the shared video rules.
 */
export interface VideoLegacyParams extends VideoTaskAdditions {
  /** `model`. */
  model: 'vidmodel-2.0' | 'vidmodel-2.0-fast';
  /** `prompt`: `@图片<n>`, `@视频<n>`, `@音频<n>` must point at existing references. */
  prompt?: string | undefined;
  /** `image_urls`: `http(s)://` URLs or `asset://` references. */
  image_urls?: readonly string[] | undefined;
  /** `video_urls`: `http(s)://` URLs or `asset://` references. */
  video_urls?: readonly string[] | undefined;
  /** `audio_urls`: `http(s)://` URLs or `asset://` references. */
  audio_urls?: readonly string[] | undefined;
  /** Any other field the model accepts, sent unchanged. */
  [field: string]: unknown;
}

/** The body of `videos.create`: one of the video models' request shapes, chosen by `model`. */
export type VideoCreateParams = VideoMiniParams | Video25Params | MotionControlParams | VideoLegacyParams;
