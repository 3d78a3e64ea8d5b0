// Covers: the client against the mock gateway: uploads
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FormData, fetch } from 'undici';
import { afterAll, describe, expect, test } from 'vitest';
import {
  BadRequestError,
  fileFromPath,
  PayloadTooLargeError,
  RequestValidationError,
} from '../../src/index.js';
import { mp4Video, pngImage } from '../../src/testing/index.js';
import { gif, jpeg, png, webpLossless } from '../core/image-fixtures.js';
import { rejection } from '../helpers/rejection.js';
import { apiRequests, partSummary, sha256, sha256File, writePaddedFile } from './images-helpers.js';
import { mockGatewayClient } from './mock-client.js';

const MiB = 1024 * 1024;
const { gateway, client, agent } = await mockGatewayClient({ maxRetries: 2 });
const dir = await mkdtemp(join(tmpdir(), 'mediagw-uploads-'));
afterAll(() => rm(dir, { recursive: true, force: true }));

const uploads = () => apiRequests(gateway, 'POST', '/v1/uploads/images');

describe('uploads.image', () => {
  test('a PNG goes in the one part file; the answer is the uploaded image with a public URL', async () => {
    const bytes = pngImage({ seed: 11 });
    const uploaded = await client.uploads.image(bytes);
    expect(uploaded).toEqual({
      url: expect.stringMatching(new RegExp(`^${gateway.mediaUrl}/`)),
      filename: 'image.png',
      content_type: 'image/png',
      bytes: bytes.length,
      created_at: gateway.clock.nowSeconds(),
    });
    const [sent] = uploads();
    expect(partSummary(sent)).toEqual([{ name: 'file', filename: 'image.png', contentType: 'image/png' }]);
    expect(sent?.parts?.[0]?.sha256).toBe(sha256(bytes));
    // The URL is public: readable without a key.
    const response = await fetch(uploaded.url, { dispatcher: agent });
    expect(response.status).toBe(200);
    expect(Buffer.from(await response.arrayBuffer())).toEqual(bytes);
  });

  test.each([
    ['JPEG', jpeg(40, 30), 'image/jpeg', 'photo.jpg'],
    ['GIF', gif(10, 10), 'image/gif', 'anim.gif'],
    ['WebP', webpLossless(12, 12, true), 'image/webp', 'pic.webp'],
  ])('%s from disk keeps its name and detected type', async (_name, bytes, type, filename) => {
    const path = join(dir, filename);
    await writePaddedFile(path, bytes, bytes.length);
    const uploaded = await client.uploads.image(await fileFromPath(path));
    expect(uploaded).toMatchObject({ filename, content_type: type, bytes: bytes.length });
  });

  test('a file of exactly 20 MiB streams from disk and is accepted', async () => {
    const path = join(dir, 'exactly-20.png');
    await writePaddedFile(path, pngImage(), 20 * MiB);
    const uploaded = await client.uploads.image(await fileFromPath(path));
    expect(uploaded.bytes).toBe(20 * MiB);
    const [sent] = uploads();
    expect(sent?.parts?.[0]?.size).toBe(20 * MiB);
    expect(sent?.parts?.[0]?.sha256).toBe(await sha256File(path));
  });

  test('a file of varied bytes arrives intact through the reused read buffers, whole or as a range', async () => {
    // A pattern that differs at every 64 KiB: a buffer overwritten before the socket sent it shows.
    const bytes = Buffer.concat([pngImage({ seed: 5 }), randomBytes(3 * MiB + 12_345)]);
    const path = join(dir, 'varied.png');
    await writeFile(path, bytes);
    await client.uploads.image(await fileFromPath(path));
    await client.uploads.image(createReadStream(path, { end: 2 * MiB - 1 }));
    const [whole, range] = uploads().slice(-2);
    expect(whole?.parts?.[0]).toMatchObject({ size: bytes.length, sha256: sha256(bytes) });
    expect(range?.parts?.[0]).toMatchObject({ size: 2 * MiB, sha256: sha256(bytes.subarray(0, 2 * MiB)) });
  });

  test('over 20 MiB is refused before sending', async () => {
    const path = join(dir, 'too-big.png');
    await writePaddedFile(path, pngImage(), 20 * MiB + 1);
    const error = await rejection(client.uploads.image(await fileFromPath(path)));
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(error.issues).toEqual([{ path: 'file', message: expect.stringMatching(/at most 20 MiB/) }]);
    expect(gateway.requests).toHaveLength(0);
  });

  test('a stream of unknown length past 20 MiB is cut off, and the error says bytes were sent', async () => {
    let produced = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        // Bounded: ends by itself at 22 MiB if nothing stops it sooner.
        if (produced >= 22 * MiB) return controller.close();
        const chunk = produced === 0 ? Buffer.concat([pngImage(), Buffer.alloc(MiB)]) : Buffer.alloc(MiB);
        produced += chunk.byteLength;
        controller.enqueue(chunk);
      },
    });
    const error = await rejection(client.uploads.image(stream));
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(error.issues).toEqual([{ path: 'file', message: expect.stringMatching(/at most 20 MiB/) }]);
    const sent = Number(/cut off after (\d+) bytes of the file had been sent/.exec(error.message)?.[1]);
    expect(sent).toBeGreaterThan(19 * MiB);
    expect(sent).toBeLessThanOrEqual(20 * MiB);
    expect(error.message).not.toContain('was not sent');
    expect(error.message).toContain('Nothing was uploaded');
    expect(error.stack?.split('\n')[0]).toContain('was cut off after');
    // The gateway saw the request begin and end early, and took nothing. It records the request
    // once it gives up on its body: wait for that (bounded), so no later test sees it.
    for (let i = 0; i < 500 && uploads().length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(uploads()).toEqual([
      expect.objectContaining({ error: 'the client went away before the body was complete' }),
    ]);
    expect(uploads()[0]?.status).toBeUndefined();
  });

  test.each([
    ['a video', mp4Video()],
    ['text', Buffer.from('just some text, no image')],
  ])('%s is refused by its bytes before sending', async (_name, bytes) => {
    const error = await rejection(
      client.uploads.image(new Blob([new Uint8Array(bytes)], { type: 'image/png' })),
    );
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(error.issues?.[0]?.path).toBe('file');
    expect(gateway.requests).toHaveLength(0);
  });

  test.each([
    ['a PNG cut before its IHDR', png(8, 8).subarray(0, 16)],
    ['a JPEG with no frame header', Buffer.from([0xff, 0xd8, 0xff, 0xd9])],
    ['a GIF of width 0', gif(0, 10)],
    ['a WebP with an unknown chunk', Buffer.from('RIFF\x20\0\0\0WEBPXXXX', 'binary')],
  ])('%s: its dimensions cannot be read, refused before sending', async (_name, bytes) => {
    const error = await rejection(client.uploads.image(new Uint8Array(bytes)));
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(error.message).toContain('uploads.image was not sent');
    expect(error.issues).toEqual([
      { path: 'file', message: expect.stringContaining('must be an image whose dimensions can be read') },
    ]);
    expect(gateway.requests).toHaveLength(0);
  });

  test('a stream whose frame header lies past its first 64 KiB is sent: the gateway judges it', async () => {
    const bytes = jpeg(40, 30, { app1Bytes: 100_000 });
    // The SDK sees only the stream's first 64 KiB, so it leaves the dimensions to the gateway; the
    // mock reads no further either, and answers 400.
    const error = await rejection(client.uploads.image(new Blob([bytes]).stream()));
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error.message).toContain('dimensions could not be read');
    expect(uploads()).toHaveLength(1);
  });

  test('a bare string is refused with the file helpers named', async () => {
    await expect(client.uploads.image('./photo.png' as never)).rejects.toThrow(/fileFromPath/);
    expect(gateway.requests).toHaveLength(0);
  });

  test('413 from the gateway is PayloadTooLargeError, not retried', async () => {
    gateway.inject({
      match: { path: '/v1/uploads/images' },
      fault: { status: 413, body: { code: 'payload_too_large', message: 'too large', data: null } },
    });
    const error = await rejection(client.uploads.image(pngImage()));
    expect(error).toBeInstanceOf(PayloadTooLargeError);
    expect(error.status).toBe(413);
    expect(error.requestId).toMatch(/^req_/);
    expect(uploads()).toHaveLength(1);
  });
});

