import { constants } from 'node:fs';
import { type FileHandle, lstat, open, rename, unlink } from 'node:fs/promises';
import { dirname, join, sep } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIUserAbortError,
  abortedBy,
  describeCause,
  FileWriteError,
  MediaGatewayError,
  messageOf,
} from '../core/errors.js';
import { checkCallback, checkCount } from '../core/options.js';
import { ProgressThrottle } from '../core/progress.js';
import { errorCode, TIMEOUT_CODES } from './error-mapping.js';

/** Progress of a download being saved. */
export interface DownloadProgress {
  /** Bytes written so far. */
  bytes: number;
  /** Total bytes, when the answer said (`Content-Length`). */
  total: number | undefined;
}

/** Options of {@link MediaDownload.saveTo}. */
export interface SaveOptions {
  /**
   * Called as bytes are written: at most every 100 ms (so about
   * 10 times a second however small the chunks), and once more when the last byte is written.
   * What it throws stops the download (see {@link MediaDownload.saveTo}). A promise it returns
   * is not awaited: if it rejects, the download goes on, the failure is emitted as a process
   * warning (`MEDIAGW_PROGRESS_CALLBACK_FAILED`) and the callback is not called again.
   * @throws InvalidOptionError (rejected, before anything is read) when it is not a function.
   */
  onProgress?: ((progress: DownloadProgress) => void) | undefined;
  /**
   * Permission bits of the new file, less the process's umask: a whole number from 0 to 0o777,
   * e.g. `0o600` for media only this user may read.
   * @default 0o666 (with the usual umask 022: readable by all, writable by the owner)
   */
  mode?: number | undefined;
}

/**
 * A media file being downloaded: a stream, never buffered whole unless `arrayBuffer()` is
 * called. Read it once, by one of `body`, `arrayBuffer()`, `saveTo()` or `nodeStream()`.
 *
 * @example
 * const video = await client.videos.downloadContent(taskId);
 * await video.saveTo('./out/video.mp4', { onProgress: (p) => console.log(p.bytes) });
 */
export class MediaDownload {
  /** The media type the server declared, e.g. `video/mp4`. */
  declare readonly contentType: string | undefined;
  /** Size in bytes, when the server declared it. */
  declare readonly contentLength: number | undefined;
  /** `X-Service-Request-Id` of the answer. */
  declare readonly requestId: string | undefined;
  declare private source: Readable | undefined;

  constructor(
    source: Readable,
    init: {
      contentType?: string | undefined;
      contentLength?: number | undefined;
      requestId?: string | undefined;
    },
  ) {
    this.contentType = init.contentType;
    this.contentLength = init.contentLength;
    this.requestId = init.requestId;
    this.source = source;
  }

