import { constants, openAsBlob, type ReadStream, rmSync } from 'node:fs';
import { type FileHandle, open, stat, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Dispatcher } from 'undici';
import { rememberFileOnDisk, whyUnreadable } from './disk-file.js';
import { APIUserAbortError, abortedBy, FileInputError } from './errors.js';
import type { FetchInit, FetchLike } from './fetch-like.js';
import { defaultName, defaultNameForType, OCTET_STREAM, sniffType } from './file-type.js';
import {
  type ByteReader,
  blobReader,
  IMAGE_MIME_TYPES,
  SNIFF_BYTES,
  sniffImageFormat,
} from './image-header.js';
import { checkCount, InvalidOptionError } from './options.js';

/**
 * A file to upload: a `Blob`/`File`, a `Buffer`/`Uint8Array`/`ArrayBuffer`, an `fs.ReadStream`,
 * a web `ReadableStream<Uint8Array>`, or what {@link fileFromPath}, {@link fileFromURL} and
 * {@link fileFromBase64} return. A string is not a file: pass it through one of those helpers.
 *
 * Blobs, byte arrays and `fs.ReadStream`s (sent from their path) have a known size, so the request
 * carries `Content-Length` and can be retried. A `ReadableStream` has no known size (the request is
 * sent chunked) and can be sent only once.
 */
export type Uploadable =
  | Blob
  | File
  | Buffer
  | Uint8Array
  | ArrayBuffer
  | ReadStream
  | ReadableStream<Uint8Array>;

/** Name and type for a file helper. */
export interface FileOptions {
  /** Filename sent in the multipart part. @default the path's basename, or `image.<ext>` by type */
  filename?: string | undefined;
  /** MIME type. @default sniffed from the magic bytes (PNG, JPEG, GIF, WebP), else the source's own */
  contentType?: string | undefined;
}

/** Options of {@link fileFromURL}. */
export interface FileFromURLOptions extends FileOptions {
  /** undici dispatcher for the download (proxy, pool, MockAgent). Not with `fetch`. @default an undici Agent of its own */
  dispatcher?: Dispatcher | undefined;
  /**
   * A WHATWG `fetch` to download with, in place of undici (redirects still followed, at most 5).
   * @default undici; the runtime's `fetch` where `import('undici')` gives a stand-in (Bun's)
   */
  fetch?: FetchLike | undefined;
  /**
   * The most bytes to download: a larger body is cut off there, nothing of it is kept, and the
   * call fails. The default is above the largest image the gateway takes (library images below
   * 30 MB; uploads 20 MiB), so that a URL cannot fill the disk.
   * @default 33554432 (32 MiB)
   */
  maxBytes?: number | undefined;
  /** Aborts the download. */
  signal?: AbortSignal | undefined;
  /** Directory that holds the download until it is no longer used. @default os.tmpdir() */
  tempDir?: string | undefined;
}

/**
 * A file on disk, streamed when sent: nothing is read into memory, and its size is known without
 * reading. The file must not change until the upload is done.
 *
 * @throws FileInputError naming the path and the reason (`code` holds the system code) when it
 * does not exist, may not be read, is a folder or anything else than a regular file, or is
 * empty.
 * @example
 * await client.images.edit({ model: 'imgmodel-2', prompt: 'add a hat', image: await fileFromPath('cat.png') });
 */
export async function fileFromPath(path: string, options: FileOptions = {}): Promise<File> {
  const refuse = (reason: string, cause?: unknown) =>
    new FileInputError('fileFromPath', String(path), reason, cause === undefined ? undefined : { cause });
  if (typeof path !== 'string' || path === '') throw refuse('is not a path: pass the path of a file');
  // Opened before anything else, so a file that may not be read is refused here and not in the
  // middle of an upload; non-blocking, so a named pipe cannot hold the call.
  let handle: FileHandle;
  try {
    handle = await open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    throw refuse(whyUnreadable(error), error);
  }
  let info: Awaited<ReturnType<FileHandle['stat']>>;
  let type: string;
  try {
    info = await handle.stat();
    if (info.isDirectory()) throw refuse('is a folder, not a file');
    if (!info.isFile()) throw refuse('is not a regular file (a device, pipe or socket)');
    if (info.size === 0) throw refuse('is empty: there is nothing to upload');
    type = options.contentType ?? (await sniffType(handleReader(handle))) ?? '';
  } catch (error) {
    throw error instanceof FileInputError ? error : refuse(whyUnreadable(error), error);
  } finally {
    await handle.close().catch(() => undefined);
  }
  let blob: Blob;
  try {
    blob = (await openAsBlob(path)) as Blob;
  } catch (error) {
    throw refuse(whyUnreadable(error), error);
  }
  const file = new File([blob], options.filename ?? basename(path), { type, lastModified: info.mtimeMs });
  rememberFileOnDisk(file, { path, start: 0, size: file.size, mtimeMs: info.mtimeMs });
  return file;
}

