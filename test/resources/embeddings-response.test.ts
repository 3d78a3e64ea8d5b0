// Covers: src/resources/embeddings-response.ts
import { describe, expect, test } from 'vitest';
import { InvalidResponseError } from '../../src/core/errors.js';
import {
  cosineSimilarity,
  decodeBase64Embedding,
  inBatches,
  toEmbeddingsResponse,
} from '../../src/resources/embeddings-response.js';

const base64Of = (values: number[]) => Buffer.from(new Float32Array(values).buffer).toString('base64');

describe('toEmbeddingsResponse', () => {
  test('reads the OpenAI-compatible list and tags model and dimensions', () => {
    const response = toEmbeddingsResponse(
      {
        object: 'list',
        model: 'bge-m3',
        data: [
          { object: 'embedding', index: 1, embedding: [0, 1, 0] },
          { object: 'embedding', index: 0, embedding: [1, 0, 0] },
        ],
        usage: { prompt_tokens: 4, total_tokens: 4 },
      },
      'bge-m3',
    );
    expect(response.model).toBe('bge-m3');
    expect(response.dimensions).toBe(3);
    expect(response.data.map((d) => d.index)).toEqual([0, 1]);
    expect(response.data[0]?.embedding).toEqual([1, 0, 0]);
    expect(response.usage?.total_tokens).toBe(4);
  });

  test('decodes base64 vectors transparently', () => {
    const response = toEmbeddingsResponse(
      { data: [{ embedding: base64Of([0.5, -2, 0.25]) }] },
      'text-embedding-3-small',
    );
    expect(response.data[0]?.embedding).toEqual([0.5, -2, 0.25]);
    expect(response.model).toBe('text-embedding-3-small');
  });

  test('is lenient about missing fields', () => {
    const response = toEmbeddingsResponse({ data: [{ embedding: [1, 2] }, { embedding: [3, 4] }] }, 'bge-m3');
    expect(response.data.map((d) => d.index)).toEqual([0, 1]);
    expect(response.usage).toBeUndefined();
  });

  test('an answer with no vector list is an InvalidResponseError', () => {
    expect(() => toEmbeddingsResponse({ text: 'hello' }, 'bge-m3')).toThrow(InvalidResponseError);
  });
});

describe('helpers', () => {
  test('decodeBase64Embedding reads little-endian float32', () => {
    expect(decodeBase64Embedding(base64Of([1, 2, 3]))).toEqual([1, 2, 3]);
  });

  test('cosineSimilarity', () => {
    expect(cosineSimilarity([1, 0], [1, 0])).toBeCloseTo(1);
    expect(cosineSimilarity([1, 0], [0, 1])).toBeCloseTo(0);
    expect(() => cosineSimilarity([1], [1, 2])).toThrow(RangeError);
  });

  test('inBatches keeps input order and bounds concurrency', async () => {
    let running = 0;
    let peak = 0;
    const items = Array.from({ length: 23 }, (_, i) => i);
    const results = await inBatches(items, 5, 2, async (batch, offset) => {
      running++;
      peak = Math.max(peak, running);
      await new Promise((r) => setTimeout(r, 10 - batch.length));
      running--;
      return { offset, batch };
    });
    expect(results.flatMap((r) => r.batch)).toEqual(items);
    expect(results.map((r) => r.offset)).toEqual([0, 5, 10, 15, 20]);
    expect(peak).toBe(2);
  });

  test('inBatches starts no batch after a failure and throws the first error', async () => {
    const started: number[] = [];
    const run = inBatches([0, 1, 2, 3, 4, 5], 1, 2, async (_batch, offset) => {
      started.push(offset);
      await new Promise((r) => setTimeout(r, offset === 0 ? 1 : 5));
      if (offset === 0) throw new Error('first failed');
      return offset;
    });
    await expect(run).rejects.toThrow('first failed');
    expect(started).toEqual([0, 1]);
  });
});
