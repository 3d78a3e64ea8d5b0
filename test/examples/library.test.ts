// Covers: examples/: the library examples against the mock gateway
import { afterAll, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import { main } from '../../examples/library-review.js';
import { type MockGateway, startMockGateway } from '../../src/testing/index.js';

let gateway: MockGateway;

beforeAll(async () => {
  // A fast real clock: a 5 s review takes 5 ms, so the example's own polling finishes quickly.
  gateway = await startMockGateway({ speed: 1_000 });
});
beforeEach(() => {
  vi.spyOn(console, 'log').mockImplementation(() => undefined);
});
afterAll(async () => {
  vi.restoreAllMocks();
  await gateway.close();
});

describe('library-review example', () => {
  test('submits a batch, waits, prints the asset:// references and uses one in a vidmodel-2.5 request', async () => {
    const result = await main({ baseURL: gateway.url, apiKey: gateway.apiKey, interval: 5 });
    expect(result.status).toBe('completed');
    expect(result.usable).toHaveLength(2);
    expect(result.usable.every((ref) => /^asset:\/\/asset_/.test(ref))).toBe(true);
    for (const ref of result.usable) expect(console.log).toHaveBeenCalledWith(`  ${ref}`);

    const video = gateway.requests.find((r) => r.method === 'POST' && r.path === '/v1/videos/generations');
    expect(video?.body).toMatchObject({ model: 'vidmodel-2.5', image_urls: [result.usable[0]] });
    expect(result.videoTaskId).toMatch(/^cgt-/);
    expect(result.videoStatus).toBe('completed');
    // The review itself is not billed; only the video task has ledger entries.
    expect(gateway.ledger.entriesFor(result.reviewTaskId)).toEqual([]);
    expect(gateway.ledger.entriesFor(result.videoTaskId).map((e) => e.kind)).toEqual(['reserve', 'settle']);
  });
});