describe('the mock upload route', () => {
  async function post(data: FormData) {
    const response = await fetch(`${gateway.url}/v1/uploads/images`, {
      method: 'POST',
      body: data,
      dispatcher: agent,
      headers: { authorization: `Bearer ${gateway.apiKey}` },
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  test('answers 413 over 20 MiB with the spec body shape', async () => {
    const data = new FormData();
    const big = Buffer.alloc(20 * MiB + 1);
    pngImage().copy(big);
    data.append('file', new Blob([big]), 'big.png');
    const answer = await post(data);
    expect(answer.status).toBe(413);
    expect(answer.body).toMatchObject({ code: 'payload_too_large', data: null });
  });

  test.each([
    ['no file part', () => new FormData(), /exactly one file part named file/],
    [
      'a URL as text',
      () => {
        const d = new FormData();
        d.append('file', 'https://example.com/a.png');
        return d;
      },
      /URLs or base64 text are not accepted/,
    ],
    [
      'a non-image',
      () => {
        const d = new FormData();
        d.append('file', new Blob([new Uint8Array(mp4Video())]), 'clip.mp4');
        return d;
      },
      /JPEG, PNG, GIF or WebP/,
    ],
  ])('answers 400 for %s', async (_name, build, message) => {
    const answer = await post(build());
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ code: 'invalid_request', data: null });
    expect(String(answer.body.message)).toMatch(message);
  });
});
