// Covers: src/schemas/shared/unknown-fields.ts
import { describe, expect, test } from 'vitest';
import { RequestValidationError, validateRequest } from '../../src/index.js';
import { closestField } from '../../src/schemas/shared/unknown-fields.js';
import { testClient } from '../helpers/client.js';

const IMAGE_FIELDS = ['model', 'prompt', 'n', 'size', 'resolution', 'quality', 'background', 'output_format'];

describe('closestField', () => {
  test.each([
    ['a substituted letter', 'sise', 'size'],
    ['two swapped letters', 'qualtiy', 'quality'],
    ['a missing letter', 'promt', 'prompt'],
    ['two missing letters', 'backgrnd', 'background'],
    ['two letters too many', 'sizeee', 'size'],
    ['another case', 'Model', 'model'],
    ['the camelCase spelling of a snake_case field', 'outputFormat', 'output_format'],
    ['a name far from every field', 'style', undefined],
    ['three letters too many', 'sizeeee', undefined],
  ])('%s', (_, field, meant) => {
    expect(closestField(field, IMAGE_FIELDS)).toBe(meant);
  });

  test('a name over 64 characters gets no suggestion, even one edit from a field', () => {
    const long = 'x'.repeat(70);
    expect(closestField(`${long}y`, [`${long}z`])).toBeUndefined();
    const fits = 'x'.repeat(62);
    expect(closestField(`${fits}y`, [`${fits}z`])).toBe(`${fits}z`);
  });
});

describe('an unknown field of a megabyte', () => {
  const name = 'x'.repeat(1 << 20);
  const params = { model: 'imgmodel-2', prompt: 'a cat', [name]: 1 };

  test('is refused with no suggestion, its path kept whole', () => {
    const issues = validateRequest('images.generate', params);
    expect(issues).toHaveLength(1);
    expect(issues[0]?.path).toBe(name);
    expect(issues[0]?.message).toMatch(/^is not a field of images\.generate \(it takes model, prompt, /);
    expect(issues[0]?.message).not.toContain('did you mean');
  });

  test('is quoted cut short in the error message, with its length', async () => {
    const client = testClient({ apiKey: 'mgw_test_key', baseURL: 'http://127.0.0.1:9', maxRetries: 2 });
    const error = await client.images.generate(params as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    const { message, issues } = error as RequestValidationError;
    expect(message.length).toBeLessThan(1_000);
    expect(message).toContain(
      `images.generate was not sent: ${'x'.repeat(64)}… (1048576 characters): is not a field`,
    );
    expect(issues[0]?.path).toBe(name);
  });

  test('a short misspelling keeps its suggestion and its whole path in the message', async () => {
    const client = testClient({ apiKey: 'mgw_test_key', baseURL: 'http://127.0.0.1:9', maxRetries: 2 });
    const error = await client.images
      .generate({ model: 'imgmodel-2', prompt: 'a cat', sise: '1:1' } as never)
      .catch((e: unknown) => e);
    expect((error as Error).message).toBe(
      'images.generate was not sent: sise: is not a field of images.generate; did you mean size?',
    );
  });
});
