// Covers: src/internal/media-download.ts
import { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { MediaGateway } from '../../src/client.js';
import { APIConnectionError, APIUserAbortError, MediaGatewayError } from '../../src/core/errors.js';
import { MediaDownload } from '../../src/internal/media-download.js';
import { testClient } from '../helpers/client.js';
import { type RawServer, startRawServer } from '../helpers/raw-server.js';
import { rejection } from '../helpers/rejection.js';

// A download whose connection is cut after 1,000 of 100,000 bytes.
let cut: RawServer;
let client: MediaGateway;
beforeAll(async () => {
  cut = await startRawServer((req, res) => {
    res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': '100000' });
    if (req.url?.includes('whole')) return void res.end(Buffer.alloc(100_000));
    res.write(Buffer.alloc(1_000));
    // Cut once the first bytes are out, so the failure is mid-body.
    setImmediate(() => res.socket?.destroy());
  });
  client = testClient({ apiKey: 'mgw_stream_key_00001111', baseURL: cut.url });
});
afterAll(() => cut.close());

async function readAll(stream: AsyncIterable<unknown>): Promise<number> {
  let bytes = 0;
  for await (const chunk of stream) bytes += (chunk as Uint8Array).byteLength;
  return bytes;
}

async function readWeb(body: ReadableStream<Uint8Array>): Promise<number> {
  const reader = body.getReader();
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return bytes;
    bytes += value.byteLength;
  }
}

describe('a download cut off mid-body, read as a stream', () => {
  test('nodeStream() errors with APIConnectionError, as arrayBuffer() rejects', async () => {
    const error = await rejection(readAll((await client.videos.downloadContent('t1')).nodeStream()));
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(error.message).toMatch(/^The download broke off after \d+ bytes/);
    expect(error.cause).toBeInstanceOf(Error);
    const same = await rejection((await client.videos.downloadContent('t1')).arrayBuffer());
    expect(same).toBeInstanceOf(APIConnectionError);
  });

  test('body (web) errors with APIConnectionError, read directly or through a Response', async () => {
    expect(await rejection(readWeb((await client.videos.downloadContent('t1')).body))).toBeInstanceOf(
      APIConnectionError,
    );
    const viaResponse = new Response((await client.videos.downloadContent('t1')).body).arrayBuffer();
    expect(await rejection(viaResponse)).toBeInstanceOf(APIConnectionError);
  });

  test('a whole download streams every byte, through either stream', async () => {
    expect(await readAll((await client.videos.downloadContent('whole')).nodeStream())).toBe(100_000);
    expect(await readWeb((await client.videos.downloadContent('whole')).body)).toBe(100_000);
  });
});

describe('MediaDownload streams', () => {
  test("the caller's abort is APIUserAbortError from nodeStream()", async () => {
    const source = new Readable({ read() {} });
    source.push(Buffer.from('ab'));
    const stream = new MediaDownload(source, {}).nodeStream();
    setImmediate(() => source.destroy(Object.assign(new Error('aborted'), { name: 'AbortError' })));
    expect(await rejection(readAll(stream))).toBeInstanceOf(APIUserAbortError);
  });

  test('a stream that ends short of contentLength errors, one that ends on it does not', async () => {
    const short = new MediaDownload(Readable.from([Buffer.from('abc')]), { contentLength: 5 });
    const error = await rejection(readAll(short.nodeStream()));
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(error.message).toBe('The download ended after 3 of 5 bytes');
    const whole = new MediaDownload(Readable.from([Buffer.from('abcde')]), { contentLength: 5 });
    expect(await readAll(whole.nodeStream())).toBe(5);
  });

  test('the SDK errors of the source pass as they are', async () => {
    const own = new MediaGatewayError('already mapped');
    const source = new Readable({ read() {} });
    const stream = new MediaDownload(source, {}).nodeStream();
    setImmediate(() => source.destroy(own));
    expect(await rejection(readAll(stream))).toBe(own);
  });

  test('nothing is read ahead of an idle consumer; the rest flows once it reads', async () => {
    const CHUNK = 64 * 1024;
    const TOTAL = 1_000;
    let pulled = 0;
    const source = new Readable({
      read() {
        pulled++;
        this.push(pulled <= TOTAL ? Buffer.alloc(CHUNK) : null);
      },
    });
    const stream = new MediaDownload(source, {}).nodeStream();
    for (let turn = 0; turn < 50; turn++) await nextTurn();
    // The pass-through's two small buffers and the source's own: a few chunks, not 1,000.
    expect(pulled).toBeLessThan(10);
    expect(await readAll(stream)).toBe(TOTAL * CHUNK);
  });

  test('a consumer that stops early destroys the source', async () => {
    const source = new Readable({
      read() {
        this.push(Buffer.alloc(1024));
      },
    });
    for await (const _chunk of new MediaDownload(source, {}).nodeStream()) break;
    // The pass-through closes a turn after the consumer lets go; the source follows it.
    for (let turn = 0; turn < 20 && !source.destroyed; turn++) await nextTurn();
    expect(source.destroyed).toBe(true);
  });
});