  #take(): Readable {
    const source = this.#ensureUnread();
    this.source = undefined;
    return source;
  }

  #ensureUnread(): Readable {
    if (!this.source)
      throw new MediaGatewayError('This download was already read; each MediaDownload is read once.');
    return this.source;
  }

  /**
   * The bytes as a Web `ReadableStream`; a transfer that breaks off errors it as `nodeStream()`'s.
   *
   * @throws MediaGatewayError when the download was already read.
   */
  get body(): ReadableStream<Uint8Array> {
    return Readable.toWeb(mapFailures(this.#take(), this.contentLength)) as ReadableStream<Uint8Array>;
  }

  /**
   * The bytes as a Node `Readable`, the fastest way to pipe them elsewhere in Node. A transfer
   * that breaks off errors the stream as `arrayBuffer()` rejects: APIConnectionError (also when
   * it ends short of `Content-Length`), or APIUserAbortError for the caller's signal.
   *
   * @throws MediaGatewayError when the download was already read.
   */
  nodeStream(): Readable {
    return mapFailures(this.#take(), this.contentLength);
  }

  /**
   * Reads the whole file into memory. Use `saveTo` or `body` for large media.
   *
   * @throws APIConnectionError when the transfer breaks off or ends short of `Content-Length`;
   * APIUserAbortError when the caller's signal aborts it; MediaGatewayError when the download
   * was already read.
   */
  async arrayBuffer(): Promise<ArrayBuffer> {
    const chunks: Buffer[] = [];
    let bytes = 0;
    try {
      for await (const chunk of this.#take()) {
        chunks.push(chunk as Buffer);
        bytes += (chunk as Buffer).length;
      }
    } catch (error) {
      throw transferError(error, bytes);
    }
    const short = endedShort(bytes, this.contentLength);
    if (short) throw short;
    const all = Buffer.concat(chunks);
    return all.buffer.slice(all.byteOffset, all.byteOffset + all.byteLength) as ArrayBuffer;
  }

  /**
   * Streams the file to `path` through a temporary file in the same folder, renamed over `path`
   * when complete: a failed download leaves no partial file behind, and an existing file at
   * `path` is replaced whole (a link there is replaced, never written through).
   *
   * The temporary file is created exclusively (`O_CREAT | O_EXCL`, and `O_NOFOLLOW` where the
   * system has it) under a random name (`.mediagw-<uuid>.part`), so nothing planted in the folder
   * (a link or a file at a guessed name) can redirect the write. It is created with `mode`, less
   * the process's umask, like any new file.
   *
   * The folder and the target are checked before any byte is read: when they fail, the download
   * is still unread and can be saved elsewhere.
   *
   * @returns the path and the number of bytes written.
   * @throws FileWriteError when the folder is missing or cannot be written, `path` names a
   * folder, or a write fails (never retried; `unread` says whether the download can be saved
   * elsewhere); APIConnectionError when the transfer breaks off or ends short of
   * `Content-Length`; APIUserAbortError when the caller's signal aborts it; InvalidOptionError
   * for a `mode` that is not a permission mode or an `onProgress` that is not a function (the
   * download is still unread); MediaGatewayError when the download was already
   * read, or when `onProgress` throws (the download stops, no file is written, `cause` holds the
   * callback's error).
   * @example
   * try { await video.saveTo('/mnt/media/video.mp4') }
   * catch (e) { if (e instanceof FileWriteError && e.unread) await video.saveTo('./video.mp4'); else throw e }
   */
  async saveTo(
    path: string,
    options: SaveOptions = {},
  ): Promise<{
    /** The path written, as given. */
    path: string;
    /** Bytes written. */
    bytes: number;
  }> {
    const mode = checkCount('mode', options.mode, 0, 0o777) ?? 0o666;
    checkCallback('onProgress', options.onProgress);
    const waiting = this.#ensureUnread();
    // The body may fail while the file is created: keep that from being an uncaught 'error'
    // event; the pipeline below reads it from the stream's state.
    const hold = () => undefined;
    waiting.on('error', hold);
    let temporary: { path: string; handle: FileHandle };
    let source: Readable;
    try {
      temporary = await createTemporary(path, mode);
    } finally {
      waiting.off('error', hold);
    }
    try {
      source = this.#take(); // a concurrent read may have taken it while the file was created
    } catch (error) {
      await temporary.handle.close().catch(() => undefined);
      await unlink(temporary.path).catch(() => undefined);
      throw error;
    }
    let bytes = 0;
    const total = this.contentLength;
    // A promise it returned rejected: not awaited, it cannot stop the download in step with its
    // bytes, so it is told once and the callback is left alone from then on. A callback that
    // throws stops the download (nothing is lost: it can be downloaded again) and rejects the
    // call; thrown inside the stream, it would be an uncaught exception.
    const progress =
      options.onProgress &&
      new ProgressThrottle(options.onProgress, total, {
        throwStops: true,
        failed: (error) =>
          process.emitWarning(
            `saveTo's onProgress rejected (${describeCause(error)}); the download to ${path} went on, ` +
              'and onProgress is not called again for it',
            { code: 'MEDIAGW_PROGRESS_CALLBACK_FAILED' },
          ),
      });
    const report = (step: () => void) => {
      try {
        step();
      } catch (cause) {
        throw new MediaGatewayError(
          `saveTo's onProgress threw after ${bytes} bytes (${messageOf(cause)}); ` +
            `the download stopped and ${path} was not written.`,
          { cause },
        );
      }
    };
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        bytes += chunk.length;
        try {
          if (progress) report(() => progress.add(chunk.length));
        } catch (error) {
          done(error as Error);
          return;
        }
        done(null, chunk);
      },
    });
    const file = temporary.handle.createWriteStream();
    // Whichever fails first is the cause: a failing source destroys the file stream with its
    // error, and a failing write destroys the source with the write's error.
    const failed: { first?: 'source' | 'file' } = source.errored ? { first: 'source' } : {};
    source.once('error', () => {
      failed.first ??= 'source';
    });
    file.once('error', () => {
      failed.first ??= 'file';
    });
    try {
      await pipeline(source, counter, file);
      const short = endedShort(bytes, total);
      if (short) throw short;
      // The last call always gives the final count.
      if (progress) report(() => progress.end());
      await rename(temporary.path, path).catch((error: unknown) => {
        throw new FileWriteError(path, `could not be replaced: ${describeFsError(error)}`, {
          unread: false,
          cause: error,
        });
      });
    } catch (caught) {
      const error =
        failed.first === 'file'
          ? new FileWriteError(path, `could not be written: ${describeFsError(caught)}`, {
              unread: false,
              cause: caught,
            })
          : transferError(caught, bytes);
      // Wait for the stream to close its descriptor before the unlink, so nothing is left open.
      if (!file.closed) {
        file.destroy();
        await new Promise<void>((done) => file.once('close', () => done()));
      }
      await unlink(temporary.path).catch(() => undefined);
      throw error;
    }
    return { path, bytes };
  }
}

