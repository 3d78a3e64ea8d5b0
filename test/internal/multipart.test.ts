// Covers: src/internal/multipart.ts
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import busboy from 'busboy';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { RequestValidationError } from '../../src/core/errors.js';
import { fileFromPath } from '../../src/internal/files.js';
import {
  buildMultipart,
  imageEditParts,
  imageUploadParts,
  MAX_UPLOAD_BYTES,
  type MultipartBody,
  toTextPart,
} from '../../src/internal/multipart.js';
import { toUploadFile } from '../../src/internal/upload-file.js';
import { gif, jpeg, png, webpLossy } from '../core/image-fixtures.js';
import { rejection } from '../helpers/rejection.js';

interface Part {
  name: string;
  value?: string | undefined;
  filename?: string | undefined;
  mimeType?: string | undefined;
  size?: number | undefined;
  sha256?: string | undefined;
}

interface Received {
  parts: Part[];
  chunks: number;
  maxChunk: number;
  bytes: number;
}

/** Feeds the streamed body to busboy, a real streaming multipart parser, as a server would. */
async function receive({ body, headers }: MultipartBody): Promise<Received> {
  const parser = busboy({
    headers: { 'content-type': headers['content-type'] },
    limits: { fileSize: Number.MAX_SAFE_INTEGER },
  });
  const parts: Part[] = [];
  const pending: Promise<void>[] = [];
  parser.on('field', (name, value) => parts.push({ name, value }));
  parser.on('file', (name, stream, info) => {
    const part: Part = { name, filename: info.filename, mimeType: info.mimeType, size: 0 };
    parts.push(part);
    const hash = createHash('sha256');
    pending.push(
      new Promise((resolve, reject) => {
        stream.on('data', (chunk: Buffer) => {
          hash.update(chunk);
          part.size = (part.size ?? 0) + chunk.byteLength;
        });
        stream.on('end', () => {
          part.sha256 = hash.digest('hex');
          resolve();
        });
        stream.on('error', reject);
      }),
    );
  });
  const finished = new Promise<void>((resolve, reject) => {
    parser.on('close', resolve);
    parser.on('error', reject);
  });
  let chunks = 0;
  let maxChunk = 0;
  let bytes = 0;
  for await (const chunk of body) {
    chunks++;
    maxChunk = Math.max(maxChunk, chunk.byteLength);
    bytes += chunk.byteLength;
    parser.write(chunk);
  }
  parser.end();
  await finished;
  await Promise.all(pending);
  return { parts, chunks, maxChunk, bytes };
}

const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const base = { model: 'imgmodel-2', prompt: 'put a hat on the cat' } as const;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mediagw-multipart-test-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('buildMultipart', () => {
  test('text and file parts as a parser sees them; headers from the encoder', async () => {
    const file = await toUploadFile(png(2, 2), 'file');
    const built = await buildMultipart([
      ['a', 'one'],
      ['file', file],
      ['b', 'two'],
    ]);
    const boundary = /^multipart\/form-data; boundary=(\S+)$/.exec(built.headers['content-type'] ?? '')?.[1];
    expect(boundary).toBeTruthy();
    const received = await receive(built);
    expect(received.parts).toEqual([
      { name: 'a', value: 'one' },
      {
        name: 'file',
        filename: 'image.png',
        mimeType: 'image/png',
        size: png(2, 2).byteLength,
        sha256: sha(png(2, 2)),
      },
      { name: 'b', value: 'two' },
    ]);
    expect(Number(built.headers['content-length'])).toBe(received.bytes);
  });

  test('a stream of unknown length: no content-length, the body still parses', async () => {
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(jpeg(3, 3));
        controller.close();
      },
    });
    const built = await buildMultipart([['image', await toUploadFile(stream, 'image')]]);
    expect(built.headers['content-length']).toBeUndefined();
    const received = await receive(built);
    expect(received.parts).toEqual([
      {
        name: 'image',
        filename: 'image.jpg',
        mimeType: 'image/jpeg',
        size: jpeg(3, 3).byteLength,
        sha256: sha(jpeg(3, 3)),
      },
    ]);
  });

  test('each call encodes anew (one body per attempt)', async () => {
    const fields = [['file', await toUploadFile(gif(1, 1), 'file')]] as const;
    const first = await receive(await buildMultipart(fields));
    const second = await receive(await buildMultipart(fields));
    expect(second.parts).toEqual(first.parts);
    expect(second.parts[0]?.sha256).toBe(sha(gif(1, 1)));
  });

  test('a 20 MiB file is streamed from disk in chunks; Content-Length equals the bytes produced', async () => {
    const path = join(dir, 'twenty.png');
    const size = 20 * 1024 * 1024;
    const bytes = Buffer.alloc(size);
    png(16, 16).copy(bytes);
    for (let i = 64; i < size; i += 4096) bytes.writeUInt32BE(i, i);
    await writeFile(path, bytes);
    const expected = sha(bytes);
    const built = await buildMultipart([
      ['purpose', 'test'],
      ['file', await toUploadFile(await fileFromPath(path), 'file')],
    ]);
    const received = await receive(built);
    expect(received.parts).toEqual([
      { name: 'purpose', value: 'test' },
      { name: 'file', filename: 'twenty.png', mimeType: 'image/png', size, sha256: expected },
    ]);
    expect(received.chunks).toBeGreaterThan(300);
    expect(received.maxChunk).toBeLessThanOrEqual(64 * 1024);
    expect(built.headers['content-length']).toBe(String(received.bytes));
    expect(received.bytes).toBeGreaterThan(size);
  });
});