function handleReader(handle: FileHandle): ByteReader {
  return {
    async read(offset, length) {
      const buffer = Buffer.alloc(length);
      const { bytesRead } = await handle.read(buffer, 0, length, offset);
      return buffer.subarray(0, bytesRead);
    },
  };
}

/**
 * A file from base64 text or a `data:` URL (whose media type is kept). The bytes are decoded into
 * memory, so this suits images of ordinary size.
 *
 * @throws FileInputError, naming the start of the text, when it is empty, not base64 (standard
 * or URL-safe alphabet), a data URL with malformed percent-encoding, or decodes to no bytes.
 * @example
 * const file = fileFromBase64(response.data[0].b64_json, { filename: 'result.png' });
 */
export function fileFromBase64(base64OrDataURL: string, options: FileOptions = {}): File {
  const text: unknown = base64OrDataURL;
  const refuse = (reason: string, cause?: unknown) =>
    new FileInputError(
      'fileFromBase64',
      textStart(text),
      reason,
      cause === undefined ? undefined : { cause },
    );
  if (typeof text !== 'string') throw refuse('is not text: pass base64 text or a data: URL');
  let payload = text.trim();
  if (!payload) throw refuse('is empty: pass base64 text or a data: URL (data:image/png;base64,...)');
  let type = options.contentType;
  let bytes: Uint8Array | undefined;
  const dataURL = /^data:([^,]*),(.*)$/is.exec(payload);
  if (dataURL) {
    const [mediaType = '', ...params] = (dataURL[1] ?? '').split(';');
    type ??= mediaType.trim() || undefined;
    payload = dataURL[2] ?? '';
    if (!params.some((p) => p.trim().toLowerCase() === 'base64')) {
      try {
        bytes = new TextEncoder().encode(decodeURIComponent(payload));
      } catch (error) {
        throw refuse('is a data: URL whose percent-encoding is malformed', error);
      }
    }
  }
  if (!bytes) {
    const compact = payload.replace(/\s+/g, '');
    if (!isBase64(compact)) {
      throw refuse('is not base64 text or a data: URL (data:image/png;base64,...)');
    }
    bytes = Buffer.from(compact, 'base64');
  }
  if (bytes.byteLength === 0) throw refuse('holds no bytes: there is nothing to upload');
  const format = sniffImageFormat(bytes.subarray(0, SNIFF_BYTES));
  type ??= format ? IMAGE_MIME_TYPES[format] : '';
  return new File([bytes as Uint8Array<ArrayBuffer>], options.filename ?? defaultName(format), { type });
}

/**
 * Base64 in the standard or URL-safe alphabet, padded or not. A length that leaves one character
 * over is not base64 (four characters hold three bytes; one alone holds none), nor is padding on
 * text that is not a whole number of quads.
 */
function isBase64(text: string): boolean {
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(text)) return false;
  const unpadded = text.replace(/=+$/, '');
  if (unpadded.length % 4 === 1) return false;
  return unpadded.length === text.length || text.length % 4 === 0;
}

/** The start of a text as a message may show it: its first 24 characters and its length. */
function textStart(text: unknown): string {
  if (typeof text !== 'string') return `(${text === null ? 'null' : typeof text})`;
  const flat = text.trim().replace(/\s+/g, ' ');
  return flat.length > 24 ? `${flat.slice(0, 24)}… (${flat.length} characters)` : flat;
}

/** The agent of `fileFromURL`, made on first use. */
let downloadAgent: import('undici').Agent | undefined;

/**
 * Downloads `url` and returns a file of its bytes, for uploading them (the gateway takes uploaded
 * bytes, not URLs, as edit inputs). The download is streamed into a temporary file, never held in
 * memory; the temporary file is deleted when the returned `File` is garbage-collected, or at the
 * latest when the process exits. Keep a reference to the returned `File` while you use it.
 * Redirects are followed (at most 5). Only `http:` and `https:` URLs are taken: a `file:` URL is
 * refused (use {@link fileFromPath}), and so is a `data:` URL (use {@link fileFromBase64}).
 *
 * The temporary file is created exclusively under a random name, readable by this user only
 * (mode 0o600), and removed on any failure. Messages name the URL without its query, fragment or
 * credentials, so a presigned URL's signature stays out of errors and logs.
 *
 * @throws InvalidOptionError when `fetch` is not a function or is given with `dispatcher`;
 * FileInputError when the URL is malformed (or its path's percent-encoding is), not
 * `http(s):`, cannot be downloaded (refused connection, reset, too many redirects), answers other
 * than 2xx, with an empty body or with more than `maxBytes`, or the temporary file cannot be
 * written; InvalidOptionError when `maxBytes` is not a whole number of 1 or more; APIUserAbortError
 * when `signal` aborts it (`cause` holds the signal's reason).
 * @example
 * const image = await fileFromURL('https://example.com/photo.jpg');
 */
