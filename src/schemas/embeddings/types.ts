/**
 * The request types of `POST /v1/embeddings`: what a caller may write, checked by the compiler.
 * The rules themselves (and their messages) live in embeddings.ts.
 *
 * Typed per model, discriminated on `model`: only `text-embedding-3-small` takes `dimensions`.
 * The types list the spec's fields and nothing else, so a field the endpoint does not take (a
 * chat field, a typo) does not compile; the validator refuses it too, before sending.
 */
import type { ENCODING_FORMATS } from '../shared/constants.js';

/** Fields every embedding model takes. */
export interface EmbeddingInputParams {
  /**
   * `input`: a non-empty string, or a non-empty array of non-empty strings. Each text is limited to
   * 8192 tokens; split long documents and keep batches small.
   */
  input: string | readonly string[];
  /** `encoding_format`: `float` or `base64`. */
  encoding_format?: (typeof ENCODING_FORMATS)[number] | undefined;
}

/** `POST /v1/embeddings` to `text-embedding-3-small`: 1536 dimensions, or fewer with `dimensions`. */
export interface TextEmbedding3SmallParams extends EmbeddingInputParams {
  /** `model`. */
  model: 'text-embedding-3-small';
  /** `dimensions`: a positive integer at most 1536 (512 is the tested reduced size). @default 1536 */
  dimensions?: number | undefined;
}

/** `POST /v1/embeddings` to `bge-m3`: dense vectors of 1024 dimensions, no query prefix needed. */
export interface BgeM3Params extends EmbeddingInputParams {
  /** `model`. */
  model: 'bge-m3';
  /** Not accepted: `bge-m3` always returns 1024 dimensions. */
  dimensions?: never;
}

/** `POST /v1/embeddings`, typed by `model`. Vectors only: no generated text, so chat fields are refused. */
export type EmbeddingCreateParams = TextEmbedding3SmallParams | BgeM3Params;

/** The request of `embeddings.createBatched`: everything but `input`, which the texts fill, typed by `model`. */
export type EmbeddingBatchParams = Omit<TextEmbedding3SmallParams, 'input'> | Omit<BgeM3Params, 'input'>;
