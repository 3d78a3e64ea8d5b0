// Covers: src/internal/download.ts
/**
 * A download's body, once streaming, still ends the way the call's options say: the caller's
 * signal with APIUserAbortError (its reason as cause, whatever the reason), a pause past the
 * timeout with APIConnectionTimeoutError, through undici and through a fetch alike.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { APIConnectionTimeoutError, APIUserAbortError } from '../../src/core/errors.js';
import type { MediaDownload } from '../../src/internal/media-download.js';
import { testClient } from '../helpers/client.js';
import { type RawServer, startRawServer } from '../helpers/raw-server.js';
import { rejection } from '../helpers/rejection.js';

let server: RawServer;
let dir: string;
const streams = new Set<{ destroy(): void }>();
beforeAll(async () => {
  // Sends the headers and 6 bytes of 1,000, then nothing more until the client goes away.
  server = await startRawServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': '1000' });
    res.write('ftypmp');
    streams.add(res);
  });
  dir = await mkdtemp(join(tmpdir(), 'mediagw-abort-'));
});
afterEach(() => {
  for (const res of streams) res.destroy();
  streams.clear();
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

const transports = [
  ['undici', {}],
  ['a fetch', { fetch: globalThis.fetch }],
] as const;

const reads: Array<[string, (download: MediaDownload) => Promise<unknown>]> = [
  ['saveTo', (download) => download.saveTo(join(dir, `v-${Math.random()}.mp4`))],
  ['arrayBuffer', (download) => download.arrayBuffer()],
  [
    'nodeStream()',
    async (download) => {
      for await (const _ of download.nodeStream());
    },
  ],
];

describe.each(transports)('through %s', (_, transport) => {
  const client = () => testClient({ apiKey: 'k', baseURL: server.url, ...transport });

  test.each(reads)(
    "the caller's abort with a reason, while %s reads, is APIUserAbortError",
    async (_name, read) => {
      for (const reason of [new Error('user cancelled'), 'stop']) {
        const controller = new AbortController();
        const download = await client().videos.downloadContent('t1', { signal: controller.signal });
        const reading = rejection(read(download));
        setTimeout(() => controller.abort(reason), 30);
        const error = await reading;
        expect(error).toBeInstanceOf(APIUserAbortError);
        expect(error.cause).toBe(reason);
      }
      // saveTo keeps nothing of an aborted download.
      expect((await readdir(dir)).filter((name) => !name.startsWith('.'))).toEqual([]);
    },
  );

  test('a body that pauses past the timeout is APIConnectionTimeoutError', async () => {
    const download = await client().videos.downloadContent('t1', { timeout: 200 });
    const error = await rejection(download.arrayBuffer());
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
  });
});
