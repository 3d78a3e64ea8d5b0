import { APIPromise } from '../core/api-promise.js';
import { checkObjectArgument, checkOptionsArgument, describeArgument } from '../core/arguments.js';
import { MediaGatewayError } from '../core/base-error.js';
import { RequestValidationError, type ValidationIssue } from '../core/errors/validation.js';
import { describeCause } from '../core/errors/wait.js';
import { checkCallback } from '../core/options.js';
import type { RequestOptions } from '../internal/request-spec.js';
import { parseEmbeddingCreateParams } from '../internal/schemas.js';
import { TIMEOUTS } from '../internal/timeouts.js';
import type { EmbeddingBatchParams, EmbeddingCreateParams } from '../schemas/embeddings/index.js';
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

/** How far {@link Embeddings.createBatched} is, told to its `onProgress` after each batch. */
export interface BatchProgress {
  /** Texts embedded so far (the batches that answered, in the order they answered). */
  done: number;
  /** Texts in all. */
  total: number;
  /** Batches that answered so far. */
  batchesDone: number;
  /** Batches in all. */
  batches: number;
}

/** Options of {@link Embeddings.createBatched}. */
export interface BatchOptions extends RequestOptions {
  /** Texts per request. Keep batches small (spec: Limits). @default 16 */
  batchSize?: number | undefined;
  /** Requests in flight at once. @default 4 */
  concurrency?: number | undefined;
  /**
   * Called after each batch answers, one call at a time, `done` rising to `total`. A promise it
   * returns is awaited before that batch's worker goes on. When it throws or rejects, no
   * further batch is sent and `createBatched` rejects with a `MediaGatewayError` holding the
   * error as `cause` (embedding creates nothing, so the call can simply be made again).
   */
  onProgress?: ((progress: BatchProgress) => unknown) | undefined;
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
   * @throws InvalidOptionError before anything is sent, for an `onProgress` that is not a function.
   * @throws the first failing batch's error (an APIError subclass, APIConnectionError, ...), or a
   *   MediaGatewayError when `onProgress` threw or rejected (its error is the `cause`).
   * @example
   * const { data } = await client.embeddings.createBatched(chunks, { model: 'bge-m3' }, {
   *   batchSize: 32,
   *   onProgress: ({ done, total }) => console.log(`${done}/${total} texts embedded`),
   * });
   */
  async createBatched(
    texts: readonly string[],
    params: EmbeddingBatchParams,
    options: BatchOptions = {},
  ): Promise<EmbeddingsResponse> {
    if (!Array.isArray(texts)) {
      const what = 'an array of the texts to embed (strings)';
      const message =
        texts === undefined ? `is required: ${what}` : `must be ${what}; got ${describeArgument(texts)}`;
      throw new RequestValidationError('embeddings.createBatched', [{ path: 'texts', message }]);
    }
    checkObjectArgument('embeddings.createBatched', params, 'params', 'an object { model, ... }');
    checkOptionsArgument('embeddings.createBatched', options);
    const { batchSize = 16, concurrency = 4, onProgress, ...request } = options;
    const issues = [
      ...positiveInteger('batchSize', batchSize),
      ...positiveInteger('concurrency', concurrency),
    ];
    if (issues.length > 0) throw new RequestValidationError('embeddings.createBatched', issues);
    checkCallback('onProgress', onProgress);
    // Validate the whole input once, before any request is sent.
    parseEmbeddingCreateParams({ ...params, input: [...texts] } as EmbeddingCreateParams);
    const report = onProgress && progressReporter(onProgress, texts.length, batchSize);
    const batches = await inBatches(texts, batchSize, concurrency, async (batch, offset) => {
      const response = await this.create({ ...params, input: batch } as EmbeddingCreateParams, request);
      await report?.(batch.length);
      return { offset, response };
    });
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

/**
 * Counts the texts of each batch that answered and calls `onProgress` with the totals, one call
 * at a time: batches answer out of order and together, and an awaited callback must not be
 * entered twice at once. Each batch's worker waits for its own call; what the callback throws
 * fails that batch, which stops the others from starting.
 */
function progressReporter(
  onProgress: (progress: BatchProgress) => unknown,
  total: number,
  batchSize: number,
): (texts: number) => Promise<void> {
  const batches = Math.ceil(total / batchSize);
  let done = 0;
  let batchesDone = 0;
  let queue: Promise<unknown> = Promise.resolve();
  return (texts) => {
    done += texts;
    batchesDone += 1;
    const progress: BatchProgress = { done, total, batchesDone, batches };
    const call = queue.then(() => onProgress(progress));
    // A failed call ends the run; the calls already queued behind it are not made.
    queue = call;
    return call.then(undefined, (cause: unknown) => {
      throw new MediaGatewayError(
        `embeddings.createBatched: onProgress failed after ${progress.done} of ${total} texts ` +
          `(${describeCause(cause)}); no further batch was sent. Embedding creates nothing: call again.`,
        { cause },
      );
    });
  };
}
