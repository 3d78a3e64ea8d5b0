import { BARE_STRING_MESSAGE, isUploadable, type Uploadable } from '../../core/uploadable.js';
import { acrossFields, addRuleIssue } from '../shared/across-fields.js';
import {
  clientReferenceId,
  httpUrl,
  notificationsSchema,
  refuseFields,
  refuseLegacyWebhookWithNotifications,
} from '../shared/common.js';
import { IMAGE_MODELS } from '../shared/constants.js';
import { required } from '../shared/fast-rules.js';
import { ALWAYS, refuseUnknownFields } from '../shared/unknown-fields.js';
import { parseParams } from '../shared/validate.js';
import { z } from '../shared/zod.js';
import {
  IMAGE_FIELDS,
  IMAGE_ROUTE_FIELDS,
  IMAGE_SIZE,
  type IMAGE_TASK_FIELDS,
  type ImageFieldRule,
} from './fast.js';
import type {
  ImageEditAsyncParams,
  ImageEditParams,
  ImageGenerateAsyncParams,
  ImageGenerateParams,
} from './types.js';

/** Whether `model` is one of the `imgmodel-2.5-*` models, which refuse `image_urls` and `mask`. */
export function isImageModel25(model: unknown): boolean {
  return typeof model === 'string' && model.startsWith('imgmodel-2.5-');
}

// spec: Images — `size` is "Pixel dimensions such as `<W>x<H>`; supported values depend on route".
// "Such as" gives the form of dimensions, not the only value: a word (`auto`) passes to the route.
// A value with digits is meant as dimensions and must have that form, so `1024*1024` is caught.
const SIZE_MESSAGE =
  'must be <W>x<H> with positive integer pixel counts (e.g. 1024x1024), or a word the route supports (e.g. auto)';

/** The schema of each rule of the image fields' table (`IMAGE_FIELDS`). */
const RULE_SCHEMAS = {
  model: z.enum(IMAGE_MODELS, {
    error: `must be one of ${IMAGE_MODELS.join(', ')} (the 2.5 IDs are separate models, not aliases of imgmodel-2)`,
  }),
  prompt: z
    .string({ error: required('a non-empty string describing the result') })
    .refine((value) => value.trim().length > 0, { message: 'must not be empty' }),
  count: z
    .number({ error: 'must be a positive integer (the number of output images)' })
    .int('must be a positive integer (the number of output images)')
    .min(1, 'must be a positive integer (the number of output images)')
    .optional(),
  size: z.string({ error: SIZE_MESSAGE }).regex(IMAGE_SIZE, SIZE_MESSAGE).optional(),
  text: z.string({ error: 'must be a string' }).optional(),
  number: z.number({ error: 'must be a number' }).optional(),
  urls: z.array(httpUrl, { error: 'must be an array of public http(s):// URLs' }).optional(),
} satisfies Record<ImageFieldRule, z.ZodType>;

type ImageFields = typeof IMAGE_FIELDS;
const outputShape = Object.fromEntries(
  Object.entries(IMAGE_FIELDS).map(([field, rule]) => [field, RULE_SCHEMAS[rule]]),
) as { [F in keyof ImageFields]: (typeof RULE_SCHEMAS)[ImageFields[F]] };

const taskShape = {
  notifications: notificationsSchema.optional(),
  client_reference_id: clientReferenceId.optional(),
} satisfies Record<(typeof IMAGE_TASK_FIELDS)[number], z.ZodType>;

type Body = Record<string, unknown>;

const EDIT_HINT =
  'call images.edit (or images.editAsync) with the image files (fileFromPath, fileFromURL, fileFromBase64)';

// spec: Images — `image_urls` "must not be assumed for 2.5".
function refineImageUrls25(value: Body, ctx: z.RefinementCtx): void {
  if (isImageModel25(value.model) && value.image_urls !== undefined) {
    addRuleIssue(ctx, `is not supported by ${value.model} (an imgmodel-2 extension only): ${EDIT_HINT}`, [
      'image_urls',
    ]);
  }
}

// spec: Images, edits — "the 2.5 multipart handler rejects uploaded mask files".
function refineMask25(value: Body, ctx: z.RefinementCtx): void {
  if (isImageModel25(value.model) && value.mask !== undefined) {
    addRuleIssue(
      ctx,
      `is not accepted by ${value.model}: only imgmodel-2 takes a mask (the 2.5 edit route rejects mask files)`,
      ['mask'],
    );
  }
}

function refineSync(value: Body, ctx: z.RefinementCtx, route: string): void {
  // spec: Events, 1 — "Synchronous image generation ... produce[s] no task events".
  refuseFields(
    value,
    ['notifications', 'client_reference_id'],
    ctx,
    `to the synchronous ${route} route, which produces no task events: use images.${route}Async`,
  );
}

const ROUTE_FIELDS = Object.keys(IMAGE_ROUTE_FIELDS);
// spec: Webhook management — legacy provider parameters, never with `notifications`.
const LEGACY_FIELDS = ['webhook', 'callback_url'];
const OUTPUT_FIELDS = [...Object.keys(outputShape), ...ROUTE_FIELDS];
// On the synchronous routes these are refused with a message of their own (they produce no task events).
const taskShapeKeys = Object.keys(taskShape);
const TASK_FIELDS = [...taskShapeKeys, ...LEGACY_FIELDS];

