// Covers: examples/: the embeddings examples against the mock gateway
import { afterAll, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import { main as batched } from '../../examples/embeddings-batched.js';
import { main as similarity } from '../../examples/embeddings-similarity.js';
import { type MockGateway, startMockGateway } from '../../src/testing/index.js';

let gateway: MockGateway;

beforeAll(async () => {
  gateway = await startMockGateway();
});
beforeEach(() => {
  gateway.resetRequests();
  vi.spyOn(console, 'log').mockImplementation(() => undefined);
});
afterAll(async () => {
  vi.restoreAllMocks();
  await gateway.close();
});

describe('embeddings examples', () => {
  test('embeddings-similarity embeds two texts in one request and prints their similarity', async () => {
    const result = await similarity({ baseURL: gateway.url, apiKey: gateway.apiKey });
    expect(result.dimensions).toBe(512);
    expect(result.similarity).toBeGreaterThan(0.5);
    expect(result.similarity).toBeLessThanOrEqual(1);
    const sent = gateway.requests.filter((r) => r.path === '/v1/embeddings');
    expect(sent).toHaveLength(1);
    expect(sent[0]?.body).toMatchObject({ model: 'text-embedding-3-small', dimensions: 512 });
    expect(console.log).toHaveBeenCalledWith(expect.stringMatching(/cosine similarity 0\.\d{4}/));
  });

  test('embeddings-batched sends small batches and finds the library chunk', async () => {
    const result = await batched({ baseURL: gateway.url, apiKey: gateway.apiKey });
    const sent = gateway.requests.filter((r) => r.path === '/v1/embeddings');
    const batches = sent.map((r) => (r.body as { input: string | string[] }).input).filter(Array.isArray);
    expect(batches.length).toBe(Math.ceil(result.chunks / 4));
    expect(batches.every((b) => b.length <= 4)).toBe(true);
    expect(result.best).toMatch(/library|asset/);
  });
});
