import { acrossFields, addRuleIssue, ON_ARRAYS } from '../shared/across-fields.js';
import { refuseFields } from '../shared/common.js';
import { z } from '../shared/zod.js';
import {
  checkAgreement,
  checkSingleFrameRoles,
  commonVideoRules,
  frameRoles,
  imageWithRolesSchema,
  jsonBoolean,
  mediaRefList,
  ratioSchema,
  referenceCounts,
  requiredPrompt,
  seedSchema,
  taskAdditionsShape,
  toolsSchema,
} from './shared.js';

const MODEL = 'vidmodel-2.0-mini';

/** spec: Video — mini limits: duration 4-15 s, 9 images, 3 videos, 3 audios. */
export const MINI_LIMITS = { minDuration: 4, maxDuration: 15, images: 9, videos: 3, audios: 3 } as const;

const durationMessage = `must be an integer from 4 to 15 for ${MODEL} (-1 is not supported)`;

/**
 * The request body of `vidmodel-2.0-mini` (spec: Video, "`vidmodel-2.0-mini` fields"). Fields the
 * spec does not name pass through unchanged; no default is ever filled in.
 */
export const videoMiniSchema = z
  .looseObject({
    model: z.literal(MODEL),
    prompt: requiredPrompt,
    duration: z
      .number({ error: durationMessage })
      .refine((n) => Number.isInteger(n) && n >= 4 && n <= 15, { message: durationMessage })
      .optional(),
    resolution: z.enum(['480p', '720p'], { error: `must be 480p or 720p for ${MODEL}` }).optional(),
    aspect_ratio: ratioSchema.optional(),
    ratio: ratioSchema.optional(),
    size: ratioSchema.optional(),
    seed: seedSchema.optional(),
    generate_audio: jsonBoolean.optional(),
    image_urls: mediaRefList(MINI_LIMITS.images, 'images', MODEL).optional(),
    image_with_roles: imageWithRolesSchema
      .max(MINI_LIMITS.images, { message: `must hold at most 9 images for ${MODEL}`, ...ON_ARRAYS })
      .optional(),
    video_urls: mediaRefList(MINI_LIMITS.videos, 'videos', MODEL).optional(),
    audio_urls: mediaRefList(MINI_LIMITS.audios, 'audios', MODEL).optional(),
    return_last_frame: jsonBoolean.optional(),
    nsfw_check: jsonBoolean.optional(),
    tools: toolsSchema.optional(),
    ...taskAdditionsShape,
  })
  .superRefine(
    ...acrossFields(
      (body, ctx) =>
        // spec: Video — "The fields `draft` and `draft_task_id` must not be sent to this model."
        refuseFields(
          body,
          ['draft', 'draft_task_id'],
          ctx,
          `to ${MODEL}: preview and upgrade exist only for vidmodel-2.5`,
        ),
      ...commonVideoRules(),
      (body, ctx) => checkAgreement(body, 'ratio', 'aspect_ratio', ctx),
      (body, ctx) => checkAgreement(body, 'size', 'aspect_ratio', ctx),
      (body, ctx) => {
        if (body.aspect_ratio === undefined) checkAgreement(body, 'size', 'ratio', ctx);
      },
      (body, ctx) => {
        if (body.image_urls !== undefined && body.image_with_roles !== undefined) {
          addRuleIssue(
            ctx,
            `must not be combined with image_urls for ${MODEL}: put every image in image_with_roles with a role`,
            ['image_with_roles'],
          );
        }
      },
      (body, ctx) => checkSingleFrameRoles(body, ctx),
      (body, ctx) => {
        const frames = frameRoles(body);
        const firstFrame = frames.find((f) => f.role === 'first_frame');
        for (const frame of frames) {
          if (frame.role === 'last_frame' && !firstFrame) {
            addRuleIssue(ctx, 'a last_frame needs a first_frame image in the same request', [
              'image_with_roles',
              frame.index,
              'role',
            ]);
          }
        }
      },
      (body, ctx) => {
        if (frameRoles(body).length === 0) return;
        // spec: Video — "For first/last-frame tasks `aspect_ratio` must be `adaptive` and `video_urls`
        // and `audio_urls` must be omitted." Mini's default ratio is 16:9, so omitting it is refused too.
        const field = ['aspect_ratio', 'ratio', 'size'].find((f) => body[f] !== undefined) ?? 'aspect_ratio';
        const ratio = body[field];
        if (ratio !== 'adaptive') {
          addRuleIssue(
            ctx,
            ratio === undefined
              ? `a first/last-frame task needs aspect_ratio: 'adaptive' set explicitly (${MODEL} defaults to 16:9)`
              : `must be 'adaptive' in a first/last-frame task`,
            [field],
          );
        }
      },
      (body, ctx) => {
        if (frameRoles(body).length > 0)
          refuseFields(body, ['video_urls', 'audio_urls'], ctx, 'in a first/last-frame task');
      },
      (body, ctx) => {
        const counts = referenceCounts(body);
        if (counts.audios > 0 && counts.images === 0 && counts.videos === 0) {
          addRuleIssue(ctx, `audio references need at least one image or video reference for ${MODEL}`, [
            'audio_urls',
          ]);
        }
      },
    ),
  );
