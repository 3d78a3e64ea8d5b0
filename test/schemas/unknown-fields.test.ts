import { describe, expect, test } from 'vitest';
import { closestField } from '../../src/schemas/unknown-fields.js';

const IMAGE_FIELDS = ['model', 'prompt', 'n', 'size', 'resolution', 'quality', 'background', 'output_format'];

describe('closestField', () => {
  test.each([
    ['a substituted letter', 'sise', 'size'],
    ['two swapped letters', 'qualtiy', 'quality'],
    ['a missing letter', 'promt', 'prompt'],
    ['another case', 'Model', 'model'],
    ['the camelCase spelling of a snake_case field', 'outputFormat', 'output_format'],
    ['a name far from every field', 'style', undefined],
  ])('%s', (_, field, meant) => {
    expect(closestField(field, IMAGE_FIELDS)).toBe(meant);
  });
});
