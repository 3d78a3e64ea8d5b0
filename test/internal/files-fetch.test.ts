// Covers: src/internal/files.ts, src/internal/file-from-url.ts
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { APIUserAbortError, FileInputError } from '../../src/core/errors.js';
import type { FetchLike } from '../../src/core/fetch-like.js';
import { InvalidOptionError } from '../../src/core/options.js';
import { fileFromURL } from '../../src/internal/files.js';
import { pngImage } from '../../src/testing/state/media.js';
import { type RawServer, startRawServer } from '../helpers/raw-server.js';
import { rejection } from '../helpers/rejection.js';

const png = pngImage({ seed: 4 });
let server: RawServer;
const urls: string[] = [];
const counting: FetchLike = (url, init) => {
  urls.push(new URL(url).pathname);
  expect(init.redirect).toBe('manual');
  return globalThis.fetch(url, init);
};

beforeAll(async () => {
  server = await startRawServer((req, res) => {
    const hops = /^\/hop\/(\d+)$/.exec(req.url ?? '');
    if (hops) {
      const left = Number(hops[1]);
      res.writeHead(302, { location: left > 0 ? `/hop/${left - 1}` : '/cat.png' }).end();
    } else if (req.url === '/cat.png') res.writeHead(200, { 'content-type': 'image/png' }).end(png);
    else if (req.url === '/stall')
      res.writeHead(200, { 'content-type': 'image/png' }).write(png.subarray(0, 10));
    else res.writeHead(404).end('no');
  });
});
afterAll(() => server.close());

describe('fileFromURL through a fetch', () => {
  test('downloads through redirects, with the type and bytes of the answer', async () => {
    urls.length = 0;
    const file = await fileFromURL(`${server.url}/hop/2`, { fetch: counting });
    expect(file.type).toBe('image/png');
    expect(Buffer.from(await file.arrayBuffer())).toEqual(png);
    expect(urls).toEqual(['/hop/2', '/hop/1', '/hop/0', '/cat.png']);
  });

  test('a fetch that never answers and does not heed its signal still ends at the timeout', async () => {
    const deaf: FetchLike = () => new Promise(() => {});
    const error = await rejection(fileFromURL(`${server.url}/cat.png`, { fetch: deaf, timeout: 200 }));
    expect(error).toBeInstanceOf(FileInputError);
    expect(error.message).toMatch(/200 ms/);
  });

  test('more than 5 redirects, or a non-2xx answer, is FileInputError', async () => {
    const looping = await rejection(fileFromURL(`${server.url}/hop/5`, { fetch: counting }));
    expect(looping).toBeInstanceOf(FileInputError);
    expect(looping.message).toMatch(/more than 5 redirects/);
    const missing = await rejection(fileFromURL(`${server.url}/none`, { fetch: counting }));
    expect(missing).toBeInstanceOf(FileInputError);
    expect(missing.message).toMatch(/answered HTTP 404/);
  });

  test('a fetch that is not a function, or one given with a dispatcher, is refused before anything is sent', async () => {
    urls.length = 0;
    for (const options of [
      { fetch: 'fetch' as unknown as FetchLike },
      { fetch: counting, dispatcher: new Agent() },
    ]) {
      const error = await rejection(fileFromURL(`${server.url}/refused.png`, options));
      expect(error).toBeInstanceOf(InvalidOptionError);
      expect(error.message).toMatch(/^fetch must be a function, and given without `dispatcher`/);
    }
    expect(urls).toEqual([]);
    expect(server.received.filter((r) => r.path === '/refused.png')).toEqual([]);
  });

  test("the caller's signal aborts it mid-body: APIUserAbortError, the reason as cause", async () => {
    const controller = new AbortController();
    const reason = new Error('enough');
    const stalling: FetchLike = async (url, init) => {
      const response = await globalThis.fetch(url, init);
      setImmediate(() => controller.abort(reason));
      return response;
    };
    const error = await rejection(
      fileFromURL(`${server.url}/stall`, { fetch: stalling, signal: controller.signal }),
    );
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect(error.cause).toBe(reason);
  });
});
