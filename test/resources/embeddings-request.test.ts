// Covers: src/resources/embeddings-request.ts
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { plainEmbeddingRequest } from '../../src/resources/embeddings-request.js';
import { embeddingCreateSchema, parseEmbeddingCreateParams } from '../../src/schemas/embeddings/index.js';
import { checkParams } from '../../src/schemas/shared/validate.js';
import { small } from '../helpers/embedding-params.js';
import { embeddingCreate, embeddingCreateRules } from '../reliability/arbitraries/management.js';
import { mutations } from '../reliability/arbitraries/rules.js';
import { PROPERTY_RUNS, PROPERTY_SEED } from '../reliability/property-settings.js';

const settings = { seed: PROPERTY_SEED, numRuns: PROPERTY_RUNS };

describe('plainEmbeddingRequest lets through', () => {
  test.each([
    ['a string with each model', { model: 'bge-m3', input: 'hi' }],
    ['a list of texts', small({ input: ['a', 'b', 'c'] })],
    ['dimensions 1', small({ dimensions: 1 })],
    ['dimensions 1536', small({ dimensions: 1536 })],
    ['encoding_format float', small({ encoding_format: 'float' })],
    ['encoding_format base64', small({ encoding_format: 'base64', dimensions: 512 })],
    ['a field set to undefined', small({ dimensions: undefined, encoding_format: undefined })],
  ])('%s, as a copy the schema accepts unchanged', (_, params) => {
    const body = plainEmbeddingRequest(params);
    expect(body).toEqual(params);
    expect(body).not.toBe(params);
    if (Array.isArray(params.input)) expect(body?.input).not.toBe(params.input);
    expect(parseEmbeddingCreateParams(params)).toEqual(body);
  });
});

class Request {
  model = 'bge-m3';
  input = 'hi';
}
const sparse: string[] = ['a'];
sparse[2] = 'c';

describe('plainEmbeddingRequest leaves to the schema', () => {
  test.each([
    ['an unknown field', small({ user: 'u-1' }), false],
    ['a class instance', new Request(), true],
    ['an object without a prototype', Object.assign(Object.create(null), small()), true],
    ['a list with a hole', small({ input: sparse }), true],
    ['an unknown model', small({ model: 'text-embedding-3-large' }), false],
    ['a missing input', { model: 'bge-m3' }, false],
    ['an empty string', small({ input: '' }), false],
    ['an empty list', small({ input: [] }), false],
    ['an empty text in the list', small({ input: ['a', ''] }), false],
    ['a number in the list', small({ input: ['a', 3] }), false],
    ['dimensions 0', small({ dimensions: 0 }), false],
    ['dimensions 1537', small({ dimensions: 1537 }), false],
    ['fractional dimensions', small({ dimensions: 512.5 }), false],
    ['dimensions as a string', small({ dimensions: '512' }), false],
    ['dimensions null', small({ dimensions: null }), false],
    ['dimensions with bge-m3', { model: 'bge-m3', input: 'x', dimensions: 512 }, false],
    ['encoding_format int8', small({ encoding_format: 'int8' }), false],
    ['max_tokens', small({ max_tokens: 10 }), false],
    ['stream: false', small({ stream: false }), false],
    ['null', null, false],
    ['a string', 'hello', false],
  ])('%s', (_, params, valid) => {
    expect(plainEmbeddingRequest(params)).toBeUndefined();
    // The schema then decides, and words any error.
    expect(checkParams(embeddingCreateSchema, params).length === 0).toBe(valid);
  });
});

/** A valid value most of the time, else anything at all. */
const mostly = <T>(valid: fc.Arbitrary<T>) =>
  fc.oneof({ arbitrary: valid, weight: 8 }, { arbitrary: fc.anything(), weight: 1 });

const ABSENT = Symbol('absent');
/** `value` `present` times in `absent + present`, else no field at all. */
const field = (value: fc.Arbitrary<unknown>, present: number, absent = 1) =>
  fc.oneof({ arbitrary: fc.constant(ABSENT), weight: absent }, { arbitrary: value, weight: present });

/** Requests near the rules: each field mostly valid, sometimes broken, absent or anything. */
const nearRequests = fc
  .record({
    model: field(mostly(fc.constantFrom('text-embedding-3-small', 'bge-m3', 'BGE-M3')), 9),
    input: field(
      mostly(
        fc.oneof(
          fc.string({ maxLength: 3 }),
          fc.array(mostly(fc.string({ maxLength: 3 })), { maxLength: 3 }),
        ),
      ),
      9,
    ),
    dimensions: field(mostly(fc.oneof(fc.integer({ min: -2, max: 1540 }), fc.double())), 1),
    encoding_format: field(mostly(fc.constantFrom('float', 'base64', 'int8')), 1),
    messages: field(fc.anything(), 1, 4),
    stream: field(fc.boolean(), 1, 4),
  })
  .map((fields) => Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== ABSENT)));

describe('plainEmbeddingRequest, as a property', () => {
  test(`the schema accepts, unchanged, every body it lets through (${PROPERTY_RUNS} near-rule requests)`, () => {
    let through = 0;
    fc.assert(
      fc.property(nearRequests, (params) => {
        const body = plainEmbeddingRequest(params);
        if (body === undefined) return;
        through++;
        expect(checkParams(embeddingCreateSchema, params)).toEqual([]);
        expect(parseEmbeddingCreateParams(params)).toEqual(body);
      }),
      settings,
    );
    // The property is worth something only if enough requests reach the comparison.
    expect(through).toBeGreaterThan(PROPERTY_RUNS / 50);
  });

  test('it lets through no request that breaks a rule', () => {
    fc.assert(
      fc.property(mutations(embeddingCreate(), embeddingCreateRules()), ({ input }) => {
        expect(plainEmbeddingRequest(input)).toBeUndefined();
      }),
      settings,
    );
  });

  test('it lets through every valid request without extra fields, as it is', () => {
    const plain = embeddingCreate().map((body) => {
      const { model, input, dimensions, encoding_format } = body;
      return Object.fromEntries(
        Object.entries({ model, input, dimensions, encoding_format }).filter(([, v]) => v !== undefined),
      );
    });
    fc.assert(
      fc.property(plain, (params) => {
        expect(plainEmbeddingRequest(params)).toEqual(params);
      }),
      settings,
    );
  });
});
