import { VIDEO_MODELS } from '../shared/constants.js';
import { parseParams } from '../shared/validate.js';
import { z } from '../shared/zod.js';
import { video25Schema } from './2-5.js';
import { videoLegacySchema } from './legacy.js';
import { videoMiniSchema } from './mini.js';
import { motionControlSchema } from './motion.js';
import type { VideoCreateParams } from './types.js';

export { type Video25RequestKind, video25RequestKind } from './2-5.js';
export type * from './types.js';

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
