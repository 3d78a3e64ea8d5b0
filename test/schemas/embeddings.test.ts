// Covers: src/schemas/embeddings/index.ts
import { describe, expect, test } from 'vitest';
import { RequestValidationError } from '../../src/core/errors.js';
import { embeddingCreateSchema, parseEmbeddingCreateParams } from '../../src/schemas/embeddings/index.js';
import { EMBEDDING_DIMENSIONS, EMBEDDING_MODELS } from '../../src/schemas/shared/constants.js';
import { checkParams } from '../../src/schemas/shared/validate.js';
import { small } from '../helpers/embedding-params.js';

describe('embeddings.create refuses', () => {
  test.each([
    [
      'an unknown model',
      small({ model: 'text-embedding-3-large' }),
      'model',
      'must be one of text-embedding-3-small, bge-m3',
    ],
    ['a missing input', { model: 'bge-m3' }, 'input', 'is required'],
    ['an empty string', small({ input: '' }), 'input', 'must be a non-empty string'],
    ['an empty array', small({ input: [] }), 'input', 'at least one text'],
    ['an empty string in the array', small({ input: ['a', ''] }), 'input[1]', 'must be a non-empty string'],
    ['a number in the array', small({ input: ['a', 'b', 3] }), 'input[2]', 'must be a non-empty string'],
    ['a number as input', small({ input: 42 }), 'input', 'a non-empty string or a non-empty array'],
    ['null input', small({ input: null }), 'input', 'a non-empty string or a non-empty array'],
    ['dimensions 0', small({ dimensions: 0 }), 'dimensions', 'positive integer at most 1536'],
    ['dimensions 1537', small({ dimensions: 1537 }), 'dimensions', 'positive integer at most 1536'],
    ['fractional dimensions', small({ dimensions: 512.5 }), 'dimensions', 'positive integer'],
    ['dimensions as a string', small({ dimensions: '512' }), 'dimensions', 'positive integer'],
    [
      'dimensions with bge-m3',
      { model: 'bge-m3', input: 'x', dimensions: 512 },
      'dimensions',
      'only supported by text-embedding-3-small (bge-m3 always returns 1024',
    ],
    [
      'encoding_format int8',
      small({ encoding_format: 'int8' }),
      'encoding_format',
      'must be one of float, base64',
    ],
    [
      'messages',
      small({ messages: [{ role: 'user', content: 'x' }] }),
      'messages',
      'returns vectors, not generated text',
    ],
    ['max_tokens', small({ max_tokens: 10 }), 'max_tokens', 'must not be sent'],
    ['max_tokens: 0', small({ max_tokens: 0 }), 'max_tokens', 'must not be sent'],
    ['max_tokens: null', small({ max_tokens: null }), 'max_tokens', 'must not be sent'],
    ['stream: true', small({ stream: true }), 'stream', 'must not be sent'],
    ['stream: false', small({ stream: false }), 'stream', 'must not be sent'],
    ['stream: null', small({ stream: null }), 'stream', 'must not be sent'],
    // spec: Embeddings lists model, input, encoding_format and dimensions; nothing passes through.
    ['a misspelt field', small({ dimension: 512 }), 'dimension', 'did you mean dimensions?'],
    ['a misspelt input', { model: 'bge-m3', inptu: 'x', input: 'x' }, 'inptu', 'did you mean input?'],
    [
      'an unknown field',
      small({ user: 'u-1' }),
      'user',
      'is not a field of embeddings.create (it takes model',
    ],
  ])('%s', (_, params, path, fragment) => {
    expect(checkParams(embeddingCreateSchema, params)).toEqual([
      { path, message: expect.stringContaining(fragment) },
    ]);
    expect(() => parseEmbeddingCreateParams(params)).toThrow(RequestValidationError);
    expect(() => parseEmbeddingCreateParams(params)).toThrow('embeddings.create was not sent');
  });
});

describe('embeddings.create accepts', () => {
  test.each([
    ['each model with a string', EMBEDDING_MODELS.map((model) => ({ model, input: 'hi' }))],
    ['an array of texts', [small({ input: ['a', 'b', 'c'] })]],
    ['dimensions 1 and 1536 and 512', [1, 512, 1536].map((dimensions) => small({ dimensions }))],
    ['each encoding_format', [small({ encoding_format: 'float' }), small({ encoding_format: 'base64' })]],
    ['a whitespace text (non-empty)', [small({ input: ' ' })]],
    ['a field set to undefined (JSON leaves it out)', [small({ user: undefined })]],
  ])('%s', (_, requests) => {
    for (const request of requests) expect(parseEmbeddingCreateParams(request)).toEqual(request);
  });

  test('default dimensions per model', () => {
    expect(EMBEDDING_DIMENSIONS).toEqual({ 'text-embedding-3-small': 1536, 'bge-m3': 1024 });
  });
});

describe('an unknown field is reported beside the other broken rules', () => {
  test('a typo and an empty input are both named', () => {
    expect(
      checkParams(embeddingCreateSchema, { model: 'bge-m3', input: '', encoding_fromat: 'float' }),
    ).toEqual([
      { path: 'input', message: 'must be a non-empty string' },
      {
        path: 'encoding_fromat',
        message: 'is not a field of embeddings.create; did you mean encoding_format?',
      },
    ]);
  });
});
