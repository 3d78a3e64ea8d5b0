/**
 * The plain check of a valid `images.generate` / `images.generateAsync` body, without zod, so a
 * process's first image request does not load zod and build the image schemas (bench (10)).
 * Anything it does not let through (another field, a broken rule) gives `undefined` and is left
 * to the schema, which stays the rule and words every error. A property test holds that the
 * schema accepts, unchanged, every body this lets through.
 */
import { IMAGE_MODELS } from '../shared/constants.js';
import {
  isHttpUrl,
  isPlainObject,
  onlyKeys,
  plainStringList,
  plainSubmissionField,
} from '../shared/fast-rules.js';

/** spec: Images — `size` is `<W>x<H>` with positive integers, or a word the route supports. */
export const IMAGE_SIZE = /^(?:[1-9]\d*x[1-9]\d*|[A-Za-z][A-Za-z_-]*)$/;

const TEXTS = new Set(['resolution', 'quality', 'background', 'output_format', 'response_format']);
const SYNC_FIELDS = new Set([
  'model',
  'prompt',
  'n',
  'size',
  'output_compression',
  'image_urls',
  'nsfw_check',
  ...TEXTS,
]);
const ASYNC_FIELDS = new Set([...SYNC_FIELDS, 'notifications', 'client_reference_id']);

/** One field's copy when its value keeps its own rule, else `undefined` (an unset field is kept as it is). */
function plainField(key: string, value: unknown, model: string): { value: unknown } | undefined {
  if (value === undefined) return { value };
  if (TEXTS.has(key)) return typeof value === 'string' ? { value } : undefined;
  switch (key) {
    case 'model':
      return { value };
    case 'prompt':
      return typeof value === 'string' && value.trim().length > 0 ? { value } : undefined;
    case 'n':
      return Number.isSafeInteger(value) && (value as number) >= 1 ? { value } : undefined;
    case 'size':
      return typeof value === 'string' && IMAGE_SIZE.test(value) ? { value } : undefined;
    case 'output_compression':
      return Number.isFinite(value) ? { value } : undefined;
    case 'nsfw_check':
      return typeof value === 'boolean' ? { value } : undefined;
    case 'image_urls': {
      // spec: Images — `image_urls` is an imgmodel-2 extension, refused for the 2.5 models.
      if (model !== 'imgmodel-2') return undefined;
      const list = plainStringList(value, Number.POSITIVE_INFINITY, isHttpUrl);
      return list && { value: list };
    }
    default:
      return plainSubmissionField(key, value);
  }
}

/**
 * The body of a plain, valid image generation request (`async` for `generateAsync`, which also
 * takes `notifications` and `client_reference_id`), as a copy; `undefined` for anything else,
 * which the schema then decides.
 */
export function plainImageGenerateRequest<T>(params: unknown, async: boolean): T | undefined {
  if (!isPlainObject(params)) return undefined;
  const model = params.model;
  if (!(IMAGE_MODELS as readonly unknown[]).includes(model)) return undefined;
  if (!onlyKeys(params, async ? ASYNC_FIELDS : SYNC_FIELDS)) return undefined;
  const body: Record<string, unknown> = {};
  for (const key in params) {
    const field = plainField(key, params[key], model as string);
    if (field === undefined) return undefined;
    body[key] = field.value;
  }
  return typeof body.prompt === 'string' ? (body as T) : undefined;
}
