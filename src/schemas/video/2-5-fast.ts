/**
 * The fields of a `vidmodel-2.5` request with their rules, which the schema (2-5.ts) builds its
 * shape from, and the plain check of a valid ordinary request, without zod. The first request a
 * process validates would otherwise load zod and build every video schema, some 50-100 ms
 * (bench (10)); a body this lets through skips both. Anything else (an alias, a preview or
 * upgrade, another model, any broken rule, any field it does not know) gives `undefined` and is
 * left to the schema, which stays the rule and words every error. A property test holds that the
 * schema accepts, unchanged, every body this lets through.
 */
import {
  IMAGE_ROLES,
  OMNI_REFERENCE_TASK_TYPES,
  V25_LIMITS,
  V25_OUTPUT_FORMATS,
  V25_RESOLUTIONS,
  VIDEO_RATIOS,
} from '../shared/constants.js';
import {
  hasExactly,
  isMediaRef,
  isPlainObject,
  onlyKeys,
  plainObjectList,
  plainStringList,
  plainSubmissionField,
} from '../shared/fast-rules.js';
import { promptReferenceProblems } from './inputs.js';
import type { VideoCreateParams } from './types.js';

/**
 * The fields of a `vidmodel-2.5` generation body (ordinary or preview), each with its rule, in
 * the order the schema names their problems: the schema (2-5.ts) builds its shape from this
 * table, and the plain check below reads it. `images`, `videos` and `audios` are reference lists
 * of at most that many ({@link V25_LIMITS}); `enum` fields take one of {@link V25_ENUMS}.
 */
export const V25_FIELDS = {
  model: 'model',
  prompt: 'prompt',
  duration: 'duration',
  seconds: 'duration',
  resolution: 'enum',
  aspect_ratio: 'enum',
  ratio: 'enum',
  size: 'text',
  image_urls: 'images',
  image_with_roles: 'roles',
  first_frame_image: 'ref',
  last_frame_image: 'ref',
  images: 'images',
  image: 'ref',
  input_reference: 'ref',
  video_urls: 'videos',
  video_list: 'videos',
  audio_urls: 'audios',
  generate_audio: 'boolean',
  audio: 'boolean',
  watermark: 'boolean',
  seed: 'seed',
  output_format: 'enum',
  omni_reference_task_type: 'enum',
  nsfw_check: 'boolean',
  return_last_frame: 'boolean',
  draft: 'boolean',
  negative_prompt: 'text',
  generation_type: 'text',
  camerafixed: 'boolean',
  service_tier: 'text',
  tools: 'tools',
} as const;

/** The rule of one field of {@link V25_FIELDS}. */
export type V25FieldRule = (typeof V25_FIELDS)[keyof typeof V25_FIELDS];

/** The values each `enum` field of {@link V25_FIELDS} takes (a preview takes only 480p). */
export const V25_ENUMS = {
  resolution: V25_RESOLUTIONS,
  aspect_ratio: VIDEO_RATIOS,
  ratio: VIDEO_RATIOS,
  output_format: V25_OUTPUT_FORMATS,
  omni_reference_task_type: OMNI_REFERENCE_TASK_TYPES,
} as const;

/** spec: Limits — `duration`: an integer from 4 to 30, or -1 for automatic. */
export function isV25Duration(value: unknown): boolean {
  return (
    value === -1 ||
    (Number.isInteger(value) &&
      (value as number) >= V25_LIMITS.minDuration &&
      (value as number) <= V25_LIMITS.maxDuration)
  );
}

/**
 * The fields of {@link V25_FIELDS} this leaves to the schema: the input aliases (src/schemas/video/inputs.ts),
 * `size` and `draft`. Nor does it read `draft_task_id` or the legacy `webhook`/`callback_url`.
 */
const LEFT_TO_SCHEMA = new Set([
  'seconds',
  'images',
  'image',
  'input_reference',
  'video_list',
  'first_frame_image',
  'last_frame_image',
  'size',
  'draft',
]);

const RULES: Readonly<Record<string, V25FieldRule>> = V25_FIELDS;
const ENUMS: Readonly<Record<string, readonly unknown[]>> = V25_ENUMS;

/** The fields of an ordinary request this reads: its own of {@link V25_FIELDS}, and the task additions. */
const FIELDS = new Set([
  ...Object.keys(V25_FIELDS).filter((key) => !LEFT_TO_SCHEMA.has(key)),
  'notifications',
  'client_reference_id',
]);

