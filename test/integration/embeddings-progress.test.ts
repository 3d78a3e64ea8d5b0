// Covers: the client against the mock gateway: embeddings progress
/**
 * `embeddings.createBatched({ onProgress })` against the mock gateway: a call after each batch,
 * one at a time, counting every text; a callback that fails stops the batches.
 */
import { describe, expect, test } from 'vitest';
import { type BatchProgress, InvalidOptionError, MediaGatewayError } from '../../src/index.js';
import { rejection } from '../helpers/rejection.js';
import { mockGatewayClient } from './mock-client.js';

const { gateway, client } = await mockGatewayClient();
const embeddingRequests = () => gateway.requests.filter((r) => r.path === '/v1/embeddings');
const texts = Array.from({ length: 10 }, (_, i) => `text number ${i}`);
const params = { model: 'bge-m3' } as const;

describe('createBatched onProgress', () => {
  test('is called after each batch, done rising to every text, batches counted', async () => {
    const calls: BatchProgress[] = [];
    const result = await client.embeddings.createBatched(texts, params, {
      batchSize: 3,
      concurrency: 2,
      onProgress: (p) => void calls.push(p),
    });
    expect(result.data).toHaveLength(10);
    expect(embeddingRequests()).toHaveLength(4);
    expect(calls.map((c) => c.batchesDone)).toEqual([1, 2, 3, 4]);
    expect(calls.every((c) => c.total === 10 && c.batches === 4)).toBe(true);
    const done = calls.map((c) => c.done);
    expect(done).toEqual([...done].sort((a, b) => a - b));
    expect(done.at(-1)).toBe(10);
    // Each step is one batch's texts: three of 3 and one of 1, in the order they answered.
    const steps = done.map((d, i) => d - (done[i - 1] ?? 0)).sort();
    expect(steps).toEqual([1, 3, 3, 3]);
  });

  test('an async callback is awaited, and never runs twice at once', async () => {
    let running = 0;
    let overlapped = false;
    const finished: number[] = [];
    await client.embeddings.createBatched(texts, params, {
      batchSize: 2,
      concurrency: 4,
      onProgress: async (p) => {
        running++;
        if (running > 1) overlapped = true;
        await new Promise((resolve) => setTimeout(resolve, 5));
        running--;
        finished.push(p.done);
      },
    });
    // createBatched settled only after every call finished.
    expect(finished).toHaveLength(5);
    expect(finished.at(-1)).toBe(10);
    expect(overlapped).toBe(false);
  });

  test('a callback that throws stops the batches: MediaGatewayError with the error as cause', async () => {
    const boom = new Error('the progress bar broke');
    const error = await rejection(
      client.embeddings.createBatched(texts, params, {
        batchSize: 3,
        concurrency: 2,
        onProgress: () => {
          throw boom;
        },
      }),
    );
    expect(error).toBeInstanceOf(MediaGatewayError);
    expect(error.cause).toBe(boom);
    expect(error.message).toMatch(/onProgress failed after 3 of 10 texts \(Error: the progress bar broke\)/);
    // The two batches in flight answered; none after them was sent.
    expect(embeddingRequests()).toHaveLength(2);
  });

  test('a rejected promise stops them the same way', async () => {
    const error = await rejection(
      client.embeddings.createBatched(texts, params, {
        batchSize: 5,
        concurrency: 1,
        onProgress: async () => Promise.reject(new Error('disk full')),
      }),
    );
    expect(error.message).toMatch(/after 5 of 10 texts \(Error: disk full\)/);
    expect(embeddingRequests()).toHaveLength(1);
  });

  test.each([
    ['a string', 'log'],
    ['a number', 42],
    ['null', null],
  ])('an onProgress that is %s is refused before anything is sent', async (_name, onProgress) => {
    const error = await rejection(
      client.embeddings.createBatched(texts, params, { onProgress: onProgress as unknown as () => void }),
    );
    expect(error).toBeInstanceOf(InvalidOptionError);
    expect(error).toMatchObject({ option: 'onProgress' });
    expect(embeddingRequests()).toHaveLength(0);
  });
});