/**
 * The four image bodies: the output and task fields plus `extra` (the edit's files), the rules
 * across fields, `refused` fields with their own message, and unknown fields named.
 */
const imageBody = <Extra extends z.ZodRawShape>(
  operation: string,
  known: readonly string[],
  extra: Extra,
  refused: { fields: string[]; message: string },
  refineMore: (value: Body, ctx: z.RefinementCtx) => void,
) =>
  z
    .looseObject({ ...outputShape, ...taskShape, ...extra })
    .superRefine(
      ...acrossFields(
        refineImageUrls25,
        refineMask25,
        (value, ctx) => refuseFields(value, refused.fields, ctx, refused.message),
        refineMore,
      ),
    )
    .superRefine(
      refuseUnknownFields([...known, ...Object.keys(extra)], operation, [
        ...refused.fields,
        ...taskShapeKeys,
      ]),
      ALWAYS,
    );

/**
 * A route's two bodies: the synchronous one, which refuses the task fields, and the task's
 * (`<route>Async`), which takes them.
 */
const routeBodies = <Extra extends z.ZodRawShape>(
  route: 'generate' | 'edit',
  extra: Extra,
  refused: { fields: string[]; message: string },
) =>
  [
    imageBody(`images.${route}`, OUTPUT_FIELDS, extra, refused, (value, ctx) =>
      refineSync(value, ctx, route),
    ),
    imageBody(
      `images.${route}Async`,
      [...OUTPUT_FIELDS, ...TASK_FIELDS],
      extra,
      refused,
      refuseLegacyWebhookWithNotifications,
    ),
  ] as const;

/**
 * `images.generate` body: model, non-empty prompt, `n`, `size` `<W>x<H>`, no `image_urls` on 2.5,
 * no `image`/`images`; `images.generateAsync` body: the same plus `notifications` and
 * `client_reference_id`.
 */
export const [imageGenerateSchema, imageGenerateAsyncSchema] = routeBodies(
  'generate',
  {},
  // spec: Images — a JSON body holding `image`/`images` "is not equivalent to uploading files to edits".
  { fields: ['image', 'images'], message: `in a JSON generation body (it attaches no file): ${EDIT_HINT}` },
);

const uploadable = z.custom<Uploadable>((value) => isUploadable(value), {
  error: (issue) =>
    typeof issue.input === 'string'
      ? BARE_STRING_MESSAGE
      : 'must be a file: a Blob, File, Buffer, Uint8Array, ArrayBuffer, fs.ReadStream or ReadableStream',
});

const FILES_REQUIRED =
  'is required: one file, or an array of files for several references (fileFromPath, fileFromURL, fileFromBase64)';

const FILES_EXPECTED =
  'must be one file or an array of files: a Blob, File, Buffer, Uint8Array, ArrayBuffer, fs.ReadStream or ReadableStream';

const imageFiles = z
  .custom<Uploadable | Uploadable[]>((value) => value !== undefined && value !== null, {
    error: FILES_REQUIRED,
  })
  .superRefine((value, ctx) => {
    if (!Array.isArray(value)) {
      if (typeof value === 'string' || !isUploadable(value)) {
        addRuleIssue(ctx, typeof value === 'string' ? BARE_STRING_MESSAGE : FILES_EXPECTED);
      }
      return;
    }
    if (value.length === 0) addRuleIssue(ctx, 'must hold at least one file');
    value.forEach((item, i) => {
      const result = uploadable.safeParse(item);
      if (!result.success) addRuleIssue(ctx, result.error.issues[0]?.message ?? '', [i]);
    });
  });

/**
 * `images.edit` params: the output fields, `image` (one file or a non-empty array), `mask`
 * (imgmodel-2 only); `images.editAsync` params: the same plus `notifications` and
 * `client_reference_id`.
 */
export const [imageEditSchema, imageEditAsyncSchema] = routeBodies(
  'edit',
  { image: imageFiles, mask: uploadable.optional() },
  { fields: ['images'], message: 'to edits: pass the files as image (one file or an array of files)' },
);

/**
 * Checks an `images.generate` request. @throws RequestValidationError naming each broken rule.
 * @example parseImageGenerateParams({ model: 'imgmodel-2', prompt: 'a lighthouse at dusk', size: '1024x1024' })
 */
export function parseImageGenerateParams(params: unknown): ImageGenerateParams {
  return parseParams(imageGenerateSchema, params, 'images.generate') as ImageGenerateParams;
}

/** Checks an `images.generateAsync` request. @throws RequestValidationError naming each broken rule. */
export function parseImageGenerateAsyncParams(params: unknown): ImageGenerateAsyncParams {
  return parseParams(imageGenerateAsyncSchema, params, 'images.generateAsync') as ImageGenerateAsyncParams;
}

/**
 * Checks an `images.edit` request's fields (the file bytes are checked by `checkEditFiles`).
 * @throws RequestValidationError naming each broken rule.
 */
export function parseImageEditParams(params: unknown): ImageEditParams {
  return parseParams(imageEditSchema, params, 'images.edit') as ImageEditParams;
}

/** Checks an `images.editAsync` request's fields. @throws RequestValidationError naming each broken rule. */
export function parseImageEditAsyncParams(params: unknown): ImageEditAsyncParams {
  return parseParams(imageEditAsyncSchema, params, 'images.editAsync') as ImageEditAsyncParams;
}
