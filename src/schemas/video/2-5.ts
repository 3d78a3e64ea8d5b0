import { acrossFields, addRuleIssue } from '../shared/across-fields.js';
import { refuseFields, refuseLegacyWebhookWithNotifications } from '../shared/common.js';
import { UPGRADE_INHERITED_FIELDS, V25_LIMITS } from '../shared/constants.js';
import { spokenList } from '../shared/fast-rules.js';
import { z } from '../shared/zod.js';
import { isV25Duration, V25_ENUMS, V25_FIELDS, type V25FieldRule } from './2-5-fast.js';
import { aliasConflicts, givenNames, inputDuration, writtenName } from './inputs.js';
import {
  checkAgreement,
  checkSingleFrameRoles,
  commonVideoRules,
  frameRoles,
  imageWithRolesSchema,
  jsonBoolean,
  mediaRef,
  mediaRefList,
  ratioSchema,
  referenceCounts,
  requiredPrompt,
  seedSchema,
  taskAdditionsShape,
  textField,
  toolsSchema,
} from './shared.js';

// Upgrades of a preview (`draft_task_id`): a body of their own, refused fields included.

/** The only fields an upgrade body may hold (the task request additions included). */
export const UPGRADE_ALLOWED_FIELDS = [
  'model',
  'draft_task_id',
  'output_format',
  'return_last_frame',
  'watermark',
  'resolution',
  'notifications',
  'client_reference_id',
] as const;

const ALLOWED = new Set<string>(UPGRADE_ALLOWED_FIELDS);
const INHERITED = new Set<string>(UPGRADE_INHERITED_FIELDS);
const ALLOWED_TEXT =
  'model, draft_task_id and optionally output_format, return_last_frame, watermark, resolution';

function refusal(field: string, value: unknown): string {
  if (INHERITED.has(field)) {
    return 'is inherited from the preview and must not be resent in an upgrade (draft_task_id), even when equal, false, 0 or null';
  }
  if (field === 'draft') {
    return value === true
      ? 'draft_task_id and draft: true must not be combined: send draft_task_id alone to upgrade a preview'
      : `must not be sent with draft_task_id: an upgrade body holds only ${ALLOWED_TEXT}`;
  }
  if (field === 'service_tier') return 'is rejected for an upgrade (draft_task_id): ordinary generation only';
  return `is not accepted in an upgrade (draft_task_id): the body holds only ${ALLOWED_TEXT}, notifications, client_reference_id`;
}

/**
 * The `vidmodel-2.5` preview upgrade body (`draft_task_id`): a new 1080p task from a succeeded
 * preview under 7 days old. Every other field is refused, whatever its value.
 */
export const video25UpgradeSchema = z
  .looseObject({
    model: z.literal('vidmodel-2.5'),
    draft_task_id: z
      .string({ error: 'must be the task ID of a succeeded vidmodel-2.5 preview (draft: true)' })
      .min(1, { message: 'must be the task ID of a succeeded vidmodel-2.5 preview (draft: true)' }),
    output_format: z.enum(['mp4', 'mov'], { error: 'must be mp4 or mov' }).optional(),
    return_last_frame: jsonBoolean.optional(),
    watermark: jsonBoolean.optional(),
    // spec: Video — "Resolution may be omitted (becomes `1080p`); any other value gives 400."
    resolution: z
      .literal('1080p', { error: "an upgrade renders at 1080p only: omit resolution or set '1080p'" })
      .optional(),
    ...taskAdditionsShape,
  })
  .superRefine(
    ...acrossFields(refuseLegacyWebhookWithNotifications, (body, ctx) => {
      for (const field of Object.keys(body)) {
        // An allowed field is never read here: its own rule judges it.
        if (ALLOWED.has(field)) continue;
        const value = body[field];
        if (value === undefined) continue;
        // spec: Video — only "`draft_task_id` and `draft: true` must not be combined".
        if (field === 'draft' && value === false) continue;
        addRuleIssue(ctx, refusal(field, value), [field]);
      }
    }),
  );

const MODEL = 'vidmodel-2.5';