export async function fileFromURL(url: string | URL, options: FileFromURLOptions = {}): Promise<File> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    // Not the parse error as cause: it holds the whole text, query and all.
    throw new FileInputError('fileFromURL', showUnparsedURL(url), 'is not a valid absolute URL');
  }
  const shown = showURL(target);
  const refuse = (reason: string, cause?: unknown) =>
    new FileInputError('fileFromURL', shown, reason, cause === undefined ? undefined : { cause });
  if (target.protocol !== 'http:' && target.protocol !== 'https:') {
    const instead =
      target.protocol === 'file:'
        ? '; for a file on disk use fileFromPath'
        : target.protocol === 'data:'
          ? '; for a data: URL use fileFromBase64'
          : '';
    throw refuse(`is not an http: or https: URL${instead}`);
  }
  let lastSegment: string;
  try {
    lastSegment = decodeURIComponent(target.pathname.split('/').pop() ?? '');
  } catch (error) {
    throw refuse('has malformed percent-encoding in its path', error);
  }
  const failed = (error: unknown) => {
    if (options.signal?.aborted) {
      return new APIUserAbortError(
        `fileFromURL: the download of ${shown} was aborted ${abortedBy(options.signal.reason)}.`,
        {
          cause: options.signal.reason,
        },
      );
    }
    if (error instanceof FileInputError) return error;
    return refuse(
      `could not be downloaded: ${error instanceof Error ? error.message : String(error)}`,
      error,
    );
  };
  if (
    options.fetch !== undefined &&
    (typeof options.fetch !== 'function' || options.dispatcher !== undefined)
  ) {
    throw new InvalidOptionError('fetch', options.fetch, 'a function, and given without `dispatcher`');
  }
  const maxBytes = checkCount('maxBytes', options.maxBytes, 1) ?? DEFAULT_MAX_DOWNLOAD_BYTES;
  const response = await download(target, options).catch((error: unknown) => {
    throw failed(error);
  });
  if (response.status < 200 || response.status >= 300) {
    await response.discard();
    throw refuse(`answered HTTP ${response.status}`);
  }
  const tempDir = options.tempDir ?? tmpdir();
  const tempPath = newTempPath(tempDir);
  try {
    const handle = await open(tempPath, CREATE_EXCLUSIVE, 0o600).catch((error: unknown) => {
      throw refuse(`could not be kept: the temporary folder ${tempDir} ${whyUnreadable(error)}`, error);
    });
    let received = 0;
    const capped = async function* (source: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
      for await (const chunk of source) {
        received += chunk.byteLength;
        if (received > maxBytes) {
          throw refuse(
            `is larger than maxBytes (${maxBytes} bytes): the download was stopped and nothing was kept; ` +
              'pass a larger maxBytes to take it',
          );
        }
        yield chunk;
      }
    };
    await pipeline(response.body as AsyncIterable<Uint8Array>, capped, handle.createWriteStream());
    const { mtimeMs, size } = await stat(tempPath);
    if (size === 0) throw refuse('answered with an empty body: there is nothing to upload');
    const blob = (await openAsBlob(tempPath)) as Blob;
    const header = response.contentType?.split(';')[0]?.trim();
    const sniffed = await sniffType(blobReader(blob));
    const type =
      options.contentType ?? (header && header !== OCTET_STREAM ? header : (sniffed ?? header ?? ''));
    const file = new File([blob], options.filename ?? (lastSegment || defaultNameForType(type)), { type });
    tempFiles.register(file, tempPath);
    rememberFileOnDisk(file, { path: tempPath, start: 0, size: file.size, mtimeMs });
    return file;
  } catch (error) {
    response.destroy();
    await discardTemp(tempPath);
    throw failed(error);
  }
}

/** `fileFromURL`'s default `maxBytes`: above the largest image the gateway takes. */
const DEFAULT_MAX_DOWNLOAD_BYTES = 32 * 1024 * 1024;

/** Created here or not at all, and never through a link at the path. */
const CREATE_EXCLUSIVE =
  constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);

/** A URL as messages show it: no query, fragment or credentials, at most 200 characters. */
function showURL(url: URL): string {
  const shown = new URL(url.href);
  shown.search = '';
  shown.hash = '';
  shown.username = '';
  shown.password = '';
  return cap(shown.href);
}

