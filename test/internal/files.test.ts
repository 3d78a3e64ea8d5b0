// Covers: src/internal/files.ts
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { File as NodeFormDataFile } from 'formdata-node';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  APIUserAbortError,
  FileInputError,
  MediaGatewayError,
  RequestValidationError,
} from '../../src/core/errors.js';
import { InvalidOptionError } from '../../src/core/options.js';
import { isUploadable } from '../../src/core/uploadable.js';
import { fileFromBase64, fileFromPath, fileFromURL } from '../../src/internal/files.js';
import { toUploadFile, type UploadFile } from '../../src/internal/upload-file.js';
import { gif, jpeg, png, webpLossy } from '../core/image-fixtures.js';
import { rejection } from '../helpers/rejection.js';

async function bytesOf(file: UploadFile): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of file.stream()) chunks.push(chunk);
  return Buffer.concat(chunks);
}

function webStream(parts: Uint8Array[]): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream({
    pull(controller) {
      const part = parts[i++];
      if (part) controller.enqueue(part);
      else controller.close();
    },
  });
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mediagw-files-test-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('toUploadFile: each Uploadable kind', () => {
  const image = png(4, 4);

  test.each([
    ['Buffer', () => Buffer.from(image)],
    ['Uint8Array', () => new Uint8Array(image)],
    ['ArrayBuffer', () => new Uint8Array(image).buffer],
    ['Blob without type', () => new Blob([image])],
    ['formdata-node File', () => new NodeFormDataFile([image], 'blob')],
  ])('%s: bytes kept, size known, type sniffed, default name', async (_, make) => {
    const file = await toUploadFile(make(), 'image');
    expect(file.size).toBe(image.byteLength);
    expect(file.type).toBe('image/png');
    expect(file.name).toBe('image.png');
    expect(await bytesOf(file)).toEqual(image);
  });

  test('a Uint8Array view at an offset sends only its own bytes, in chunks of at most 64 KiB', async () => {
    const backing = Buffer.alloc(300_000);
    for (let i = 0; i < backing.length; i++) backing[i] = i % 251;
    const view = backing.subarray(1000, 201_000);
    const file = await toUploadFile(view, 'image');
    const chunks: Uint8Array[] = [];
    for await (const chunk of file.stream()) chunks.push(chunk);
    expect(Math.max(...chunks.map((c) => c.byteLength))).toBeLessThanOrEqual(65_536);
    expect(Buffer.concat(chunks).equals(view)).toBe(true);
    expect(file.type).toBe('application/octet-stream');
    expect(file.name).toBe('file');
  });

  test('a File keeps its name and its own type over the sniffed one', async () => {
    const file = await toUploadFile(new File([image], 'cat.bin', { type: 'image/x-custom' }), 'image');
    expect(file.name).toBe('cat.bin');
    expect(file.type).toBe('image/x-custom');
  });

  test('a Blob typed application/octet-stream is sniffed', async () => {
    const file = await toUploadFile(new Blob([jpeg(2, 2)], { type: 'application/octet-stream' }), 'image');
    expect(file.type).toBe('image/jpeg');
    expect(file.name).toBe('image.jpg');
  });

  test('fs.ReadStream: reopened from its path, size known, basename kept, the stream closed', async () => {
    const path = join(dir, 'photo.gif');
    await writeFile(path, gif(5, 5));
    const stream = createReadStream(path);
    const file = await toUploadFile(stream, 'image');
    expect(file.size).toBe(gif(5, 5).byteLength);
    expect(file.name).toBe('photo.gif');
    expect(file.type).toBe('image/gif');
    expect(stream.destroyed).toBe(true);
    expect(await bytesOf(file)).toEqual(gif(5, 5));
    // Re-readable: a retry sends the same bytes.
    expect(await bytesOf(file)).toEqual(gif(5, 5));
  });

  test('fs.ReadStream with start/end sends that range only', async () => {
    const path = join(dir, 'range.bin');
    await writeFile(path, Buffer.from('0123456789'));
    const file = await toUploadFile(createReadStream(path, { start: 2, end: 5 }), 'file');
    expect(file.size).toBe(4);
    expect((await bytesOf(file)).toString()).toBe('2345');
  });

  test('web ReadableStream: unknown size, bytes intact, sniffed from its head, sent only once', async () => {
    const body = webpLossy(8, 8);
    const big = Buffer.concat([body, Buffer.alloc(200_000, 7)]);
    const file = await toUploadFile(
      webStream([big.subarray(0, 10), big.subarray(10, 150_000), big.subarray(150_000)]),
      'image',
    );
    expect(Number.isNaN(file.size)).toBe(true);
    expect(file.type).toBe('image/webp');
    expect(file.name).toBe('image.webp');
    expect((await bytesOf(file)).equals(big)).toBe(true);
    const again = await rejection(bytesOf(file));
    expect(again).toBeInstanceOf(MediaGatewayError);
    expect(again.message).toMatch(/can be sent only once/);
  });

  test('a Node Readable (async iterable) is streamed too', async () => {
    const file = await toUploadFile(Readable.from([Buffer.from(png(1, 1))]), 'image');
    expect(file.type).toBe('image/png');
    expect(await bytesOf(file)).toEqual(png(1, 1));
  });

  test('an UploadFile passes through unchanged', async () => {
    const file = await toUploadFile(Buffer.from('x'), 'file');
    expect(await toUploadFile(file, 'file')).toBe(file);
  });
});