/** The three request shapes of `vidmodel-2.5`, chosen by the body. */
export type Video25RequestKind = 'ordinary' | 'preview' | 'upgrade';

/**
 * Which `vidmodel-2.5` shape a body is: `upgrade` when `draft_task_id` is present, `preview` when
 * `draft` is `true`, otherwise `ordinary`.
 */
export function video25RequestKind(body: Record<string, unknown>): Video25RequestKind {
  if (body.draft_task_id !== undefined) return 'upgrade';
  return body.draft === true ? 'preview' : 'ordinary';
}

const durationMessage = `must be an integer from ${V25_LIMITS.minDuration} to ${V25_LIMITS.maxDuration}, or -1 for automatic, for ${MODEL}`;

const durationSchema = z
  .number({ error: durationMessage })
  .refine(isV25Duration, { message: durationMessage });

const { resolution, output_format, omni_reference_task_type } = V25_ENUMS;

/** The schema of each optional rule of {@link V25_FIELDS} that holds the same for every field. */
const OPTIONAL_RULES = {
  duration: durationSchema,
  boolean: jsonBoolean,
  text: textField,
  seed: seedSchema,
  ref: mediaRef,
  roles: imageWithRolesSchema,
  tools: toolsSchema,
} satisfies Partial<Record<V25FieldRule, z.ZodType>>;

/** The schema of one field of {@link V25_FIELDS}, by its rule. */
function fieldSchema(field: string, rule: V25FieldRule, kind: 'ordinary' | 'preview'): z.ZodType {
  switch (rule) {
    case 'model':
      return z.literal(MODEL);
    case 'prompt':
      return requiredPrompt;
    case 'images':
    case 'videos':
    case 'audios':
      return mediaRefList(V25_LIMITS[rule], rule, MODEL).optional();
    case 'enum':
      return enumSchema(field, kind).optional();
    default:
      return OPTIONAL_RULES[rule].optional();
  }
}

function enumSchema(field: string, kind: 'ordinary' | 'preview'): z.ZodType {
  switch (field) {
    case 'resolution':
      // spec: Video — "preview and upgrade accept only their own value"; a preview defaults to 480p.
      return kind === 'preview'
        ? z.literal('480p', {
            error: "a preview (draft: true) renders at 480p only: omit resolution or set '480p'",
          })
        : z.enum(resolution, { error: `must be ${spokenList(resolution)} for ${MODEL}` });
    case 'output_format':
      return z.enum(output_format, { error: `must be ${spokenList(output_format)}` });
    case 'omni_reference_task_type':
      return z.enum(omni_reference_task_type, {
        error: `must be one of ${omni_reference_task_type.join(', ')}`,
      });
    default:
      return ratioSchema;
  }
}

// spec: Video, "Preview upgrade" — the input aliases are held to the rules of their field
// (src/schemas/video/inputs.ts says which field each stands for).
function generationShape(kind: 'ordinary' | 'preview') {
  const shape: Record<string, z.ZodType> = {};
  for (const [field, rule] of Object.entries(V25_FIELDS)) shape[field] = fieldSchema(field, rule, kind);
  return { ...shape, ...taskAdditionsShape };
}

function checkFrameAliases(body: Record<string, unknown>, ctx: z.RefinementCtx): void {
  const roles = new Set(frameRoles(body).map((f) => f.role));
  for (const [alias, role] of [
    ['first_frame_image', 'first_frame'],
    ['last_frame_image', 'last_frame'],
  ] as const) {
    if (body[alias] !== undefined && roles.has(role)) {
      addRuleIssue(
        ctx,
        `is an alias of the ${role} role: give the ${role} image once, not also in image_with_roles`,
        [alias],
      );
    }
  }
}

