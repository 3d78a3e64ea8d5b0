// Covers: src/internal/validate-request.ts
import { describe, expect, test } from 'vitest';
import { operationForModel, REQUEST_OPERATIONS, validateRequest } from '../../src/index.js';

describe('validateRequest', () => {
  test('a valid request has no issues', () => {
    expect(
      validateRequest('videos.create', { model: 'vidmodel-2.0-mini', prompt: 'a kite', duration: 5 }),
    ).toEqual([]);
  });

  test.each([
    ['videos.create', { model: 'vidmodel-2.0-mini', prompt: 'a kite', duration: 99 }, 'duration'],
    ['images.generate', { model: 'imgmodel-2', prompt: 'a crane', n: 0 }, 'n'],
    ['embeddings.create', { model: 'bge-m3' }, 'input'],
  ] as const)('%s names the broken field %s', (operation, body, path) => {
    const issues = validateRequest(operation, body);
    expect(issues.map((i) => i.path)).toContain(path);
    for (const issue of issues) expect(issue.message).not.toBe('');
  });

  test('an unknown operation is refused', () => {
    expect(() => validateRequest('videos.delete' as never, {})).toThrow(/must be one of/);
  });

  test('every operation has a check', () => {
    for (const operation of REQUEST_OPERATIONS)
      expect(Array.isArray(validateRequest(operation, {}))).toBe(true);
  });
});

describe('operationForModel', () => {
  test.each([
    [{ model: 'vidmodel-2.5' }, 'videos.create'],
    [{ model: 'imgmodel-2' }, 'images.generate'],
    [{ model: 'text-embedding-3-small' }, 'embeddings.create'],
    [{ model: 'nope' }, undefined],
    [{ name: 'group' }, undefined],
    [null, undefined],
  ])('%j -> %s', (body, operation) => {
    expect(operationForModel(body)).toBe(operation);
  });
});
