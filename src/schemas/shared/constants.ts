/**
 * The model IDs and enumerations of the spec, with no zod: `mediagw` exports them, and importing
 * `mediagw` does not load the request schemas (they load on the first request they check).
 */

/** The video model IDs the SDK knows, in the order the spec lists them. */
export const VIDEO_MODELS = [
  'vidmodel-2.0-mini',
  'vidmodel-2.5',
  'motion-v3-motion-control',
  'vidmodel-2.0',
  'vidmodel-2.0-fast',
] as const;

/** One of {@link VIDEO_MODELS}. */
export type VideoModel = (typeof VIDEO_MODELS)[number];

/** spec: Video — the seven values of `aspect_ratio` (and its alias `ratio`) for mini and 2.5. */
export const VIDEO_RATIOS = ['16:9', '9:16', '1:1', '4:3', '3:4', '21:9', 'adaptive'] as const;

/** Output proportion of a video, or `adaptive` (the first image or source video sets it). */
export type VideoRatio = (typeof VIDEO_RATIOS)[number];

/** spec: Video — roles of `image_with_roles` items. */
export const IMAGE_ROLES = ['first_frame', 'last_frame', 'reference_image'] as const;

/** Role of one `image_with_roles` item. */
export type ImageRole = (typeof IMAGE_ROLES)[number];

/** spec: Limits — vidmodel-2.5: 4-30 s or -1, 30 images, 10 videos, 10 audios. */
export const V25_LIMITS = { minDuration: 4, maxDuration: 30, images: 30, videos: 10, audios: 10 } as const;

/** spec: Video — `resolution` of an ordinary `vidmodel-2.5` request; a preview renders at 480p only, an upgrade at 1080p. */
export const V25_RESOLUTIONS = ['480p', '720p', '1080p'] as const;

/** spec: Video — `output_format` of `vidmodel-2.5`. */
export const V25_OUTPUT_FORMATS = ['mp4', 'mov'] as const;

/** spec: Video — `omni_reference_task_type` of `vidmodel-2.5`. */
export const OMNI_REFERENCE_TASK_TYPES = ['auto', 'reference', 'edit', 'extend'] as const;

/** spec: Limits — the reference video's length by `character_orientation`: 3-10 s or 3-30 s. */
export const MOTION_ORIENTATION_CEILING = { image: 10, video: 30 } as const;

// spec: Video, "Preview upgrade" — "These inherited fields must not be resent, even if equal to the
// original, false, 0 or null".
/** The fields an upgrade (`draft_task_id`) inherits from its preview and must never resend. */
export const UPGRADE_INHERITED_FIELDS = [
  'prompt',
  'image_urls',
  'image_with_roles',
  'video_urls',
  'audio_urls',
  'duration',
  'size',
  'aspect_ratio',
  'ratio',
  'seed',
  'generate_audio',
  'audio',
  'omni_reference_task_type',
  'generation_type',
  'camerafixed',
  'web_search',
  'tools',
  'seconds',
  'images',
  'image',
  'input_reference',
  'first_frame_image',
  'last_frame_image',
  'video_list',
  'negative_prompt',
  'metadata',
] as const;

/** The task event types a request may subscribe to (spec: Webhook management). */
export const SUBSCRIBABLE_EVENTS = ['task.completed', 'task.failed', 'batch.completed'] as const;

/** spec: What the service does, 2 — the image model IDs; the 2.5 IDs are not aliases of `imgmodel-2`. */
export const IMAGE_MODELS = ['imgmodel-2', 'imgmodel-2.5-sunburst', 'imgmodel-2.5-flare'] as const;

/** One of {@link IMAGE_MODELS}. */
export type ImageModel = (typeof IMAGE_MODELS)[number];

/** spec: Embeddings — the embedding model IDs. */
export const EMBEDDING_MODELS = ['text-embedding-3-small', 'bge-m3'] as const;

/** One of {@link EMBEDDING_MODELS}. */
export type EmbeddingModel = (typeof EMBEDDING_MODELS)[number];

/** spec: Embeddings — `encoding_format` values: `float` gives numeric arrays, `base64` packed float32 text. */
export const ENCODING_FORMATS = ['float', 'base64'] as const;

/** spec: Embeddings — vector length of each model when `dimensions` is not set. */
export const EMBEDDING_DIMENSIONS: Readonly<Record<EmbeddingModel, number>> = {
  'text-embedding-3-small': 1536,
  'bge-m3': 1024,
};

/** spec: Library material — `asset_type` values (case-sensitive). */
export const ASSET_TYPES = ['Image', 'Video', 'Audio'] as const;

/** spec: Library material — `status` values (case-sensitive). */
export const ASSET_STATUSES = ['Pending', 'Active', 'Failed'] as const;

/**
 * spec: Limits, Library material — in characters (code points): a group's or material's name, a
 * group's description, a material's URL; and the materials of one review batch (1 to `assets`).
 */
export const LIBRARY_LIMITS = { name: 255, description: 4000, url: 8192, assets: 20 } as const;

/** The type of a library material. */
export type AssetType = (typeof ASSET_TYPES)[number];

/** The review status of a library material; only `Active` materials may be referenced. */
export type AssetStatus = (typeof ASSET_STATUSES)[number];
