import { RequestValidationError, type ValidationIssue } from '../core/errors/validation.js';
import { EMBEDDING_MODELS, IMAGE_MODELS, VIDEO_MODELS } from '../schemas/shared/constants.js';
import {
  checkVideoRequest,
  parseAssetSubmitParams,
  parseEmbeddingCreateParams,
  parseGroupCreateParams,
  parseImageGenerateAsyncParams,
  parseImageGenerateParams,
  parseMidjourneyGenerateParams,
} from './schemas.js';

/**
 * The JSON requests {@link validateRequest} checks, by the client method that sends them.
 * Requests with files (`images.edit`, `uploads.image`) are left out: their rules are about
 * bytes, which a JSON document cannot hold.
 */
export const REQUEST_OPERATIONS = [
  'images.generate',
  'images.generateAsync',
  'videos.create',
  'embeddings.create',
  'midjourney.generate',
  'library.groups.create',
  'library.assets.submit',
] as const;

/** One of {@link REQUEST_OPERATIONS}. */
export type RequestOperation = (typeof REQUEST_OPERATIONS)[number];

const CHECKS: Record<RequestOperation, (params: unknown) => unknown> = {
  'images.generate': parseImageGenerateParams,
  'images.generateAsync': parseImageGenerateAsyncParams,
  'videos.create': checkVideoRequest,
  'embeddings.create': parseEmbeddingCreateParams,
  'midjourney.generate': parseMidjourneyGenerateParams,
  'library.groups.create': parseGroupCreateParams,
  'library.assets.submit': parseAssetSubmitParams,
};

/**
 * Checks a request body against the rules of `operation` with no request and no key: the same
 * checks the client makes before it sends anything. Returns every broken rule with its field
 * path; an empty array means the request would be sent.
 *
 * @throws {MediaGatewayError} (`RequestValidationError`) only for an unknown `operation`.
 * @example
 * validateRequest('videos.create', { model: 'vidmodel-2.0-mini', prompt: '', duration: 99 });
 * // [{ path: 'prompt', message: '...' }, { path: 'duration', message: '...' }]
 */
export function validateRequest(operation: RequestOperation, params: unknown): ValidationIssue[] {
  const check = CHECKS[operation];
  if (!check) {
    throw new RequestValidationError('validateRequest', [
      { path: 'operation', message: `must be one of ${REQUEST_OPERATIONS.join(', ')}` },
    ]);
  }
  try {
    check(params);
    return [];
  } catch (error) {
    if (error instanceof RequestValidationError) return error.issues;
    throw error;
  }
}

/**
 * The operation a request body is meant for, read from its `model`: a video model means
 * `videos.create`, an image model `images.generate`, an embedding model `embeddings.create`.
 * `undefined` when the model does not say (library and Midjourney requests name none): pass the
 * operation explicitly then.
 *
 * @example
 * operationForModel({ model: 'vidmodel-2.5', prompt: 'x' }); // 'videos.create'
 */
export function operationForModel(params: unknown): RequestOperation | undefined {
  const model = (params as { model?: unknown } | null)?.model;
  if (typeof model !== 'string') return undefined;
  if ((VIDEO_MODELS as readonly string[]).includes(model)) return 'videos.create';
  if ((IMAGE_MODELS as readonly string[]).includes(model)) return 'images.generate';
  if ((EMBEDDING_MODELS as readonly string[]).includes(model)) return 'embeddings.create';
  return undefined;
}