describe('toUploadFile: sniffing', () => {
  test.each([
    ['PNG', png(2, 2), 'image/png', 'image.png'],
    ['JPEG', jpeg(2, 2), 'image/jpeg', 'image.jpg'],
    ['GIF', gif(2, 2), 'image/gif', 'image.gif'],
    ['WebP', webpLossy(2, 2), 'image/webp', 'image.webp'],
    ['unknown bytes', Buffer.from('%PDF-1.7 not an image'), 'application/octet-stream', 'file'],
  ])('%s is sniffed', async (_, bytes, type, name) => {
    const file = await toUploadFile(bytes, 'image');
    expect([file.type, file.name]).toEqual([type, name]);
  });
});

describe('toUploadFile: refusals', () => {
  test.each([
    ['a path string', './cat.png', 'image'],
    ['a URL string', 'https://example.com/cat.png', 'image[1]'],
    ['base64 text', png(1, 1).toString('base64'), 'mask'],
  ])('%s is refused at the field, naming the helpers', async (_, value, field) => {
    const error = await rejection(toUploadFile(value, field, 'images.edit'));
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(error.issues).toEqual([{ path: field, message: expect.stringContaining('fileFromPath') }]);
    for (const helper of ['fileFromPath', 'fileFromURL', 'fileFromBase64'])
      expect(error.message).toContain(helper);
    expect(error.message).toContain('images.edit was not sent');
  });

  test.each([
    ['a number', 42],
    ['a plain object', { path: './cat.png' }],
    ['null', null],
  ])('%s is refused as not a file', async (_, value) => {
    const error = await rejection(toUploadFile(value, 'file'));
    expect(error.issues?.[0]).toEqual({ path: 'file', message: expect.stringContaining('must be a file') });
  });

  test('isUploadable tells files from strings', () => {
    expect(isUploadable('x')).toBe(false);
    expect(isUploadable(Buffer.from('x'))).toBe(true);
    expect(isUploadable(new Blob(['x']))).toBe(true);
  });
});

describe('fileFromBase64', () => {
  test('plain base64: bytes decoded, type sniffed', async () => {
    const file = fileFromBase64(png(3, 3).toString('base64'));
    expect(file.type).toBe('image/png');
    expect(file.name).toBe('image.png');
    expect(Buffer.from(await file.arrayBuffer())).toEqual(png(3, 3));
  });

  test("a data URL's type is honoured", async () => {
    const file = fileFromBase64(`data:image/webp;base64,${png(3, 3).toString('base64')}`);
    expect(file.type).toBe('image/webp');
    expect(Buffer.from(await file.arrayBuffer())).toEqual(png(3, 3));
  });

  test('options override the name and type; whitespace in the text is ignored', async () => {
    const wrapped = jpeg(2, 2)
      .toString('base64')
      .replace(/(.{20})/g, '$1\n');
    const file = fileFromBase64(wrapped, { filename: 'x.jpeg', contentType: 'image/pjpeg' });
    expect([file.name, file.type]).toEqual(['x.jpeg', 'image/pjpeg']);
    expect(Buffer.from(await file.arrayBuffer())).toEqual(jpeg(2, 2));
  });

  test('a percent-encoded data URL is decoded', async () => {
    const file = fileFromBase64('data:text/plain,hello%20world');
    expect([file.type, await file.text()]).toEqual(['text/plain', 'hello world']);
  });

  test.each([['not base64 at all!'], ['./cat.png'], ['']])('%j is refused', (text) => {
    expect(() => fileFromBase64(text)).toThrow(FileInputError);
  });

  test('the result is an Uploadable', async () => {
    const file = await toUploadFile(fileFromBase64(gif(1, 1).toString('base64')), 'image');
    expect(file.type).toBe('image/gif');
  });
});

