/**
 * The request types of `POST /v1/embeddings`: what a caller may write, checked by the compiler.
 * The rules themselves (and their messages) live in embeddings.ts.
 */
import type { EmbeddingModel, ENCODING_FORMATS } from './constants.js';

/** `POST /v1/embeddings`. Vectors only: no generated text, so chat fields are refused. */
export interface EmbeddingCreateParams {
  /** `model`: `text-embedding-3-small` (1536 dimensions by default) or `bge-m3` (1024). */
  model: EmbeddingModel;
  /**
   * `input`: a non-empty string, or a non-empty array of non-empty strings. Each text is limited to
   * 8192 tokens; split long documents and keep batches small.
   */
  input: string | readonly string[];
  /** `dimensions`: `text-embedding-3-small` only; a positive integer at most 1536 (512 is the tested reduced size). */
  dimensions?: number | undefined;
  /** `encoding_format`: `float` or `base64`. */
  encoding_format?: (typeof ENCODING_FORMATS)[number] | undefined;
}
