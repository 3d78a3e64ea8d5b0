// Covers: the answer decoders under hostile JSON (resources/*-task.ts, embeddings-response.ts)
/**
 * The response decoders read whatever JSON the gateway sends: no answer makes them throw
 * anything but the error each one documents, and none takes more than linear time.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { AmbiguousSubmissionError, InvalidResponseError, TaskFailedError } from '../../src/core/errors.js';
import { toEmbeddingsResponse } from '../../src/resources/embeddings-response.js';
import { imageTaskOutcome, toImageTask } from '../../src/resources/image-task.js';
import { assetReference, toReviewTask, unwrap } from '../../src/resources/library/types.js';
import { type SubmissionEnvelope, toTaskSubmission } from '../../src/resources/submission.js';
import type { VideoTask } from '../../src/resources/video-task.js';
import { testClient } from '../helpers/client.js';
import { expectLinear } from '../security/linear-time.js';
import { hostileJson, shaped } from './hostile-json.js';
import { FUZZ_SHAPES, fuzz } from './settings.js';

/** Runs `decode`; an error other than `allowed` (if any) fails the property. */
function onlyThrows(decode: () => unknown, allowed?: abstract new (...args: never[]) => Error): void {
  try {
    decode();
  } catch (error) {
    if (allowed && error instanceof allowed) return;
    throw error;
  }
}

const imageTaskAnswer = shaped({
  code: 200,
  data: {
    status: 'succeeded',
    result: { images: [{ url: 'https://gw.example/i.png' }, 'https://gw.example/j.png'] },
    error: { code: 'x', message: 'y' },
    fail_reason: 'why',
  },
});
const embeddingsAnswer = shaped({
  object: 'list',
  model: 'bge-m3',
  data: [
    { index: 0, embedding: [0.1, 0.2], object: 'embedding' },
    { index: 1, embedding: 'AAAAAA==' },
    [1, 2],
  ],
  usage: { prompt_tokens: 1, total_tokens: 1 },
});
const reviewAnswer = shaped({
  code: 0,
  data: {
    id: 'rt_1',
    status: 'succeeded',
    result: { usable_assets: ['asset://a', { asset_id: 'b' }, { id: 'c' }] },
  },
});
const submissionAnswer = shaped({
  code: 200,
  data: [{ status: 'submitted', task_id: 'task_1' }],
  error: null,
});
const videoAnswer = shaped({
  id: 'task_1',
  model: 'vidmodel-2.5',
  status: 'failed',
  error: { code: 'task_failed', message: 'no detail' },
});

describe('no answer makes a decoder throw an undocumented error', () => {
  test('image task answers: toImageTask and imageTaskOutcome never throw', () => {
    fc.assert(
      fc.property(fc.oneof(imageTaskAnswer, hostileJson), (raw) => {
        const task = toImageTask('task_1', raw);
        expect(['pending', 'succeeded', 'failed']).toContain(imageTaskOutcome(task));
        for (const image of task.images) expect(typeof image.url).toBe('string');
      }),
      fuzz(),
    );
  });

  test('embeddings answers: toEmbeddingsResponse throws InvalidResponseError or gives number vectors', () => {
    fc.assert(
      fc.property(fc.oneof(embeddingsAnswer, hostileJson), (raw) => {
        onlyThrows(() => {
          const response = toEmbeddingsResponse(raw, 'bge-m3', 'req_1');
          for (const item of response.data) {
            expect(Number.isFinite(item.index)).toBe(true);
            for (const value of item.embedding) expect(typeof value).toBe('number');
          }
        }, InvalidResponseError);
      }),
      fuzz(),
    );
  });

  test('review task answers: toReviewTask, unwrap and assetReference never throw', () => {
    fc.assert(
      fc.property(fc.oneof(reviewAnswer, hostileJson), (raw) => {
        const task = toReviewTask(raw);
        for (const ref of task.usable_assets) expect(ref.startsWith('asset://')).toBe(true);
        unwrap(raw);
        assetReference(raw);
      }),
      fuzz(),
    );
  });

  test('submission answers: toTaskSubmission throws AmbiguousSubmissionError or gives string fields', () => {
    fc.assert(
      fc.property(fc.oneof(submissionAnswer, hostileJson), (raw) => {
        onlyThrows(() => {
          const submission = toTaskSubmission(raw as SubmissionEnvelope, 'POST /v1/videos/generations');
          expect(typeof submission.task_id).toBe('string');
          expect(typeof submission.status).toBe('string');
        }, AmbiguousSubmissionError);
      }),
      fuzz(),
    );
  });

  test('video task answers: a wait ends with the task or a TaskFailedError', async () => {
    const client = testClient({ apiKey: 'mgw_test', baseURL: 'https://gw.example', maxRetries: 2 });
    const videos = client.videos;
    await fc.assert(
      // The transport hands on JSON objects only (anything else is an InvalidResponseError).
      fc.asyncProperty(
        fc.oneof(videoAnswer, hostileJson).filter((raw) => !!raw && typeof raw === 'object'),
        async (raw) => {
          let calls = 0;
          // The fuzzed answer first, then a completed task, so a pending one ends the wait too.
          videos.retrieve = (async () =>
            (calls++ === 0
              ? raw
              : { id: 'task_1', status: 'completed' }) as VideoTask) as unknown as typeof videos.retrieve;
          try {
            await videos.waitForTask('task_1', { interval: 1, timeout: 60_000 });
          } catch (error) {
            if (!(error instanceof TaskFailedError)) throw error;
            expect(typeof error.message).toBe('string');
          }
        },
      ),
      fuzz(Math.min(200, Math.ceil(fuzz().numRuns / 4))),
    );
  });
});

describe('decoding takes time linear in the answer', () => {
  const longList = (n: number, item: unknown) => Array.from({ length: n }, () => item);
  test.each([
    [
      'image task URLs',
      (n: number) => ({
        data: { status: 'succeeded', result: { images: longList(n, { url: 'https://x/a' }) } },
      }),
      (raw: unknown) => toImageTask('t', raw),
    ],
    [
      'embedding vectors',
      (n: number) => ({ data: longList(n / 16, { embedding: longList(16, '0.5') }) }),
      (raw: unknown) => toEmbeddingsResponse(raw, 'm'),
    ],
    [
      'base64 embeddings',
      (n: number) => ({ data: [{ embedding: 'AAAA'.repeat(n) }] }),
      (raw: unknown) => toEmbeddingsResponse(raw, 'm'),
    ],
    [
      'usable assets',
      (n: number) => ({ data: { result: { usable_assets: longList(n, { id: 'a' }) } } }),
      (raw: unknown) => toReviewTask(raw),
    ],
    [
      'a long status',
      (n: number) => ({ data: { status: '.'.repeat(n) } }),
      (raw: unknown) => toImageTask('t', raw),
    ],
  ] as const)('%s', (_, build, decode) => {
    // A floor well above the few milliseconds these take: allocation-heavy work can pause for GC.
    expectLinear(build, decode, { n: 8_192, floorMs: 250 });
  });

  test('random answer shapes, repeated', () => {
    fc.assert(
      fc.property(hostileJson, (unit) => {
        const build = (n: number) => ({
          data: { status: 'succeeded', result: { images: Array.from({ length: n }, () => unit) } },
        });
        expectLinear(build, (raw) => toImageTask('t', raw), { n: 4_096, floorMs: 250 });
      }),
      fuzz(FUZZ_SHAPES),
    );
  });
});