const isRoleItem = (item: Record<string, unknown>) =>
  hasExactly(item, ['url', 'role']) &&
  typeof item.url === 'string' &&
  isMediaRef(item.url) &&
  (IMAGE_ROLES as readonly unknown[]).includes(item.role);

const isTool = (item: Record<string, unknown>) => hasExactly(item, ['type']) && item.type === 'web_search';

/** One field's copy when its value keeps its own rule, else `undefined` (an unset field is kept as it is). */
function plainField(key: string, value: unknown): { value: unknown } | undefined {
  if (value === undefined) return { value };
  const rule = RULES[key];
  switch (rule) {
    case 'model':
      return value === 'vidmodel-2.5' ? { value } : undefined;
    case 'prompt':
      return typeof value === 'string' && value.trim().length > 0 ? { value } : undefined;
    case 'duration':
      return isV25Duration(value) ? { value } : undefined;
    case 'boolean':
      return typeof value === 'boolean' ? { value } : undefined;
    case 'text':
      return typeof value === 'string' ? { value } : undefined;
    case 'enum':
      return ENUMS[key]?.includes(value) ? { value } : undefined;
    case 'seed':
      return Number.isSafeInteger(value) ? { value } : undefined;
    case 'images':
    case 'videos':
    case 'audios': {
      const list = plainStringList(value, V25_LIMITS[rule], isMediaRef);
      return list && { value: list };
    }
    case 'roles': {
      const list = plainObjectList(value, Number.POSITIVE_INFINITY, isRoleItem);
      return list && { value: list };
    }
    case 'tools': {
      const list = plainObjectList(value, Number.POSITIVE_INFINITY, isTool);
      return list && { value: list };
    }
    case 'ref':
      return undefined;
    default:
      return plainSubmissionField(key, value);
  }
}

/** The rules across fields (spec: Video), on a body whose fields each keep their own rule. */
function crossFieldRulesHold(body: Record<string, unknown>): boolean {
  const length = (key: string) => (Array.isArray(body[key]) ? (body[key] as unknown[]).length : 0);
  const roles = (body.image_with_roles ?? []) as Array<{ role: string }>;
  const counts = {
    images: length('image_urls') + roles.length,
    videos: length('video_urls'),
    audios: length('audio_urls'),
  };
  if (counts.images > V25_LIMITS.images) return false;
  // Aliases must agree with their field.
  for (const [a, b] of [
    ['ratio', 'aspect_ratio'],
    ['audio', 'generate_audio'],
  ] as const) {
    if (body[a] !== undefined && body[b] !== undefined && body[a] !== body[b]) return false;
  }
  // Each frame role at most once.
  const first = roles.filter((r) => r.role === 'first_frame').length;
  const last = roles.filter((r) => r.role === 'last_frame').length;
  if (first > 1 || last > 1) return false;
  // spec: Video — task types: frame, edit and extend tasks need `adaptive`; edit and extend need a
  // source video; edit takes only duration -1 or none.
  const type = body.omni_reference_task_type;
  const frameTask = first + last > 0 && counts.videos === 0 && counts.audios === 0;
  if ((type === 'edit' || type === 'extend') && counts.videos === 0) return false;
  if (type === 'edit' && body.duration !== undefined && body.duration !== -1) return false;
  if (frameTask || type === 'edit' || type === 'extend') {
    for (const key of ['aspect_ratio', 'ratio']) {
      if (body[key] !== undefined && body[key] !== 'adaptive') return false;
    }
  }
  return promptReferenceProblems(body.prompt as string, counts).length === 0;
}

/**
 * The body of a plain, valid `vidmodel-2.5` ordinary request, as a copy (what is sent is what was
 * checked); `undefined` for anything else, which the schema then decides.
 */
export function plainVideo25Request(params: unknown): VideoCreateParams | undefined {
  if (!isPlainObject(params) || params.model !== 'vidmodel-2.5' || !onlyKeys(params, FIELDS))
    return undefined;
  const body: Record<string, unknown> = {};
  for (const key in params) {
    const field = plainField(key, params[key]);
    if (field === undefined) return undefined;
    body[key] = field.value;
  }
  if (typeof body.prompt !== 'string') return undefined;
  return crossFieldRulesHold(body) ? (body as unknown as VideoCreateParams) : undefined;
}