/** {@link showURL} for text that is not a URL: cut at `?` or `#`, credentials dropped. */
function showUnparsedURL(url: unknown): string {
  if (typeof url !== 'string') return `(${url === null ? 'null' : typeof url})`;
  return cap(url.replace(/[?#][\s\S]*$/, '').replace(/^([a-z][a-z0-9+.-]*:\/*)[^/@]*@/i, '$1'));
}

function cap(text: string): string {
  return text.length > 200 ? `${text.slice(0, 200)}… (${text.length} characters)` : text;
}

// Temporary downloads: each is removed when its File is collected, and any left at exit.
const liveTemps = new Set<string>();
const tempFiles = new FinalizationRegistry<string>(removeTemp);

function newTempPath(dir: string): string {
  if (liveTemps.size === 0) process.once('exit', removeAllTemps);
  // The global Web Crypto loads `node:crypto` on first use; a top-level import would cost every
  // import of the SDK about 1.5 ms.
  const path = join(dir, `mediagw-download-${globalThis.crypto.randomUUID()}`);
  liveTemps.add(path);
  return path;
}

/** Removes a temporary download now, and waits until it is gone. */
async function discardTemp(path: string): Promise<void> {
  if (!liveTemps.delete(path)) return;
  if (liveTemps.size === 0) process.removeListener('exit', removeAllTemps);
  await unlink(path).catch(() => undefined);
}

function removeTemp(path: string): void {
  if (!liveTemps.delete(path)) return;
  unlink(path).catch(() => undefined);
  if (liveTemps.size === 0) process.removeListener('exit', removeAllTemps);
}

function removeAllTemps(): void {
  for (const path of liveTemps) rmSync(path, { force: true });
  liveTemps.clear();
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** A download's answer, whichever way it was fetched; the body is a stream or an async iterable. */
interface Downloaded {
  status: number;
  contentType: string | undefined;
  body: AsyncIterable<Uint8Array> | NodeJS.ReadableStream;
  /** Reads out the rest of an answer not wanted (a refusal), so its connection can be reused. */
  discard(): Promise<void>;
  /** Drops the body at once, after a failure. */
  destroy(): void;
}

const MAX_DOWNLOAD_REDIRECTS = 5;

/** GETs `target` through undici, or through a fetch where one is given or undici cannot run. */
async function download(target: URL, options: FileFromURLOptions): Promise<Downloaded> {
  const undici = options.fetch ? undefined : await import('undici');
  if (undici && typeof undici.Agent?.prototype?.compose === 'function') {
    // Not the global dispatcher: once Node's own fetch has run, that slot can hold the older
    // undici bundled with Node 20 and 22, which refuses undici 7's redirect handler.
    downloadAgent ??= new undici.Agent();
    const dispatcher = (options.dispatcher ?? downloadAgent).compose(
      undici.interceptors.redirect({ maxRedirections: MAX_DOWNLOAD_REDIRECTS }),
    );
    const response = await undici.request(target, {
      method: 'GET',
      dispatcher,
      signal: options.signal ?? null,
    });
    return {
      status: response.statusCode,
      contentType: headerValue(response.headers['content-type']),
      body: response.body,
      discard: () => response.body.dump().catch(() => undefined),
      destroy: () => response.body.destroy(),
    };
  }
  // Bun answers `import('undici')` with a stand-in whose Agent cannot compose: its fetch serves.
  const fetch = options.fetch ?? (globalThis.fetch as unknown as FetchLike);
  let url = target;
  for (let hop = 0; ; hop++) {
    const init: FetchInit = { method: 'GET', headers: {}, redirect: 'manual' };
    if (options.signal) init.signal = options.signal;
    const response = await fetch(url.href, init);
    const body = response.body;
    const discard = async () => {
      const cancel = (body as { cancel?: () => Promise<void> } | null)?.cancel;
      await cancel?.call(body).catch(() => undefined);
    };
    let location: string | undefined;
    let contentType: string | undefined;
    response.headers.forEach((value, key) => {
      if (key.toLowerCase() === 'location') location = value;
      if (key.toLowerCase() === 'content-type') contentType = value;
    });
    if (response.status >= 300 && response.status < 400 && location !== undefined) {
      await discard();
      if (hop >= MAX_DOWNLOAD_REDIRECTS) throw new Error(`more than ${MAX_DOWNLOAD_REDIRECTS} redirects`);
      url = new URL(location, url);
      continue;
    }
    // A web ReadableStream is async-iterable in every runtime the SDK supports (Node 20+, Bun).
    const chunks = (body ?? Readable.from([])) as AsyncIterable<Uint8Array>;
    return { status: response.status, contentType, body: chunks, discard, destroy: () => void discard() };
  }
}
