/**
 * `POST /v1/embeddings`: first its request types, what a caller may write, checked by the
 * compiler; then its rules (and their messages), which check the same at run time.
 *
 * Typed per model, discriminated on `model`: only `text-embedding-3-small` takes `dimensions`.
 * The types list the spec's fields and nothing else, so a field the endpoint does not take (a
 * chat field, a typo) does not compile; the validator refuses it too, before sending.
 */
import { acrossFields, addRuleIssue } from '../shared/across-fields.js';
import { refuseFields } from '../shared/common.js';
import {
  EMBEDDING_DIMENSIONS,
  EMBEDDING_MODELS,
  type EmbeddingModel,
  ENCODING_FORMATS,
} from '../shared/constants.js';
import { ALWAYS, refuseUnknownFields } from '../shared/unknown-fields.js';
import { parseParams } from '../shared/validate.js';
import { z } from '../shared/zod.js';

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

// spec: Embeddings — "The fields messages, max_tokens and stream must not be sent".
const CHAT_FIELDS = ['messages', 'max_tokens', 'stream'];

const INPUT_RULE = 'a non-empty string or a non-empty array of non-empty strings';

const inputSchema = z
  .custom<string | string[]>((value) => value !== undefined, { error: `is required: ${INPUT_RULE}` })
  .superRefine((value, ctx) => {
    if (typeof value === 'string') {
      if (value.length === 0) addRuleIssue(ctx, 'must be a non-empty string');
    } else if (!Array.isArray(value)) {
      addRuleIssue(ctx, `must be ${INPUT_RULE}`);
    } else if (value.length === 0) {
      addRuleIssue(ctx, 'must hold at least one text');
    } else {
      value.forEach((item, i) => {
        if (typeof item !== 'string' || item.length === 0) {
          addRuleIssue(ctx, 'must be a non-empty string', [i]);
        }
      });
    }
  });

/** `embeddings.create` body. */
export const embeddingCreateSchema = z
  .looseObject({
    model: z.enum(EMBEDDING_MODELS, { error: `must be one of ${EMBEDDING_MODELS.join(', ')}` }),
    input: inputSchema,
    dimensions: z
      .number({ error: 'must be a positive integer at most 1536' })
      .int('must be a positive integer at most 1536')
      .min(1, 'must be a positive integer at most 1536')
      .max(1536, 'must be a positive integer at most 1536')
      .optional(),
    encoding_format: z
      .enum(ENCODING_FORMATS, { error: `must be one of ${ENCODING_FORMATS.join(', ')}` })
      .optional(),
  })
  .superRefine(
    ...acrossFields(
      (value, ctx) => {
        // spec: Embeddings — `dimensions` is "for text-embedding-3-small".
        const model = value.model as EmbeddingModel;
        if (value.dimensions !== undefined && model !== 'text-embedding-3-small') {
          addRuleIssue(
            ctx,
            `is only supported by text-embedding-3-small (${model} always returns ${EMBEDDING_DIMENSIONS[model]} dimensions)`,
            ['dimensions'],
          );
        }
      },
      // spec: Embedding response — "holds vectors and no generated text".
      (value, ctx) =>
        refuseFields(
          value,
          CHAT_FIELDS,
          ctx,
          'to embeddings: the endpoint returns vectors, not generated text (pass the texts as input)',
        ),
    ),
  )
  .superRefine(
    refuseUnknownFields(
      ['model', 'input', 'dimensions', 'encoding_format'],
      'embeddings.create',
      CHAT_FIELDS,
    ),
    ALWAYS,
  );

/**
 * Checks an `embeddings.create` request. @throws RequestValidationError naming each broken rule.
 * @example parseEmbeddingCreateParams({ model: 'bge-m3', input: ['first text', 'second text'] })
 */
export function parseEmbeddingCreateParams(params: unknown): EmbeddingCreateParams {
  return parseParams(embeddingCreateSchema, params, 'embeddings.create') as EmbeddingCreateParams;
}
