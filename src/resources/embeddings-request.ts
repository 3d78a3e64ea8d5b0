import type { EmbeddingCreateParams } from '../schemas/embeddings/index.js';
import { EMBEDDING_DIMENSIONS, EMBEDDING_MODELS, ENCODING_FORMATS } from '../schemas/shared/constants.js';

/** The fields a plain request may hold; anything else goes to the schema. */
const PLAIN_FIELDS = new Set(['model', 'input', 'dimensions', 'encoding_format']);
const MAX_DIMENSIONS = EMBEDDING_DIMENSIONS['text-embedding-3-small'];

/** A non-empty string, or a copy of a non-empty array of non-empty strings; else `undefined`. */
function plainInput(input: unknown): string | string[] | undefined {
  if (typeof input === 'string') return input.length > 0 ? input : undefined;
  if (!Array.isArray(input) || input.length === 0) return undefined;
  for (let i = 0; i < input.length; i++) {
    const text: unknown = input[i];
    if (typeof text !== 'string' || text.length === 0) return undefined;
  }
  return input.slice();
}

/**
 * The body of a plain, valid `embeddings.create` request: an object literal holding only
 * `model`, `input`, `dimensions` and `encoding_format`, each within its rule. Anything else
 * (another field, a broken rule, a class instance) gives `undefined` and is left to the schema,
 * which stays the rule and words the errors. The body is a copy, so what is sent is what was
 * checked.
 *
 * Embedding calls are many and small, and a zod check costs a large share of such a call's
 * own CPU time; most requests are plain and skip it. A property test holds that the schema
 * accepts, unchanged, every body this lets through.
 */
export function plainEmbeddingRequest(params: unknown): EmbeddingCreateParams | undefined {
  if (typeof params !== 'object' || params === null || Object.getPrototypeOf(params) !== Object.prototype) {
    return undefined;
  }
  for (const key in params) if (!PLAIN_FIELDS.has(key)) return undefined;
  const { model, input, dimensions, encoding_format } = params as Record<string, unknown>;
  if (!(EMBEDDING_MODELS as readonly unknown[]).includes(model)) return undefined;
  const texts = plainInput(input);
  if (texts === undefined) return undefined;
  // spec: Embeddings — `dimensions` is for text-embedding-3-small, a positive integer.
  if (
    dimensions !== undefined &&
    !(
      model === 'text-embedding-3-small' &&
      Number.isInteger(dimensions) &&
      (dimensions as number) >= 1 &&
      (dimensions as number) <= MAX_DIMENSIONS
    )
  ) {
    return undefined;
  }
  if (encoding_format !== undefined && !(ENCODING_FORMATS as readonly unknown[]).includes(encoding_format)) {
    return undefined;
  }
  return { model, input: texts, dimensions, encoding_format } as EmbeddingCreateParams;
}
