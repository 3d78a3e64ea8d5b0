import type { Video25Params } from './2-5-types.js';
import type { ImageWithRole, VideoTaskAdditions, WebSearchTool } from './request-fields.js';
import type { VideoRatio } from './shared.js';

export type {
  Video25OrdinaryParams,
  Video25Params,
  Video25PreviewParams,
  Video25UpgradeParams,
} from './2-5-types.js';
export type { ImageWithRole, VideoTaskAdditions, WebSearchTool } from './request-fields.js';

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