describe('toTextPart', () => {
  test.each([
    ['a string', 'x', 'x'],
    ['a number', 2, '2'],
    ['a boolean', false, 'false'],
    ['an object', { a: [1] }, '{"a":[1]}'],
    ['undefined', undefined, undefined],
    ['null', null, undefined],
  ])('%s', (_, value, text) => {
    expect(toTextPart(value)).toBe(text);
  });
});

describe('imageEditParts: the edit layout', () => {
  test('one file: part image; text fields first, in the caller order', async () => {
    const parts = await imageEditParts({ ...base, n: 2, size: '1024x1024', image: png(8, 8) }, 'images.edit');
    const received = await receive(await buildMultipart(parts));
    expect(received.parts.map((p) => [p.name, p.value ?? p.filename])).toEqual([
      ['model', 'imgmodel-2'],
      ['prompt', 'put a hat on the cat'],
      ['n', '2'],
      ['size', '1024x1024'],
      ['image', 'image.png'],
    ]);
  });

  test('an array of one file is still part image', async () => {
    const received = await receive(
      await buildMultipart(await imageEditParts({ ...base, image: [jpeg(2, 2)] }, 'images.edit')),
    );
    expect(received.parts.filter((p) => p.filename).map((p) => p.name)).toEqual(['image']);
  });

  test('several files: repeated image[] parts in the caller order, each with filename and type', async () => {
    const files = [png(4, 4), jpeg(5, 5), webpLossy(6, 6)];
    const path = join(dir, 'third.gif');
    await writeFile(path, gif(7, 7));
    const parts = await imageEditParts(
      { ...base, model: 'imgmodel-2.5-flare', image: [...files, createReadStream(path)] },
      'images.edit',
    );
    const received = await receive(await buildMultipart(parts));
    expect(received.parts.filter((p) => p.filename)).toEqual([
      {
        name: 'image[]',
        filename: 'image.png',
        mimeType: 'image/png',
        size: files[0]?.byteLength,
        sha256: sha(png(4, 4)),
      },
      {
        name: 'image[]',
        filename: 'image.jpg',
        mimeType: 'image/jpeg',
        size: files[1]?.byteLength,
        sha256: sha(jpeg(5, 5)),
      },
      {
        name: 'image[]',
        filename: 'image.webp',
        mimeType: 'image/webp',
        size: files[2]?.byteLength,
        sha256: sha(webpLossy(6, 6)),
      },
      {
        name: 'image[]',
        filename: 'third.gif',
        mimeType: 'image/gif',
        size: gif(7, 7).byteLength,
        sha256: sha(gif(7, 7)),
      },
    ]);
  });

  test('mask: its own part after the images', async () => {
    const mask = new File([png(8, 8, { colorType: 6 })], 'mask.png', { type: 'image/png' });
    const parts = await imageEditParts({ ...base, image: png(8, 8, { colorType: 2 }), mask }, 'images.edit');
    const received = await receive(await buildMultipart(parts));
    expect(received.parts.slice(-2).map((p) => [p.name, p.filename, p.mimeType])).toEqual([
      ['image', 'image.png', 'image/png'],
      ['mask', 'mask.png', 'image/png'],
    ]);
  });

  test('notifications is one JSON-string part; client_reference_id its own part', async () => {
    const notifications = {
      webhook: { endpoint_id: 'whep_1', events: ['task.completed' as const, 'task.failed' as const] },
    };
    const parts = await imageEditParts(
      { ...base, image: png(2, 2), notifications, client_reference_id: 'order-42' },
      'images.editAsync',
    );
    const received = await receive(await buildMultipart(parts));
    const fields = received.parts.filter((p) => p.value !== undefined);
    expect(fields.filter((p) => p.name === 'notifications')).toHaveLength(1);
    expect(JSON.parse(fields.find((p) => p.name === 'notifications')?.value ?? '')).toEqual(notifications);
    expect(fields.find((p) => p.name === 'client_reference_id')?.value).toBe('order-42');
  });

  test.each([
    ['a string image', { ...base, image: './cat.png' }, 'image', 'fileFromPath'],
    [
      'a string in the image list',
      { ...base, image: [png(1, 1), 'https://x/y.png'] },
      'image[1]',
      'fileFromURL',
    ],
    ['a JPEG mask', { ...base, image: png(8, 8), mask: jpeg(8, 8) }, 'mask', 'this file is a JPEG image'],
    [
      'a mask that is no image',
      { ...base, image: png(8, 8), mask: Buffer.from('nope') },
      'mask',
      'must be a PNG',
    ],
    [
      'an RGB mask without tRNS',
      { ...base, image: png(8, 8), mask: png(8, 8, { colorType: 2 }) },
      'mask',
      'this PNG has none',
    ],
    [
      'a mask of another size (one image)',
      { ...base, image: png(8, 8), mask: png(4, 8) },
      'mask',
      'same dimensions as image (8x8); the mask is 4x8',
    ],
    [
      'a mask of another size (image list)',
      { ...base, image: [jpeg(10, 20), png(4, 8)], mask: png(4, 8) },
      'mask',
      'same dimensions as image[0] (10x20)',
    ],
  ])('refuses %s', async (_, params, path, fragment) => {
    const error = await rejection(imageEditParts(params as never, 'images.edit'));
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(error.issues).toEqual([{ path, message: expect.stringContaining(fragment) }]);
  });

  test.each([
    ['an RGBA mask of the same size', { image: png(8, 8), mask: png(8, 8) }],
    ['a grey+alpha mask', { image: png(8, 8), mask: png(8, 8, { colorType: 4 }) }],
    ['a palette mask with tRNS', { image: jpeg(8, 8), mask: png(8, 8, { colorType: 3, trns: true }) }],
    // An image by its first bytes whose header is cut before its size.
    ['a mask against an input of unknown size', { image: png(8, 8).subarray(0, 12), mask: png(3, 3) }],
    ['a mask compared with the first image only', { image: [png(8, 8), png(2, 2)], mask: png(8, 8) }],
  ])('accepts %s', async (_, files) => {
    const parts = await imageEditParts({ ...base, ...files } as never, 'images.edit');
    expect(parts.some(([name]) => name === 'mask')).toBe(true);
  });
});