describe('fileFromPath', () => {
  test('file-backed: the size is known without reading, and the bytes stay on disk', async () => {
    const path = join(dir, 'large.png');
    const bytes = Buffer.concat([png(10, 10), Buffer.alloc(5 * 1024 * 1024, 1)]);
    await writeFile(path, bytes);
    const file = await fileFromPath(path);
    expect(file.size).toBe(bytes.byteLength);
    expect(file.name).toBe('large.png');
    expect(file.type).toBe('image/png');
    const upload = await toUploadFile(file, 'image');
    expect(upload.size).toBe(bytes.byteLength);
    expect((await bytesOf(upload)).equals(bytes)).toBe(true);
    // A blob holding a copy would still read; a file-backed one notices the file changed.
    await writeFile(path, Buffer.from('changed'));
    await expect(file.arrayBuffer()).rejects.toThrow();
  });

  test('filename and contentType options', async () => {
    const path = join(dir, 'a.dat');
    await writeFile(path, Buffer.from('abc'));
    const file = await fileFromPath(path, { filename: 'b.txt', contentType: 'text/plain' });
    expect([file.name, file.type, await file.text()]).toEqual(['b.txt', 'text/plain', 'abc']);
  });

  test('a missing path or a directory is a FileInputError naming the path', async () => {
    const missing = await rejection(fileFromPath(join(dir, 'nope.png')));
    expect(missing).toBeInstanceOf(FileInputError);
    expect(missing).toMatchObject({ code: 'ENOENT', input: join(dir, 'nope.png') });
    await expect(fileFromPath(dir)).rejects.toBeInstanceOf(FileInputError);
  });
});

describe('a file on disk read into reused buffers (reuseChunks)', () => {
  /** 300 KiB + 7 bytes of a pattern that differs at every 64 KiB chunk: a stale buffer shows. */
  async function patterned(name: string): Promise<{ path: string; bytes: Buffer }> {
    const bytes = Buffer.concat([png(8, 8), randomBytes(300 * 1024 + 7)]);
    const path = join(dir, name);
    await writeFile(path, bytes);
    return { path, bytes };
  }

  /** Copies each chunk as it comes, as a socket does before asking for the next. */
  async function sent(file: UploadFile): Promise<{ bytes: Buffer; buffers: ArrayBufferLike[] }> {
    const copies: Buffer[] = [];
    const buffers: ArrayBufferLike[] = [];
    for await (const chunk of file.stream({ reuseChunks: true })) {
      copies.push(Buffer.from(chunk));
      buffers.push(chunk.buffer);
    }
    return { bytes: Buffer.concat(copies), buffers };
  }

  test('fileFromPath: every byte, through four buffers taken in turn', async () => {
    const { path, bytes } = await patterned('ring.png');
    const { bytes: out, buffers } = await sent(await toUploadFile(await fileFromPath(path), 'image'));
    expect(out.equals(bytes)).toBe(true);
    expect(buffers).toHaveLength(Math.ceil(bytes.length / (64 * 1024)));
    expect(new Set(buffers).size).toBe(4);
    expect(buffers[4]).toBe(buffers[0]);
  });

  test('an fs.ReadStream with start and end: only its range', async () => {
    const { path, bytes } = await patterned('range.png');
    const stream = createReadStream(path, { start: 0, end: 200_000 });
    const { bytes: out } = await sent(await toUploadFile(stream, 'image'));
    expect(out.equals(bytes.subarray(0, 200_001))).toBe(true);
  });

  test('without reuseChunks, every chunk is its own memory', async () => {
    const { path, bytes } = await patterned('fresh.png');
    const file = await toUploadFile(await fileFromPath(path), 'image');
    const buffers: ArrayBufferLike[] = [];
    const chunks: Uint8Array[] = [];
    for await (const chunk of file.stream()) {
      chunks.push(chunk);
      buffers.push(chunk.buffer);
    }
    // Kept without copying, the chunks still hold the file: nothing was overwritten.
    expect(Buffer.concat(chunks).equals(bytes)).toBe(true);
    expect(new Set(buffers).size).toBeGreaterThan(4);
  });

  test('a file changed on disk after fileFromPath is refused, as its Blob refuses it', async () => {
    const { path } = await patterned('changed.png');
    const file = await toUploadFile(await fileFromPath(path), 'image');
    await writeFile(path, Buffer.from('changed'));
    const error = await rejection(sent(file));
    expect(error).toBeInstanceOf(MediaGatewayError);
    expect((error as Error).message).toContain('changed on disk after it was opened');
  });

  test('a file removed after fileFromPath is a FileInputError naming its path when sent', async () => {
    const { path } = await patterned('removed.png');
    const file = await toUploadFile(await fileFromPath(path), 'image');
    await rm(path);
    const error = await rejection(sent(file));
    expect(error).toBeInstanceOf(FileInputError);
    expect(error).toMatchObject({ code: 'ENOENT', input: path });
  });

  test('a Buffer is read as it is: reuseChunks concerns files on disk only', async () => {
    const bytes = Buffer.concat([png(8, 8), randomBytes(200 * 1024)]);
    const chunks: Uint8Array[] = [];
    for await (const chunk of (await toUploadFile(bytes, 'image')).stream({ reuseChunks: true })) {
      chunks.push(chunk);
    }
    expect(Buffer.concat(chunks).equals(bytes)).toBe(true);
    // Views of the caller's own memory, neither copied nor read into other buffers.
    expect(chunks.every((chunk) => chunk.buffer === bytes.buffer)).toBe(true);
  });
});

