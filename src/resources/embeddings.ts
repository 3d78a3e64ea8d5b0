import { APIPromise } from '../core/api-promise.js';
import { RequestValidationError, type ValidationIssue } from '../core/errors/validation.js';
import type { RequestOptions } from '../internal/request-spec.js';
import { parseEmbeddingCreateParams } from '../internal/schemas.js';
import { TIMEOUTS } from '../internal/timeouts.js';
import type { EmbeddingBatchParams, EmbeddingCreateParams } from '../schemas/embeddings.js';
import { plainEmbeddingRequest } from './embeddings-request.js';
import {
  type Embedding,
  type EmbeddingsResponse,
  inBatches,
  toEmbeddingsResponse,
} from './embeddings-response.js';
import { APIResource } from './resource.js';

function positiveInteger(path: string, value: unknown): ValidationIssue[] {
  return Number.isInteger(value) && (value as number) >= 1
    ? []
    : [{ path, message: 'must be a positive integer' }];
}

/** Options of {@link Embeddings.createBatched}. */
export interface BatchOptions extends RequestOptions {
  /** Texts per request. Keep batches small (spec: Limits). @default 16 */
  batchSize?: number | undefined;
  /** Requests in flight at once. @default 4 */
  concurrency?: number | undefined;
}

/**
 * Text embeddings (`POST /v1/embeddings`). An embedding request creates nothing, so it is
 * retried like a GET (connection errors, 408, 429, 5xx).
 */
export class Embeddings extends APIResource {
  /**
   * Embeds one text or a list of texts. `data[i]` belongs to the i-th text; `dimensions` and
   * `model` tag the vectors, which must not share an index with vectors of another model or size.
   *
   * @throws RequestValidationError for an empty input, `dimensions` with `bge-m3`, or `messages`, `max_tokens`, `stream`.
   * @throws APIError (a subclass by status) when the gateway refuses the request, after retries.
   * @throws InvalidResponseError when the answer holds no list of vectors.
   * @example
   * const { data } = await client.embeddings.create({ model: 'bge-m3', input: ['first text', 'second text'] });
   */
  create(params: EmbeddingCreateParams, options?: RequestOptions): APIPromise<EmbeddingsResponse> {
    const answer = this.transport.answer<unknown>(() => ({
      method: 'POST',
      path: '/embeddings',
      body: plainEmbeddingRequest(params) ?? parseEmbeddingCreateParams(params),
      retry: 'safe',
      timeout: TIMEOUTS.default,
      options,
    }));
    return new APIPromise(answer, ({ body, requestId }) =>
      toEmbeddingsResponse(body, params.model, requestId),
    );
  }

  /**
   * Embeds many texts in small batches with bounded concurrency, and returns one response
   * whose `data[i]` belongs to `texts[i]`. Split long documents first: each text is limited
   * to 8192 tokens. Every batch is one `create` call (retried like a GET); after a failed batch
   * no further batch is sent and the error is thrown.
   *
   * @throws RequestValidationError before anything is sent, for an empty list, an empty text, or a
   *   `batchSize` or `concurrency` that is not a positive integer.
   * @throws the first failing batch's error (an APIError subclass, APIConnectionError, ...).
   * @example
   * const { data } = await client.embeddings.createBatched(chunks, { model: 'bge-m3' }, { batchSize: 32 });
   */
  async createBatched(
    texts: readonly string[],
    params: EmbeddingBatchParams,
    options: BatchOptions = {},
  ): Promise<EmbeddingsResponse> {
    const { batchSize = 16, concurrency = 4, ...request } = options;
    const issues = [
      ...positiveInteger('batchSize', batchSize),
      ...positiveInteger('concurrency', concurrency),
    ];
    if (issues.length > 0) throw new RequestValidationError('embeddings.createBatched', issues);
    // Validate the whole input once, before any request is sent.
    parseEmbeddingCreateParams({ ...params, input: [...texts] } as EmbeddingCreateParams);
    const batches = await inBatches(texts, batchSize, concurrency, async (batch, offset) => ({
      offset,
      response: await this.create({ ...params, input: batch } as EmbeddingCreateParams, request),
    }));
    const responses = batches.map((b) => b.response);
    const data: Embedding[] = [];
    let promptTokens = 0;
    let totalTokens = 0;
    for (const { offset, response } of batches) {
      for (const item of response.data) data.push({ ...item, index: offset + item.index });
      promptTokens += Number(response.usage?.prompt_tokens ?? 0);
      totalTokens += Number(response.usage?.total_tokens ?? 0);
    }
    return {
      data,
      model: responses[0]?.model ?? params.model,
      dimensions: responses[0]?.dimensions ?? 0,
      usage: { prompt_tokens: promptTokens, total_tokens: totalTokens },
    };
  }
}