/** Exclusive creation; never through a link at the temporary path (O_EXCL alone refuses one too). */
const CREATE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);
/** Names tried when one is taken: a random name is taken only if someone planted it. */
const NAME_TRIES = 5;

/**
 * Checks the target and creates the temporary file beside it, before any byte of the download
 * is read, so a failure here leaves the download unread.
 */
async function createTemporary(path: string, mode: number): Promise<{ path: string; handle: FileHandle }> {
  const refuse = (reason: string, cause?: unknown) =>
    new FileWriteError(path, reason, { unread: true, cause });
  if (typeof path !== 'string' || path === '') throw refuse('is not a file path');
  if (path.endsWith('/') || path.endsWith(sep)) throw refuse('names a folder, not a file');
  const target = await lstat(path).catch((error: { code?: string }) => {
    if (error.code === 'ENOENT') return undefined; // a new file; the folder is checked below
    throw refuse(`cannot be checked: ${describeFsError(error)}`, error);
  });
  if (target?.isDirectory()) throw refuse('is a folder, not a file');
  const folder = dirname(path);
  for (let attempt = 1; ; attempt++) {
    // The global Web Crypto loads `node:crypto` on first use; a top-level import would cost every
    // import of the SDK about 1.5 ms.
    const temporary = join(folder, `.mediagw-${globalThis.crypto.randomUUID()}.part`);
    try {
      return { path: temporary, handle: await open(temporary, CREATE_FLAGS, mode) };
    } catch (error) {
      const code = (error as { code?: string }).code;
      if ((code === 'EEXIST' || code === 'ELOOP') && attempt < NAME_TRIES) continue;
      throw refuse(`cannot be written: its folder ${folderProblem(error)}`, error);
    }
  }
}

function folderProblem(error: unknown): string {
  switch ((error as { code?: string }).code) {
    case 'ENOENT':
      return 'does not exist (ENOENT)';
    case 'ENOTDIR':
      return 'is not a folder (ENOTDIR)';
    case 'EACCES':
    case 'EPERM':
      return `may not be written (${(error as { code: string }).code})`;
    case 'EEXIST':
      return 'holds files at every temporary name tried (EEXIST)';
    default:
      return `refused a new file: ${describeFsError(error)}`;
  }
}

function describeFsError(error: unknown): string {
  const code = (error as { code?: unknown } | undefined)?.code;
  const message = messageOf(error);
  return typeof code === 'string' && !message.includes(code) ? `${message} (${code})` : message;
}

/**
 * The source as the caller reads it: the same chunks through a pass-through (its own small
 * buffers, so `pipe` keeps the backpressure and nothing is read ahead), ending in the SDK's
 * errors. The HTTP client's own (a socket closed early, an abort) would otherwise reach the
 * caller raw, unlike what `arrayBuffer()` and `saveTo()` give for the same failure. A consumer
 * that stops early destroys the source, so the connection is let go.
 */
function mapFailures(source: Readable, expected: number | undefined): Readable {
  let bytes = 0;
  const out = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      done(null, chunk);
    },
    flush(done) {
      done(endedShort(bytes, expected));
    },
  });
  // Kept for the source's life: a destroyed source may still emit its abort, which is no news.
  source.on('error', (error) => out.destroy(transferError(error, bytes) as Error));
  out.once('close', () => {
    if (!source.destroyed) source.destroy();
  });
  if (source.errored) out.destroy(transferError(source.errored, bytes) as Error);
  else source.pipe(out);
  return out;
}

/** The error of a body that ended at `bytes` when `Content-Length` promised `expected`, if it did. */
function endedShort(bytes: number, expected: number | undefined): APIConnectionError | undefined {
  if (expected === undefined || bytes === expected) return undefined;
  return new APIConnectionError(`The download ended after ${bytes} of ${expected} bytes`);
}

/** Maps a failure of the transfer itself to the SDK's errors; the SDK's own errors pass as they are. */
function transferError(error: unknown, bytes: number): unknown {
  if (error instanceof MediaGatewayError) return error;
  if ((error as { name?: string } | undefined)?.name === 'AbortError') {
    return new APIUserAbortError(`The download was aborted after ${bytes} bytes ${abortedBy(error)}.`, {
      cause: error,
    });
  }
  // undici's bodyTimeout: the longest pause between chunks passed, as the fetch path reports it.
  const code = errorCode(error);
  if (code !== undefined && TIMEOUT_CODES.has(code)) {
    return new APIConnectionTimeoutError(
      `The download stalled after ${bytes} bytes: it sent nothing for longer than its timeout`,
      { cause: error },
    );
  }
  const reason = messageOf(error);
  return new APIConnectionError(`The download broke off after ${bytes} bytes: ${reason}`, { cause: error });
}