describe('fileFromURL', () => {
  let server: Server;
  let base: string;
  const big = Buffer.concat([jpeg(9, 9), Buffer.alloc(3 * 1024 * 1024, 5)]);

  beforeAll(async () => {
    server = createServer((req, res) => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      if (path === '/img/photo.png') {
        res.writeHead(200, { 'content-type': 'image/png' }).end(png(6, 6));
      } else if (path === '/octet/raw') {
        res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(gif(2, 2));
      } else if (path === '/big.jpg') {
        res.writeHead(200, { 'content-type': 'image/jpeg' });
        Readable.from(
          (function* () {
            for (let i = 0; i < big.length; i += 100_000) yield big.subarray(i, i + 100_000);
          })(),
        ).pipe(res);
      } else if (path === '/redirect') {
        res.writeHead(302, { location: '/img/photo.png' }).end();
      } else {
        res.writeHead(404).end('missing');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  test('downloads the bytes; name from the path, type from the answer', async () => {
    const file = await fileFromURL(`${base}/img/photo.png?sig=abc`, { tempDir: dir });
    expect([file.name, file.type]).toEqual(['photo.png', 'image/png']);
    expect(Buffer.from(await file.arrayBuffer())).toEqual(png(6, 6));
    // The bytes live in a file under tempDir, not in memory.
    expect((await readdir(dir)).some((name) => name.startsWith('mediagw-download-'))).toBe(true);
  });

  test('a generic content type is replaced by the sniffed one', async () => {
    const file = await fileFromURL(`${base}/octet/raw`, { tempDir: dir });
    expect(file.type).toBe('image/gif');
  });

  test('a large download streams to disk and reads back intact', async () => {
    const file = await fileFromURL(`${base}/big.jpg`, { filename: 'big-copy.jpg', tempDir: dir });
    expect(file.size).toBe(big.byteLength);
    expect(file.name).toBe('big-copy.jpg');
    expect(Buffer.from(await file.arrayBuffer()).equals(big)).toBe(true);
  });

  test('maxBytes: a body of exactly that size is taken, one byte more is cut off and nothing kept', async () => {
    const own = await mkdtemp(join(dir, 'max-bytes-'));
    const exact = await fileFromURL(`${base}/big.jpg`, { maxBytes: big.byteLength, tempDir: own });
    expect(exact.size).toBe(big.byteLength);
    const error = await rejection(
      fileFromURL(`${base}/big.jpg?sig=secret`, { maxBytes: big.byteLength - 1, tempDir: own }),
    );
    expect(error).toBeInstanceOf(FileInputError);
    expect(error.message).toContain(`is larger than maxBytes (${big.byteLength - 1} bytes)`);
    expect(error.message).not.toContain('secret');
    // Only the first download's file is there: the refused one was removed.
    expect((await readdir(own)).filter((name) => name.startsWith('mediagw-download-'))).toHaveLength(1);
  });

  test.each([[0], [-1], [1.5], [Number.NaN], [Number.POSITIVE_INFINITY]])(
    'maxBytes %s is refused before anything is downloaded',
    async (maxBytes) => {
      const error = await rejection(fileFromURL(`${base}/big.jpg`, { maxBytes, tempDir: dir }));
      expect(error).toBeInstanceOf(InvalidOptionError);
      expect(error.message).toContain('maxBytes');
    },
  );

  test('a non-2xx answer is an error without the query string', async () => {
    const error = await rejection(fileFromURL(`${base}/gone.png?token=secret`, { tempDir: dir }));
    expect(error).toBeInstanceOf(MediaGatewayError);
    expect(error.message).toContain('HTTP 404');
    expect(error.message).not.toContain('secret');
  });

  test('an aborted download is an APIUserAbortError holding the reason', async () => {
    const controller = new AbortController();
    const reason = new Error('stop');
    controller.abort(reason);
    const error = await rejection(
      fileFromURL(`${base}/big.jpg`, { signal: controller.signal, tempDir: dir }),
    );
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect(error.cause).toBe(reason);
  });

  test("works in a process where Node's own fetch ran first (its older undici holds the global dispatcher)", async () => {
    const tmp = await mkdtemp(join(tmpdir(), 'mediagw-fetch-first-'));
    try {
      const script = join(tmp, 'child.mts');
      const filesModule = fileURLToPath(new URL('../../src/internal/files.ts', import.meta.url));
      await writeFile(
        script,
        `await (await fetch(${JSON.stringify(`${base}/img/photo.png`)})).arrayBuffer();
         const { fileFromURL } = await import(${JSON.stringify(filesModule)});
         const file = await fileFromURL(${JSON.stringify(`${base}/redirect`)}, { tempDir: ${JSON.stringify(tmp)} });
         console.log(file.size);`,
      );
      const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', script], {
        timeout: 15_000,
      });
      expect(Number(stdout.trim())).toBe(png(6, 6).byteLength);
    } finally {
      await rm(tmp, { recursive: true, force: true });
    }
  });

  test('the temporary file is deleted once the File is collected, and at exit', async () => {
    const tmp = await mkdtemp(join(tmpdir(), 'mediagw-exit-test-'));
    try {
      const script = join(tmp, 'child.mts');
      const filesModule = fileURLToPath(new URL('../../src/internal/files.ts', import.meta.url));
      await writeFile(
        script,
        `import { readdirSync } from 'node:fs';
         const { fileFromURL } = await import(${JSON.stringify(filesModule)});
         const temps = () => readdirSync(process.env.TMPDIR).filter((name) => name.startsWith('mediagw-download-'));
         let first = await fileFromURL(${JSON.stringify(`${base}/img/photo.png`)});
         const kept = await fileFromURL(${JSON.stringify(`${base}/octet/raw`)});
         const before = temps().length;
         const size = first.size;
         first = undefined;
         for (let i = 0; i < 100 && temps().length > 1; i++) {
           globalThis.gc();
           await new Promise((resolve) => setTimeout(resolve, 10));
         }
         console.log(JSON.stringify({ size, before, after: temps().length, kept: kept.size }));`,
      );
      const sandbox = join(tmp, 'sandbox');
      await mkdir(sandbox);
      const { stdout } = await promisify(execFile)(
        process.execPath,
        ['--expose-gc', '--import', 'tsx', script],
        {
          env: { ...process.env, TMPDIR: sandbox },
          timeout: 15_000,
        },
      );
      // Two downloads, then the first File collected: its file is gone, the kept one's remains...
      expect(JSON.parse(stdout.trim())).toEqual({
        size: png(6, 6).byteLength,
        before: 2,
        after: 1,
        kept: gif(2, 2).byteLength,
      });
      // ...until the process exits. (tsx keeps its own cache in TMPDIR.)
      expect((await readdir(sandbox)).filter((name) => name.startsWith('mediagw-'))).toEqual([]);
    } finally {
      await rm(tmp, { recursive: true, force: true });
    }
  });
});
