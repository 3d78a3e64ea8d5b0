/**
 * The plain check of a valid `vidmodel-2.5` ordinary request, without zod. The first request a
 * process validates would otherwise load zod and build every video schema, some 50-100 ms
 * (bench (10)); a body this lets through skips both. Anything else (an alias, a preview or
 * upgrade, another model, any broken rule, any field it does not know) gives `undefined` and is
 * left to the schema, which stays the rule and words every error. A property test holds that the
 * schema accepts, unchanged, every body this lets through.
 */
import { IMAGE_ROLES, V25_LIMITS, VIDEO_RATIOS } from '../shared/constants.js';
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

const BOOLEANS = new Set([
  'generate_audio',
  'audio',
  'watermark',
  'nsfw_check',
  'return_last_frame',
  'camerafixed',
]);
const TEXTS = new Set(['negative_prompt', 'generation_type', 'service_tier']);
const ENUMS: Record<string, readonly unknown[]> = {
  resolution: ['480p', '720p', '1080p'],
  aspect_ratio: VIDEO_RATIOS,
  ratio: VIDEO_RATIOS,
  output_format: ['mp4', 'mov'],
  omni_reference_task_type: ['auto', 'reference', 'edit', 'extend'],
};
const LISTS: Record<string, number> = {
  image_urls: V25_LIMITS.images,
  video_urls: V25_LIMITS.videos,
  audio_urls: V25_LIMITS.audios,
};

/**
 * The fields of an ordinary request this reads. Not here, so left to the schema: the input
 * aliases (`seconds`, `images`, `image`, `input_reference`, `video_list`, `first_frame_image`,
 * `last_frame_image`), `size`, `draft`, `draft_task_id`, the legacy `webhook`/`callback_url`.
 */
const FIELDS = new Set([
  'model',
  'prompt',
  'duration',
  'image_with_roles',
  'seed',
  'tools',
  'notifications',
  'client_reference_id',
  ...BOOLEANS,
  ...TEXTS,
  ...Object.keys(ENUMS),
  ...Object.keys(LISTS),
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
  if (BOOLEANS.has(key)) return typeof value === 'boolean' ? { value } : undefined;
  if (TEXTS.has(key)) return typeof value === 'string' ? { value } : undefined;
  const allowed = ENUMS[key];
  if (allowed) return allowed.includes(value) ? { value } : undefined;
  const max = LISTS[key];
  if (max !== undefined) {
    const list = plainStringList(value, max, isMediaRef);
    return list && { value: list };
  }
  switch (key) {
    case 'model':
      return value === 'vidmodel-2.5' ? { value } : undefined;
    case 'prompt':
      return typeof value === 'string' && value.trim().length > 0 ? { value } : undefined;
    case 'duration':
      // spec: Limits — an integer from 4 to 30, or -1 for automatic.
      return value === -1 ||
        (Number.isInteger(value) &&
          (value as number) >= V25_LIMITS.minDuration &&
          (value as number) <= V25_LIMITS.maxDuration)
        ? { value }
        : undefined;
    case 'seed':
      return Number.isSafeInteger(value) ? { value } : undefined;
    case 'image_with_roles': {
      const list = plainObjectList(value, Number.POSITIVE_INFINITY, isRoleItem);
      return list && { value: list };
    }
    case 'tools': {
      const list = plainObjectList(value, Number.POSITIVE_INFINITY, isTool);
      return list && { value: list };
    }
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
