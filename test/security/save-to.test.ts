// Covers: src/internal/media-download.ts
import { execFile } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, afterEach, describe, expect, test, vi } from 'vitest';
import { FileWriteError, MediaGatewayError } from '../../src/core/errors.js';
import { InvalidOptionError } from '../../src/core/options.js';
import { MediaDownload } from '../../src/internal/media-download.js';
import { rejection } from '../helpers/rejection.js';

// The CommonJS module objects: patched here, and synced into the ESM bindings the SDK imports.
const fs: typeof import('node:fs') = createRequire(import.meta.url)('node:fs');
const fsp: typeof import('node:fs/promises') = createRequire(import.meta.url)('node:fs/promises');

const root = mkdtempSync(join(tmpdir(), 'mediagw-save-to-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let cases = 0;
/** A fresh folder per test, so a leftover file is seen. */
const folder = () => {
  const dir = join(root, `case-${++cases}`);
  mkdirSync(dir);
  return dir;
};

const body = Buffer.from('the whole media file, every byte of it');
/** A download whose body counts the reads made of it. */
function download(bytes = body): { media: MediaDownload; reads: () => number } {
  let reads = 0;
  let sent = false;
  const stream = new Readable({
    read() {
      reads++;
      this.push(sent ? null : bytes);
      sent = true;
    },
  });
  return { media: new MediaDownload(stream, { contentLength: bytes.length }), reads: () => reads };
}

/**
 * Runs `onOpen` just before every file open (both the promise and the callback API, whichever the
 * SDK uses), as a local attacker racing the open would.
 */
function beforeEveryOpen(onOpen: (path: string) => void): () => void {
  const promiseOpen = fsp.open;
  const callbackOpen = fs.open;
  fsp.open = ((path: string, ...rest: unknown[]) => {
    onOpen(String(path));
    return (promiseOpen as (...a: unknown[]) => unknown)(path, ...rest);
  }) as typeof fsp.open;
  fs.open = ((path: string, ...rest: unknown[]) => {
    onOpen(String(path));
    return (callbackOpen as (...a: unknown[]) => unknown)(path, ...rest);
  }) as typeof fs.open;
  syncBuiltinESMExports();
  return () => {
    fsp.open = promiseOpen;
    fs.open = callbackOpen;
    syncBuiltinESMExports();
  };
}

let restore: (() => void) | undefined;
afterEach(() => {
  restore?.();
  restore = undefined;
  vi.restoreAllMocks();
});

describe('saveTo: nothing planted in the folder redirects the write', () => {
  test('a link planted at the temporary name just before it is opened is not written through', async () => {
    const dir = folder();
    const victim = join(root, `victim-${cases}.txt`);
    writeFileSync(victim, 'precious');
    const target = join(dir, 'video.mp4');
    const planted: string[] = [];
    restore = beforeEveryOpen((path) => {
      // The attacker wins the race once: a link to the victim at the name about to be opened.
      if (dirname(path) === dir && path !== target && planted.length === 0) {
        symlinkSync(victim, path);
        planted.push(path);
      }
    });
    const { media } = download();
    const result = await media.saveTo(target);
    restore();
    restore = undefined;
    expect(planted).toHaveLength(1);
    expect(readFileSync(victim, 'utf8')).toBe('precious');
    expect(result).toEqual({ path: target, bytes: body.length });
    expect(readFileSync(target)).toEqual(body);
    // The planted link is left as it was; no temporary file of the SDK's remains.
    expect(lstatSync(planted[0] as string).isSymbolicLink()).toBe(true);
    expect(readdirSync(dir).sort()).toEqual([planted[0]?.slice(dir.length + 1), 'video.mp4'].sort());
  });

  test('temporary names come from neither the target, the process nor the clock', async () => {
    const dir = folder();
    const target = join(dir, 'video.mp4');
    const opened: string[] = [];
    restore = beforeEveryOpen((path) => {
      if (dirname(path) === dir) opened.push(path);
    });
    vi.spyOn(Date, 'now').mockReturnValue(1_700_000_000_000);
    await download().media.saveTo(target);
    await download().media.saveTo(target);
    expect(opened).toHaveLength(2);
    expect(opened[0]).not.toBe(opened[1]);
    for (const path of opened) {
      expect(path).not.toContain(String(process.pid));
      expect(path).not.toContain('video.mp4');
    }
  });

  test('the new file takes the mode asked for; a mode that is not one is refused before reading', async () => {
    const dir = folder();
    const target = join(dir, 'private.mp4');
    await download().media.saveTo(target, { mode: 0o600 });
    expect(lstatSync(target).mode & 0o777).toBe(0o600);
    const { media, reads } = download();
    for (const mode of [-1, 0o1000, 1.5, Number.NaN]) {
      expect(await rejection(media.saveTo(join(dir, 'other.mp4'), { mode }))).toBeInstanceOf(
        InvalidOptionError,
      );
    }
    expect(reads()).toBe(0);
    expect((await media.saveTo(join(dir, 'other.mp4'))).bytes).toBe(body.length);
  });

  test('an onProgress that is not a function is refused before reading, naming it; the download stays unread', async () => {
    const dir = folder();
    const { media, reads } = download();
    for (const onProgress of ['not a function', 42, {}, null]) {
      const error = await rejection(
        media.saveTo(join(dir, 'video.mp4'), { onProgress: onProgress as unknown as () => void }),
      );
      expect(error).toBeInstanceOf(InvalidOptionError);
      expect(error).toMatchObject({ option: 'onProgress', value: onProgress });
    }
    expect(reads()).toBe(0);
    expect(readdirSync(dir)).toEqual([]);
    const seen: number[] = [];
    const saved = await media.saveTo(join(dir, 'video.mp4'), { onProgress: (p) => seen.push(p.bytes) });
    expect(saved.bytes).toBe(body.length);
    expect(seen.at(-1)).toBe(body.length);
  });
});

describe('saveTo: a target that cannot be written is refused before a byte is read', () => {
  const missingRoot = '/missing/dir/x';

  test.each([
    ['a missing folder', (dir: string) => join(dir, 'missing', 'dir', 'x.mp4'), 'ENOENT'],
    ['a folder that is a file', (dir: string) => join(dir, 'plain-file', 'x.mp4'), 'ENOTDIR'],
    ['a target that is a folder', (dir: string) => join(dir, 'sub'), undefined],
    ['a path ending in a separator', (dir: string) => `${join(dir, 'sub')}/`, undefined],
  ])('%s: FileWriteError, the download unread, then saved elsewhere whole', async (_, pathIn, code) => {
    const dir = folder();
    writeFileSync(join(dir, 'plain-file'), 'x');
    mkdirSync(join(dir, 'sub'));
    const { media, reads } = download();
    const path = pathIn(dir);
    const error = await rejection(media.saveTo(path));
    expect(error).toBeInstanceOf(FileWriteError);
    expect(error).toBeInstanceOf(MediaGatewayError);
    expect(error).toMatchObject({ path, unread: true, ...(code ? { code } : {}) });
    expect(error.message).toContain(path);
    expect(reads()).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(['plain-file', 'sub']);
    expect(readdirSync(join(dir, 'sub'))).toEqual([]);
    const saved = await media.saveTo(join(dir, 'elsewhere.mp4'));
    expect(saved.bytes).toBe(body.length);
    expect(readFileSync(join(dir, 'elsewhere.mp4'))).toEqual(body);
  });

  test(`${missingRoot} is refused, then the same download saves elsewhere`, async () => {
    expect(existsSync('/missing')).toBe(false);
    const { media } = download();
    const error = await rejection(media.saveTo(missingRoot));
    expect(error).toBeInstanceOf(FileWriteError);
    expect(error).toMatchObject({ code: 'ENOENT', unread: true });
    const dir = folder();
    await media.saveTo(join(dir, 'x'));
    expect(readFileSync(join(dir, 'x'))).toEqual(body);
  });
});

describe('saveTo: a write that fails midway', () => {
  test('(file size limit reached) is a FileWriteError; the temporary file is removed and the old target kept', async () => {
    const dir = folder();
    const target = join(dir, 'video.mp4');
    writeFileSync(target, 'the previous version');
    const script = join(dir, '..', `child-${cases}.mts`);
    const downloadModule = fileURLToPath(new URL('../../src/internal/media-download.ts', import.meta.url));
    writeFileSync(
      script,
      `import { Readable } from 'node:stream';
       const { MediaDownload } = await import(${JSON.stringify(downloadModule)});
       const chunk = Buffer.alloc(64 * 1024, 7);
       const source = Readable.from((function* () { for (let i = 0; i < 32; i++) yield chunk; })());
       const media = new MediaDownload(source, { contentLength: 32 * chunk.length });
       const error = await media.saveTo(${JSON.stringify(target)}).then(() => undefined, (e) => e);
       console.log(JSON.stringify({ name: error?.name, code: error?.code, unread: error?.unread, message: error?.message }));`,
    );
    // A process may not grow a file past 512 KiB: writes beyond fail with EFBIG (Node ignores SIGXFSZ).
    const { stdout } = await promisify(execFile)(
      'bash',
      ['-c', 'ulimit -f 512 && exec "$0" --import tsx "$1"', process.execPath, script],
      { timeout: 15_000 },
    );
    const outcome = JSON.parse(stdout.trim().split('\n').pop() as string);
    expect(outcome).toMatchObject({ name: 'FileWriteError', code: 'EFBIG', unread: false });
    expect(outcome.message).toContain(target);
    expect(readFileSync(target, 'utf8')).toBe('the previous version');
    expect(readdirSync(dir)).toEqual(['video.mp4']);
  });
});
