import { acrossFields } from '../shared/across-fields.js';
import { z } from '../shared/zod.js';
import {
  commonVideoRules,
  imageWithRolesSchema,
  jsonBoolean,
  mediaRef,
  mediaRefList,
  taskAdditionsShape,
  textField,
} from './shared.js';

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