describe('imageUploadParts', () => {
  test('one part named file', async () => {
    const received = await receive(await buildMultipart(await imageUploadParts(webpLossy(3, 3))));
    expect(received.parts).toEqual([
      {
        name: 'file',
        filename: 'image.webp',
        mimeType: 'image/webp',
        size: webpLossy(3, 3).byteLength,
        sha256: sha(webpLossy(3, 3)),
      },
    ]);
  });

  test.each([
    ['exactly 20 MiB', MAX_UPLOAD_BYTES],
    ['a tiny image', 100],
  ])('accepts %s', async (_, size) => {
    const bytes = Buffer.alloc(size);
    png(1, 1).copy(bytes);
    const [part] = await imageUploadParts(bytes);
    expect(part?.[0]).toBe('file');
  });

  test.each([
    ['over 20 MiB', () => Buffer.concat([png(1, 1), Buffer.alloc(MAX_UPLOAD_BYTES)]), 'at most 20 MiB'],
    ['a PDF', () => Buffer.from('%PDF-1.7 ...'), 'must be a JPEG, PNG, GIF or WebP image'],
    [
      'an MP4',
      () => Buffer.from('\0\0\0\x18ftypmp42', 'binary'),
      'video, audio and other files cannot be uploaded',
    ],
    ['a path string', () => './photo.png', 'fileFromPath'],
  ])('refuses %s at file', async (_, make, fragment) => {
    const error = await rejection(imageUploadParts(make()));
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(error.issues).toEqual([{ path: 'file', message: expect.stringContaining(fragment) }]);
    expect(error.message).toContain('uploads.image was not sent');
  });

  test('a stream of unknown length is cut off once it passes 20 MiB', async () => {
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent > MAX_UPLOAD_BYTES + 1_000_000) return controller.close();
        const chunk =
          sent === 0 ? Buffer.concat([png(1, 1), Buffer.alloc(1_000_000)]) : Buffer.alloc(1_000_000);
        sent += chunk.byteLength;
        controller.enqueue(chunk);
      },
    });
    const [part] = await imageUploadParts(stream);
    const { body } = await buildMultipart(part ? [part] : []);
    const error = await rejection(
      (async () => {
        for await (const _ of body) {
          // drain
        }
      })(),
    );
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(error.issues?.[0]?.message).toContain('at most 20 MiB');
  });
});

