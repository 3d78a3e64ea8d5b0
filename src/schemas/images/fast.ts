/**
 * The fields of an image request with their rules, which the schemas (index.ts) build their shape
 * from, and the plain check of a valid `images.generate` / `images.generateAsync` body, without
 * zod, so a process's first image request does not load zod and build the image schemas (bench
 * (10)). Anything it does not let through (another field, a broken rule) gives `undefined` and is
 * left to the schema, which stays the rule and words every error. A property test holds that the
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

/**
 * The fields of an image generation or edit body that describe its output, each with its rule, in
 * the order the schemas name their problems: `text` fields take any string (their values are the
 * route's), `count` is a positive integer, `urls` a list of public `http(s)://` URLs.
 */
export const IMAGE_FIELDS = {
  model: 'model',
  prompt: 'prompt',
  n: 'count',
  size: 'size',
  resolution: 'text',
  quality: 'text',
  background: 'text',
  output_format: 'text',
  output_compression: 'number',
  image_urls: 'urls',
} as const;

/** The rule of one field of {@link IMAGE_FIELDS}. */
export type ImageFieldRule = (typeof IMAGE_FIELDS)[keyof typeof IMAGE_FIELDS];

/**
 * Fields the schemas pass unchecked: their values depend on the route (spec: Images, "need route
 * support"). The plain check lets through only the type named here, and leaves others to the schema.
 */
export const IMAGE_ROUTE_FIELDS = { nsfw_check: 'boolean', response_format: 'string' } as const;

/** The fields of an asynchronous body that the synchronous routes refuse (they produce no task events). */
export const IMAGE_TASK_FIELDS = ['notifications', 'client_reference_id'] as const;

const RULES: Readonly<
  Record<string, ImageFieldRule | (typeof IMAGE_ROUTE_FIELDS)[keyof typeof IMAGE_ROUTE_FIELDS]>
> = { ...IMAGE_FIELDS, ...IMAGE_ROUTE_FIELDS };
const SYNC_FIELDS = new Set(Object.keys(RULES));
const ASYNC_FIELDS = new Set([...SYNC_FIELDS, ...IMAGE_TASK_FIELDS]);

/** One field's copy when its value keeps its own rule, else `undefined` (an unset field is kept as it is). */
function plainField(key: string, value: unknown, model: string): { value: unknown } | undefined {
  if (value === undefined) return { value };
  switch (RULES[key]) {
    case 'text':
    case 'string':
      return typeof value === 'string' ? { value } : undefined;
    case 'model':
      return { value };
    case 'prompt':
      return typeof value === 'string' && value.trim().length > 0 ? { value } : undefined;
    case 'count':
      return Number.isSafeInteger(value) && (value as number) >= 1 ? { value } : undefined;
    case 'size':
      return typeof value === 'string' && IMAGE_SIZE.test(value) ? { value } : undefined;
    case 'number':
      return Number.isFinite(value) ? { value } : undefined;
    case 'boolean':
      return typeof value === 'boolean' ? { value } : undefined;
    case 'urls': {
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
