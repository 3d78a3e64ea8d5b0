// Covers: src/internal/timeouts.ts
import { describe, expect, test } from 'vitest';
import { imageTimeout, TIMEOUTS } from '../../src/internal/timeouts.js';

describe('image timeouts (spec: Limits — 180 s basic, 300 s higher resolution, 600 s demanding edits)', () => {
  test.each([
    [{}, 'generate', 180_000],
    [{ size: '1024x1024' }, 'generate', 180_000],
    [{ resolution: '1k' }, 'generate', 180_000],
    [{ resolution: '2k' }, 'generate', 300_000],
    [{ resolution: '4K' }, 'generate', 300_000],
    [{ size: '2048x1024' }, 'generate', 300_000],
    [{ quality: 'high' }, 'generate', 180_000],
    [{}, 'edit', 180_000],
    [{ quality: 'high' }, 'edit', 600_000],
    [{ resolution: '2k' }, 'edit', 600_000],
    [{ size: '1024x2048' }, 'edit', 600_000],
  ] as const)('%o %s → %i ms', (params, kind, expected) => {
    expect(imageTimeout(params, kind)).toBe(expected);
  });

  test('ordinary calls get 60 s', () => {
    expect(TIMEOUTS.default).toBe(60_000);
  });
});
