// Covers: src/internal/media-download.ts
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, test, vi } from 'vitest';
import {
  APIConnectionError,
  APIUserAbortError,
  FileWriteError,
  MediaGatewayError,
} from '../../src/core/errors.js';
import { MediaDownload } from '../../src/internal/media-download.js';
import { warningsDuring } from '../helpers/process-warnings.js';
import { throwingThenable, unhandledRejectionsDuring } from '../helpers/unhandled-rejections.js';

// The CommonJS module object: patched, then synced into the ESM bindings the SDK imports.
const fsp: typeof import('node:fs/promises') = createRequire(import.meta.url)('node:fs/promises');
const dir = mkdtempSync(join(tmpdir(), 'mediagw-download-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const chunks = (parts: string[]) => Readable.from(parts.map((p) => Buffer.from(p)));

describe('MediaDownload', () => {
  test('saveTo writes the file and reports progress', async () => {
    const progress: number[] = [];
    const download = new MediaDownload(chunks(['ab', 'cd', 'ef']), {
      contentType: 'video/mp4',
      contentLength: 6,
    });
    const result = await download.saveTo(join(dir, 'a.mp4'), { onProgress: (p) => progress.push(p.bytes) });
    expect(result.bytes).toBe(6);
    expect(readFileSync(join(dir, 'a.mp4'), 'utf8')).toBe('abcdef');
    // The first chunk at once, the last count at the end; the middle one came within 100 ms.
    expect(progress).toEqual([2, 6]);
  });

  test('an onProgress that throws rejects saveTo, stops the download and leaves no file', async () => {
    const thrown = new Error('progress bar gone');
    const download = new MediaDownload(chunks(['ab', 'cd', 'ef']), { contentLength: 6 });
    const error = await download
      .saveTo(join(dir, 'callback.mp4'), {
        onProgress: () => {
          throw thrown;
        },
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MediaGatewayError);
    expect(error).not.toBeInstanceOf(APIConnectionError);
    expect((error as Error).message).toMatch(/onProgress threw after 2 bytes \(progress bar gone\)/);
    expect((error as Error).cause).toBe(thrown);
    expect(readdirSync(dir).filter((f) => f.includes('callback') || f.endsWith('.part'))).toEqual([]);
  });

  test('an onProgress that throws on the final count rejects saveTo and leaves no file', async () => {
    const download = new MediaDownload(chunks(['ab', 'cd']), { contentLength: 4 });
    const seen: number[] = [];
    const error = await download
      .saveTo(join(dir, 'final.mp4'), {
        onProgress: ({ bytes }) => {
          seen.push(bytes);
          if (bytes === 4) throw new Error('at the end');
        },
      })
      .catch((e: unknown) => e);
    expect(seen).toEqual([2, 4]);
    expect(error).toBeInstanceOf(MediaGatewayError);
    expect((error as Error).message).toMatch(/after 4 bytes \(at the end\)/);
    expect(existsSync(join(dir, 'final.mp4'))).toBe(false);
  });

  test.each([
    [
      'returns a promise that rejects',
      'rejecting.bin',
      async () => {
        throw new Error('metrics sink down');
      },
    ],
    [
      'returns a thenable whose then throws',
      'thenable.bin',
      () => throwingThenable(new Error('metrics sink down')),
    ],
  ])(
    'an onProgress that %s: the file is written whole, one process warning, nothing left unhandled',
    async (_name, file, failing) => {
      let clock = 0;
      vi.spyOn(performance, 'now').mockImplementation(() => clock);
      async function* every100ms() {
        for (let i = 1; i <= 5; i++) {
          clock = 100 * i;
          yield Buffer.from(String(i));
          // A full turn between chunks: the rejection is seen before the next chunk is counted.
          await new Promise((resolve) => setImmediate(resolve));
        }
      }
      const target = join(dir, file);
      const download = new MediaDownload(Readable.from(every100ms()), { contentLength: 5 });
      let calls = 0;
      let result: unknown;
      const unhandled: unknown[] = [];
      const warnings = await warningsDuring(async () => {
        unhandled.push(
          ...(await unhandledRejectionsDuring(async () => {
            result = await download.saveTo(target, {
              onProgress: () => {
                calls++;
                return failing();
              },
            });
          })),
        );
      });
      expect(unhandled).toEqual([]);
      expect(result).toEqual({ path: target, bytes: 5 });
      expect(readFileSync(target, 'utf8')).toBe('12345');
      // Called for the first chunk only: a promise that rejected ends the calls.
      expect(calls).toBe(1);
      const progress = warnings.filter(
        (w) => (w as { code?: string }).code === 'MEDIAGW_PROGRESS_CALLBACK_FAILED',
      );
      expect(progress.map((w) => w.message)).toEqual([
        `saveTo's onProgress rejected (Error: metrics sink down); the download to ${target} went on, and onProgress is not called again for it`,
      ]);
      vi.restoreAllMocks();
    },
  );

  test('an onProgress whose promise resolves is called on: every 100 ms and at the end, nothing warned', async () => {
    const progress: number[] = [];
    const download = new MediaDownload(chunks(['ab', 'cd', 'ef']), { contentLength: 6 });
    const warnings = await warningsDuring(() =>
      download.saveTo(join(dir, 'async-ok.mp4'), {
        onProgress: async (p) => {
          progress.push(p.bytes);
        },
      }),
    );
    expect(progress).toEqual([2, 6]);
    expect(warnings).toEqual([]);
  });

  test('saveTo reports progress at most every 100 ms, and the final count once', async () => {
    let clock = 0;
    vi.spyOn(performance, 'now').mockImplementation(() => clock);
    try {
      async function* every30ms() {
        for (let i = 1; i <= 10; i++) {
          clock = 30 * i;
          yield Buffer.from('x');
        }
      }
      const progress: Array<[number, number | undefined]> = [];
      const download = new MediaDownload(Readable.from(every30ms()), { contentLength: 10 });
      await download.saveTo(join(dir, 'throttled.bin'), {
        onProgress: (p) => progress.push([p.bytes, p.total]),
      });
      // At 30 ms, then the first chunk 100 ms later (150 ms, 270 ms), then the end.
      expect(progress).toEqual([
        [1, 10],
        [5, 10],
        [9, 10],
        [10, 10],
      ]);
    } finally {
      vi.restoreAllMocks();
    }
  });

  test('a fast 50 MiB download in 16 KiB chunks calls onProgress about 10 times a second, not per chunk', async () => {
    const chunk = Buffer.alloc(16 * 1024);
    const count = 3_200;
    const source = Readable.from(
      (function* () {
        for (let i = 0; i < count; i++) yield chunk;
      })(),
    );
    const calls: number[] = [];
    const started = performance.now();
    const download = new MediaDownload(source, { contentLength: count * chunk.length });
    await download.saveTo(join(dir, 'fast.bin'), { onProgress: (p) => calls.push(p.bytes) });
    const elapsed = performance.now() - started;
    expect(calls.length).toBeLessThanOrEqual(Math.ceil(elapsed / 100) + 2);
    expect(calls.at(-1)).toBe(count * chunk.length);
    expect(calls).toEqual([...calls].sort((a, b) => a - b));
    rmSync(join(dir, 'fast.bin'));
  });

  test('a broken transfer leaves no file, partial or final', async () => {
    const broken = new Readable({
      read() {
        this.push(Buffer.from('partial'));
        this.destroy(new Error('socket hang up'));
      },
    });
    const download = new MediaDownload(broken, { contentType: 'video/mp4' });
    const error = await download.saveTo(join(dir, 'b.mp4')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect((error as Error).message).toMatch(/broke off after 7 bytes: socket hang up/);
    expect(existsSync(join(dir, 'b.mp4'))).toBe(false);
    expect(readdirSync(dir).filter((f) => f.includes('b.mp4'))).toEqual([]);
  });

  test('a transfer that fails while the file is still being created leaves nothing behind', async () => {
    // Slow the file's creation down, so the transfer fails while it is under way.
    const open = fsp.open;
    fsp.open = (async (...args: Parameters<typeof fsp.open>) => {
      await new Promise((r) => setTimeout(r, 30));
      return open(...args);
    }) as typeof fsp.open;
    syncBuiltinESMExports();
    try {
      const failing = new Readable({ read() {} });
      failing.destroy(new Error('reset'));
      await expect(new MediaDownload(failing, {}).saveTo(join(dir, 'early.mp4'))).rejects.toThrow('reset');
    } finally {
      fsp.open = open;
      syncBuiltinESMExports();
    }
    expect(readdirSync(dir).filter((f) => f.includes('early') || f.endsWith('.part'))).toEqual([]);
  });

  test('a body shorter than its Content-Length is an error and leaves no file', async () => {
    const download = new MediaDownload(chunks(['abc']), { contentLength: 10 });
    await expect(download.saveTo(join(dir, 'c.mp4'))).rejects.toThrow(/3 of 10 bytes/);
    await expect(download.saveTo(join(dir, 'c.mp4'))).rejects.toThrow(/already read/);
    const short = new MediaDownload(chunks(['abc']), { contentLength: 10 });
    await expect(short.arrayBuffer()).rejects.toBeInstanceOf(APIConnectionError);
    expect(existsSync(join(dir, 'c.mp4'))).toBe(false);
  });

  test('an abort while saving is an APIUserAbortError; a folder that cannot be written is a FileWriteError', async () => {
    const aborted = new Readable({ read() {} });
    aborted.destroy(Object.assign(new Error('aborted'), { name: 'AbortError' }));
    await expect(new MediaDownload(aborted, {}).saveTo(join(dir, 'd.mp4'))).rejects.toBeInstanceOf(
      APIUserAbortError,
    );
    const fine = new MediaDownload(chunks(['x']), {});
    const error = await fine.saveTo(join(dir, 'missing-folder', 'e.mp4')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FileWriteError);
    expect(error).toMatchObject({ code: 'ENOENT', unread: true });
  });

  test('arrayBuffer and body read the bytes; a second read is refused', async () => {
    const first = new MediaDownload(chunks(['x', 'y']), {});
    expect(Buffer.from(await first.arrayBuffer()).toString()).toBe('xy');
    await expect(first.arrayBuffer()).rejects.toThrow(/already read/);
    const second = new MediaDownload(chunks(['p', 'q']), {});
    const text = await new Response(second.body).text();
    expect(text).toBe('pq');
  });
});