// spec: Video — "frame, edit and extend tasks require `adaptive`"; task-type validation table.
// Every input alias counts as the field it stands for.
function checkTaskType(body: Record<string, unknown>, ctx: z.RefinementCtx): void {
  const counts = referenceCounts(body);
  const type = body.omni_reference_task_type;
  const needsAdaptive: string[] = [];
  const hasFrames =
    frameRoles(body).length > 0 ||
    body.first_frame_image !== undefined ||
    body.last_frame_image !== undefined;
  // spec: Video — "If video or audio references accompany frame roles, the frames may be treated
  // as general references": only frames without them make a first/last-frame task.
  if (hasFrames && counts.videos === 0 && counts.audios === 0) needsAdaptive.push('a first/last-frame task');
  if (type === 'edit' || type === 'extend') {
    needsAdaptive.push(`an ${type} task`);
    if (counts.videos === 0) {
      addRuleIssue(
        ctx,
        `an ${type} task (omni_reference_task_type: '${type}') needs at least one video_urls entry: the source video`,
        ['video_urls'],
      );
    }
  }
  const duration = inputDuration(body);
  if (type === 'edit' && duration !== undefined && duration !== -1) {
    addRuleIssue(
      ctx,
      "an edit task (omni_reference_task_type: 'edit') accepts only duration -1 (automatic) or omitted",
      [writtenName(body, 'duration')],
    );
  }
  const explicit = ['aspect_ratio', 'ratio'].find((f) => body[f] !== undefined && body[f] !== 'adaptive');
  if (needsAdaptive.length > 0 && explicit) {
    addRuleIssue(ctx, `must be 'adaptive' or omitted in ${needsAdaptive.join(' and ')}`, [explicit]);
  }
}

// spec: Errors — "conflicting aliases" give HTTP 400: an input alias set beside its field must
// hold the same value.
function checkInputAliasAgreement(body: Record<string, unknown>, ctx: z.RefinementCtx): void {
  for (const [alias, other] of aliasConflicts(body)) {
    addRuleIssue(
      ctx,
      `is an alias of ${other === 'seconds' ? 'duration' : other}: must match ${other} when both are set`,
      [alias],
    );
  }
}

function generationSchema(kind: 'ordinary' | 'preview') {
  return z.looseObject(generationShape(kind)).superRefine(
    ...acrossFields(
      ...commonVideoRules(['image', 'images', 'input_reference', 'video_list']),
      (body, ctx) => checkAgreement(body, 'ratio', 'aspect_ratio', ctx),
      (body, ctx) => checkAgreement(body, 'audio', 'generate_audio', ctx),
      checkInputAliasAgreement,
      checkFrameAliases,
      checkSingleFrameRoles,
      (body, ctx) => {
        const counts = referenceCounts(body);
        if (counts.images > V25_LIMITS.images) {
          ctx.addIssue({
            code: 'custom',
            path: [givenNames(body, 'image_urls')[0] ?? 'image_with_roles'],
            message: `at most ${V25_LIMITS.images} images for ${MODEL}, counting image_urls (and its aliases images, image, input_reference), image_with_roles and the frame aliases (got ${counts.images})`,
          });
        }
      },
      checkTaskType,
      (body, ctx) => {
        if (kind !== 'preview') return;
        // spec: Video — service_tier "rejected for preview and upgrade"; generation_type and
        // camerafixed are for "ordinary generation only".
        refuseFields(
          body,
          ['service_tier', 'generation_type', 'camerafixed'],
          ctx,
          'in a preview (draft: true): ordinary generation only',
        );
      },
    ),
  );
}

/** `vidmodel-2.5` ordinary generation (no `draft`, no `draft_task_id`). */
export const video25OrdinarySchema = generationSchema('ordinary');

/** `vidmodel-2.5` 480p preview (`draft: true`). */
export const video25PreviewSchema = generationSchema('preview');

const SHAPES = {
  ordinary: video25OrdinarySchema,
  preview: video25PreviewSchema,
  upgrade: video25UpgradeSchema,
} as const;

/**
 * The request body of `vidmodel-2.5` (spec: Video, "`vidmodel-2.5` fields"), checked by the shape
 * {@link video25RequestKind} picks. Fields the spec does not name pass through on ordinary and
 * preview requests; no default is ever filled in.
 */
export const video25Schema = z.looseObject({ model: z.literal(MODEL) }).superRefine((body, ctx) => {
  const result = SHAPES[video25RequestKind(body)].safeParse(body);
  if (result.success) return;
  for (const issue of result.error.issues) {
    ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
  }
});