describe('over the wire', () => {
  test('undici sends the streamed body with the encoder headers; a real server parses it', async () => {
    const seen: { headers?: Record<string, unknown>; parts?: Part[] } = {};
    const server = createServer((req, res) => {
      seen.headers = req.headers;
      const parser = busboy({ headers: req.headers });
      const parts: Part[] = [];
      parser.on('field', (name, value) => parts.push({ name, value }));
      parser.on('file', (name, stream, info) => {
        const hash = createHash('sha256');
        const part: Part = { name, filename: info.filename, mimeType: info.mimeType, size: 0 };
        parts.push(part);
        stream.on('data', (chunk: Buffer) => {
          hash.update(chunk);
          part.size = (part.size ?? 0) + chunk.byteLength;
        });
        stream.on('end', () => {
          part.sha256 = hash.digest('hex');
        });
      });
      parser.on('close', () => {
        seen.parts = parts;
        res.end('ok');
      });
      req.pipe(parser);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const path = join(dir, 'wire.jpg');
      const bytes = Buffer.concat([jpeg(30, 20), Buffer.alloc(2 * 1024 * 1024, 9)]);
      await writeFile(path, bytes);
      const built = await buildMultipart(
        await imageEditParts(
          { ...base, n: 1, image: [await fileFromPath(path), png(30, 20)] },
          'images.edit',
        ),
      );
      const { port } = server.address() as AddressInfo;
      const response = await request(`http://127.0.0.1:${port}/v1/images/edits`, {
        method: 'POST',
        headers: built.headers,
        body: Readable.from(built.body),
      });
      expect(await response.body.text()).toBe('ok');
      expect(seen.headers?.['content-length']).toBe(built.headers['content-length']);
      expect(seen.headers?.['content-type']).toBe(built.headers['content-type']);
      expect(seen.parts?.map((p) => [p.name, p.value ?? p.filename, p.sha256])).toEqual([
        ['model', 'imgmodel-2', undefined],
        ['prompt', 'put a hat on the cat', undefined],
        ['n', '1', undefined],
        ['image[]', 'wire.jpg', sha(bytes)],
        ['image[]', 'image.png', sha(png(30, 20))],
      ]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
