// Covers: src/resources/image-task.ts
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { AmbiguousSubmissionError } from '../../src/core/errors.js';
import { imageTaskState, toImageTask } from '../../src/resources/image-task.js';
import { toTaskSubmission } from '../../src/resources/submission.js';
import { finishedTask } from '../helpers/client.js';

describe('image task status (spec: States — Image task statuses)', () => {
  test.each([
    ['pending', 'pending'],
    ['submitted', 'pending'],
    ['processing', 'running'],
    ['in_progress', 'running'],
    ['succeeded', 'succeeded'],
    ['success', 'succeeded'],
    ['completed', 'succeeded'],
    ['failed', 'failed'],
    ['error', 'failed'],
    ['cancelled', 'failed'],
    ['SUCCESS', 'succeeded'],
    ['something-new', 'running'],
  ])('%s → %s', (status, state) => {
    expect(imageTaskState(status)).toBe(state);
  });
});

describe('toImageTask', () => {
  test('tracked tasks list objects with a url; every image is kept', () => {
    const task = toImageTask(
      't1',
      finishedTask('image', {
        result: { images: [{ url: 'https://a/1.png' }, { url: 'https://a/2.png', extra: 1 }] },
      }),
    );
    expect(task.state).toBe('succeeded');
    expect(task.images).toEqual([{ url: 'https://a/1.png' }, { url: 'https://a/2.png' }]);
  });

  test('legacy tasks list bare URLs', () => {
    const task = toImageTask('t1', {
      data: { status: 'success', result: { images: ['https://a/1.png', 'https://a/2.png'] } },
    });
    expect(task.images).toEqual([{ url: 'https://a/1.png' }, { url: 'https://a/2.png' }]);
  });

  test('a failed task carries its error', () => {
    const task = toImageTask('t1', {
      data: { status: 'error', error: { code: 'FormatUnsupported', message: 'bad' } },
    });
    expect(task.state).toBe('failed');
    expect(task.error).toEqual({ code: 'FormatUnsupported', message: 'bad' });
    expect(toImageTask('t2', { data: { status: 'failed', error: 'plain text' } }).error).toEqual({
      message: 'plain text',
    });
  });

  test('never throws on any JSON', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const task = toImageTask('t', value);
        expect(['pending', 'running', 'succeeded', 'failed']).toContain(task.state);
        expect(Array.isArray(task.images)).toBe(true);
      }),
      { numRuns: 500, seed: 42 },
    );
  });
});

describe('toTaskSubmission', () => {
  test('reads the task ID and status', () => {
    const submission = toTaskSubmission(
      { code: 200, data: [{ status: 'submitted', task_id: 'task_9' }], error: null },
      'POST /v1/videos/generations',
    );
    expect(submission).toMatchObject({ task_id: 'task_9', status: 'submitted' });
    expect(submission.raw.error).toBeNull();
  });

  test('an accepted answer without a task ID is ambiguous, never a reason to resubmit', () => {
    expect(() => toTaskSubmission({ code: 200, data: [] }, 'POST /v1/videos/generations')).toThrow(
      AmbiguousSubmissionError,
    );
  });
});
