// Covers: memory and connections under load
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { pngImage, startMockGateway } from '../../src/testing/index.js';
import { testClient } from '../helpers/client.js';
import { mib, runChild } from './child.js';
import { watchConnections } from './resources.js';

/** The documented bounds (docs/reliability.md). */
const BOUNDS = {
  /** Keep-alive requests through one client, and how many are in flight at once. */
  requests: 10_000,
  concurrency: 8,
  /** Heap after minus heap before the requests, both after full garbage collections. */
  heapGrowthBytes: 4 * 1024 * 1024,
  /** Upload and download sizes. */
  uploadBytes: 20 * 1024 * 1024,
  downloadBytes: 500_000_000,
  /**
   * Peak RSS over the RSS after a warm-up call, during the upload: the budget of the bench (2). A
   * file on disk is read into four reused buffers (measured 0-3 MiB); one new Buffer per chunk
   * would pile up some 20 MiB of garbage before V8 collects it.
   */
  uploadRssGrowthBytes: 16 * 1024 * 1024,
  /**
   * The same during the download. The 64 KiB chunks a download passes through are garbage that V8
   * collects once some 64 MB of it has piled up, so RSS climbs by about that much with undici
   * alone (measured 47-64 MiB, with or without the SDK): the bound is twice that. A download that
   * held the body would pass it by hundreds of megabytes.
   */
  downloadRssGrowthBytes: 128 * 1024 * 1024,
  /**
   * What stays alive (JS heap and Buffers) during the same call, collecting garbage every 10 ms:
   * the chunks of the last 10 ms at most, never the file or the body.
   */
  liveGrowthBytes: 16 * 1024 * 1024,
} as const;

const figures: Record<string, number> = {};
let folder: string;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'mediagw-memory-'));
});
afterAll(async () => {
  console.info('load-memory figures (MiB)', JSON.stringify(figures));
  await rm(folder, { recursive: true, force: true });
});

describe('memory', () => {
  test(`${BOUNDS.requests} keep-alive requests through one client leave the heap within ${mib(BOUNDS.heapGrowthBytes)} MiB`, async () => {
    // Every request is counted below: keep them all.
    const gateway = await startMockGateway({ clock: 'manual', requestLogLimit: 2 * BOUNDS.requests });
    try {
      const setup = testClient({ gateway });
      const { task_id } = await setup.videos.create({ model: 'vidmodel-2.0-mini', prompt: 'a kite' });
      gateway.resetRequests();
      const connections = watchConnections(gateway.servers.api);
      const result = await runChild<{ before: number; after: number; delta: number }>('keepalive-heap.ts', [
        gateway.url,
        gateway.apiKey,
        task_id,
        String(BOUNDS.requests),
        String(BOUNDS.concurrency),
      ]);
      figures.heapGrowth = mib(result.delta);
      figures.keepAliveConnections = connections.accepted;
      // Warm-up plus the measured requests, all answered.
      expect(gateway.requests.filter((r) => r.status === 200)).toHaveLength(BOUNDS.requests + 1_000);
      // Keep-alive: 11,000 requests share a handful of connections (undici's default pool may open
      // a few more than the requests in flight while finished ones are handed back).
      expect(connections.accepted).toBeLessThanOrEqual(BOUNDS.concurrency * 4);
      expect(result.delta).toBeLessThan(BOUNDS.heapGrowthBytes);
    } finally {
      await gateway.close();
    }
  }, 120_000);

  test(`uploading a ${mib(BOUNDS.uploadBytes)} MiB file grows RSS by less than ${mib(BOUNDS.uploadRssGrowthBytes)} MiB`, async () => {
    const gateway = await startMockGateway({ clock: 'manual' });
    try {
      // A real PNG header (the gateway checks the format and dimensions), padded to the 20 MiB limit.
      const png = pngImage({ width: 64, height: 64 });
      const big = Buffer.alloc(BOUNDS.uploadBytes);
      png.copy(big);
      const bigPath = join(folder, 'big.png');
      const smallPath = join(folder, 'small.png');
      await writeFile(bigPath, big);
      await writeFile(smallPath, png);
      const result = await runChild<{ bytes: number; again: number; growth: number; liveGrowth: number }>(
        'memory-peak.ts',
        ['upload', gateway.url, gateway.apiKey, bigPath, smallPath],
      );
      figures.uploadRssGrowth = mib(result.growth);
      figures.uploadLiveGrowth = mib(result.liveGrowth);
      expect([result.bytes, result.again]).toEqual([BOUNDS.uploadBytes, BOUNDS.uploadBytes]);
      const received = gateway.requests.at(-1)?.parts?.find((p) => p.name === 'file');
      expect(received?.size).toBe(BOUNDS.uploadBytes);
      expect(result.growth).toBeLessThan(BOUNDS.uploadRssGrowthBytes);
      expect(result.liveGrowth).toBeLessThan(BOUNDS.liveGrowthBytes);
    } finally {
      await gateway.close();
    }
  }, 120_000);

  test(`downloading a ${BOUNDS.downloadBytes / 1e6} MB video grows RSS by less than ${mib(BOUNDS.downloadRssGrowthBytes)} MiB`, async () => {
    const gateway = await startMockGateway({ clock: 'manual', largeMediaBytes: BOUNDS.downloadBytes });
    try {
      const setup = testClient({ gateway });
      const { task_id } = await setup.videos.create({
        model: 'vidmodel-2.0-mini',
        prompt: 'a kite',
        return_last_frame: true,
      });
      await gateway.clock.advance(20_000);
      const result = await runChild<{ bytes: number; again: number; growth: number; liveGrowth: number }>(
        'memory-peak.ts',
        ['download', gateway.url, gateway.apiKey, task_id, task_id],
      );
      figures.downloadRssGrowth = mib(result.growth);
      figures.downloadLiveGrowth = mib(result.liveGrowth);
      expect([result.bytes, result.again]).toEqual([BOUNDS.downloadBytes, BOUNDS.downloadBytes]);
      expect(result.growth).toBeLessThan(BOUNDS.downloadRssGrowthBytes);
      expect(result.liveGrowth).toBeLessThan(BOUNDS.liveGrowthBytes);
    } finally {
      await gateway.close();
    }
  }, 120_000);
});
