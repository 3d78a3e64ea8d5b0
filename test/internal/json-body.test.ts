// Covers: src/internal/json-body.ts
import { describe, expect, test } from 'vitest';
import { RequestValidationError } from '../../src/core/errors.js';
import { jsonBody } from '../../src/internal/json-body.js';

const OP = 'POST /v1/videos/generations';

describe('jsonBody', () => {
  test('writes a plain body as JSON.stringify does', () => {
    const body = { model: 'm', metadata: { a: [1, 'x', null], at: new Date(0) } };
    expect(jsonBody(OP, body)).toBe(JSON.stringify(body));
  });

  test.each([
    [
      'a toJSON that throws',
      {
        metadata: {
          toJSON: () => {
            throw new Error('no JSON here');
          },
        },
      },
      '',
      /no JSON here/,
    ],
    ['a BigInt in an array', { metadata: { list: [1, 2n] } }, 'metadata.list.1', /BigInt/],
    [
      'a loop through an array',
      (() => {
        const a: unknown[] = [];
        a.push({ a });
        return { metadata: a };
      })(),
      'metadata.0.a',
      /circular/,
    ],
  ])('%s is RequestValidationError with the cause kept', (_name, body, at, rule) => {
    let caught: unknown;
    try {
      jsonBody(OP, body);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(RequestValidationError);
    const error = caught as RequestValidationError;
    expect(error.issues).toEqual([{ path: at, message: expect.stringMatching(rule) }]);
    expect(error.cause).toBeInstanceOf(Error);
  });
});
