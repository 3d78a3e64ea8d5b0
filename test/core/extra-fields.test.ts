// Covers: src/core/extra-fields.ts
import { describe, expect, test } from 'vitest';
import { withExtraFields } from '../../src/core/extra-fields.js';

describe('withExtraFields', () => {
  test('returns the result itself: nothing copied, nothing dropped', () => {
    const task = { id: 'task_1', object: 'video' as const, status: 'completed', progress: '100%' };
    const wire = Object.assign(task, { seed: 42 });
    const open = withExtraFields(task);
    expect(open).toBe(wire);
    expect(open.seed).toBe(42);
  });
});
