import { embeddingCreateSchema } from '../../schemas/embeddings/index.js';
import { EMBEDDING_DIMENSIONS, type EmbeddingModel } from '../../schemas/shared/constants.js';
import { MockHttpError } from '../http-error.js';
import type { GatewayState } from '../state/gateway-state.js';
import type { RouteRegistry } from '../types.js';
import { MAX_EMBEDDING_TOKENS, mockEmbedding, mockTokens, toBase64Float32 } from './embeddings-vectors.js';

/**
 * Registers `POST /v1/embeddings`. The body is checked with the SDK's own schema; the answer is
 * the OpenAI-compatible list `{object: 'list', data: [{object: 'embedding', index, embedding}],
 * model, usage}` with deterministic unit vectors (see `mockEmbedding`): 1536 numbers for
 * `text-embedding-3-small` (or `dimensions`), 1024 for `bge-m3`; base64 float32 text when
 * `encoding_format` is `base64`. A text over 8192 tokens answers 400. Nothing is billed.
 */
export function registerEmbeddingRoutes(router: RouteRegistry, _gateway: GatewayState): void {
  router.add('POST', '/v1/embeddings', async (ctx) => {
    const body = ctx.validate(embeddingCreateSchema);
    ctx.requireModel(body.model);
    const model = body.model as EmbeddingModel;
    const texts = typeof body.input === 'string' ? [body.input] : body.input;
    const counts = texts.map((text) => mockTokens(text).length);
    counts.forEach((count, i) => {
      // spec: Limits — 8192 tokens per text; split long documents.
      if (count > MAX_EMBEDDING_TOKENS) {
        const where = typeof body.input === 'string' ? 'input' : `input[${i}]`;
        throw MockHttpError.spec(
          400,
          'invalid_request',
          `${where}: has ${count} tokens, more than the ${MAX_EMBEDDING_TOKENS} allowed per text; split long documents`,
        );
      }
    });
    const fullSize = EMBEDDING_DIMENSIONS[model];
    const data = texts.map((text, index) => {
      const vector = mockEmbedding(model, text, fullSize, body.dimensions ?? fullSize);
      return {
        object: 'embedding',
        index,
        embedding: body.encoding_format === 'base64' ? toBase64Float32(vector) : vector,
      };
    });
    const tokens = counts.reduce((a, b) => a + b, 0);
    await ctx.json(200, {
      object: 'list',
      data,
      model,
      usage: { prompt_tokens: tokens, total_tokens: tokens },
    });
  });
}
