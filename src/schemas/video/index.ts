import { acrossFields } from '../shared/across-fields.js';
import { VIDEO_MODELS } from '../shared/constants.js';
import { parseParams } from '../shared/validate.js';
import { z } from '../shared/zod.js';
import { video25Schema } from './2-5.js';
import { videoMiniSchema } from './mini.js';
import { motionControlSchema } from './motion.js';
import {
  commonVideoRules,
  imageWithRolesSchema,
  jsonBoolean,
  mediaRef,
  mediaRefList,
  taskAdditionsShape,
  textField,
} from './shared.js';
import type { VideoCreateParams } from './types.js';

export { type Video25RequestKind, video25RequestKind } from './2-5.js';
export type * from './types.js';

/** The model IDs whose request fields the spec does not show. */
export const LEGACY_VIDEO_MODELS = ['vidmodel-2.0', 'vidmodel-2.0-fast'] as const;

const UNBOUNDED = Number.MAX_SAFE_INTEGER;

/**
 * The request body of `vidmodel-2.0` and `vidmodel-2.0-fast`. The spec does not show their
 * fields, so every field passes through; the rules shared by all video requests still apply
 * where a field is recognisable: booleans are JSON booleans, media fields are `http(s)://` or
 * `asset://`, prompt references point at existing media, `notifications` and
 * `client_reference_id` follow the task request additions.
 */
export const videoLegacySchema = z
  .looseObject({
    model: z.enum(LEGACY_VIDEO_MODELS),
    prompt: textField.optional(),
    image_urls: mediaRefList(UNBOUNDED, 'images', 'this model').optional(),
    image_with_roles: imageWithRolesSchema.optional(),
    first_frame_image: mediaRef.optional(),
    last_frame_image: mediaRef.optional(),
    video_urls: mediaRefList(UNBOUNDED, 'videos', 'this model').optional(),
    audio_urls: mediaRefList(UNBOUNDED, 'audios', 'this model').optional(),
    generate_audio: jsonBoolean.optional(),
    audio: jsonBoolean.optional(),
    watermark: jsonBoolean.optional(),
    nsfw_check: jsonBoolean.optional(),
    return_last_frame: jsonBoolean.optional(),
    draft: jsonBoolean.optional(),
    camerafixed: jsonBoolean.optional(),
    ...taskAdditionsShape,
  })
  .superRefine(...acrossFields(...commonVideoRules()));

/**
 * Every video request body, discriminated on `model`. An unknown or missing model gives one
 * issue at `model` listing the known models. Parsing returns the caller's fields unchanged: no
 * default is filled in and no key is added.
 */
export const videoRequestSchema = z.discriminatedUnion(
  'model',
  [videoMiniSchema, video25Schema, motionControlSchema, videoLegacySchema],
  {
    error: (issue) =>
      issue.code === 'invalid_union'
        ? `must be one of the video models: ${VIDEO_MODELS.join(', ')}`
        : issue.code === 'invalid_type'
          ? 'the request body must be an object'
          : undefined,
  },
);

/**
 * Checks a `videos.create` body against the rules of its model before anything is sent.
 * Returns the same fields the caller gave (never adds defaults, because the gateway's defaults
 * changed on 2026-10-01 and may change again).
 *
 * @throws {RequestValidationError} with operation `videos.create` and one issue per broken rule,
 * each naming the field path (`image_with_roles[1].role`) and the rule in words.
 * @example
 * parseVideoRequest({ model: 'vidmodel-2.0-mini', prompt: 'a red kite', duration: 5 });
 */
export function parseVideoRequest(params: unknown): VideoCreateParams {
  // The schema checks exactly the shapes VideoCreateParams describes; unknown fields pass through.
  return parseParams(videoRequestSchema, params, 'videos.create') as VideoCreateParams;
}
