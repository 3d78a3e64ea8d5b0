import { randomUUID } from 'node:crypto';
import { createWriteStream, openAsBlob, type ReadStream, rmSync } from 'node:fs';
import { stat, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Dispatcher } from 'undici';
import { rememberFileOnDisk } from '../internal/disk-file.js';
import { blobReader, IMAGE_MIME_TYPES, SNIFF_BYTES, sniffImageFormat } from '../internal/image-header.js';
import { defaultName, defaultNameForType, OCTET_STREAM, sniffType } from '../internal/upload-file.js';
import { MediaGatewayError, RequestValidationError } from './errors.js';

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
  /** undici dispatcher for the download (proxy, pool, MockAgent). @default undici's global dispatcher */
  dispatcher?: Dispatcher | undefined;
  /** Aborts the download. */
  signal?: AbortSignal | undefined;
  /** Directory that holds the download until it is no longer used. @default os.tmpdir() */
  tempDir?: string | undefined;
}

/**
 * A file on disk, streamed when sent: nothing is read into memory, and its size is known without
 * reading. The file must not change until the upload is done.
 *
 * @throws the `fs` error (ENOENT, EACCES) when the path cannot be read; a `MediaGatewayError` for a directory.
 * @example
 * await client.images.edit({ model: 'imgmodel-2', prompt: 'add a hat', image: await fileFromPath('cat.png') });
 */
export async function fileFromPath(path: string, options: FileOptions = {}): Promise<File> {
  const info = await stat(path);
  if (!info.isFile()) throw new MediaGatewayError(`fileFromPath: ${path} is not a regular file`);
  const blob = await openAsBlob(path);
  const type = options.contentType ?? (await sniffType(blobReader(blob))) ?? '';
  const file = new File([blob as Blob], options.filename ?? basename(path), {
    type,
    lastModified: info.mtimeMs,
  });
  rememberFileOnDisk(file, { path, start: 0, size: file.size, mtimeMs: info.mtimeMs });
  return file;
}

/**
 * A file from base64 text or a `data:` URL (whose media type is kept). The bytes are decoded into
 * memory, so this suits images of ordinary size.
 *
 * @throws RequestValidationError when the text is not base64 or a data URL.
 * @example
 * const file = fileFromBase64(response.data[0].b64_json, { filename: 'result.png' });
 */
export function fileFromBase64(base64OrDataURL: string, options: FileOptions = {}): File {
  let payload = base64OrDataURL.trim();
  let type = options.contentType;
  let bytes: Uint8Array | undefined;
  const dataURL = /^data:([^,]*),(.*)$/is.exec(payload);
  if (dataURL) {
    const [mediaType = '', ...params] = (dataURL[1] ?? '').split(';');
    type ??= mediaType.trim() || undefined;
    payload = dataURL[2] ?? '';
    if (!params.some((p) => p.trim().toLowerCase() === 'base64')) {
      bytes = new TextEncoder().encode(decodeURIComponent(payload));
    }
  }
  if (!bytes) {
    const compact = payload.replace(/\s+/g, '');
    if (!compact || !/^[A-Za-z0-9+/_-]+={0,2}$/.test(compact)) {
      throw new RequestValidationError('fileFromBase64', [
        { path: '', message: 'must be base64 text or a data: URL (data:image/png;base64,...)' },
      ]);
    }
    bytes = Buffer.from(compact, 'base64');
  }
  const format = sniffImageFormat(bytes.subarray(0, SNIFF_BYTES));
  type ??= format ? IMAGE_MIME_TYPES[format] : '';
  return new File([bytes as Uint8Array<ArrayBuffer>], options.filename ?? defaultName(format), { type });
}

/** The agent of `fileFromURL`, made on first use. */
let downloadAgent: import('undici').Agent | undefined;

/**
 * Downloads `url` and returns a file of its bytes, for uploading them (the gateway takes uploaded
 * bytes, not URLs, as edit inputs). The download is streamed into a temporary file, never held in
 * memory; the temporary file is deleted when the returned `File` is garbage-collected, or at the
 * latest when the process exits. Keep a reference to the returned `File` while you use it.
 * Redirects are followed (at most 5).
 *
 * @throws MediaGatewayError when the server answers other than 2xx; the undici error when the
 * download fails; `signal.reason` when aborted.
 * @example
 * const image = await fileFromURL('https://example.com/photo.jpg');
 */
export async function fileFromURL(url: string | URL, options: FileFromURLOptions = {}): Promise<File> {
  const { Agent, request, interceptors } = await import('undici');
  const target = new URL(url);
  // Not the global dispatcher: once Node's own fetch has run, that slot can hold the older
  // undici bundled with Node 20 and 22, which refuses undici 7's redirect handler.
  downloadAgent ??= new Agent();
  const dispatcher = (options.dispatcher ?? downloadAgent).compose(
    interceptors.redirect({ maxRedirections: 5 }),
  );
  const response = await request(target, { method: 'GET', dispatcher, signal: options.signal ?? null });
  const shown = `${target.origin}${target.pathname}`; // the query may hold a signature: keep it out of messages
  if (response.statusCode < 200 || response.statusCode >= 300) {
    await response.body.dump().catch(() => undefined);
    throw new MediaGatewayError(`fileFromURL: GET ${shown} answered HTTP ${response.statusCode}`);
  }
  const tempPath = newTempPath(options.tempDir ?? tmpdir());
  try {
    await pipeline(response.body, createWriteStream(tempPath));
  } catch (error) {
    removeTemp(tempPath);
    throw error;
  }
  const { mtimeMs } = await stat(tempPath);
  const blob = await openAsBlob(tempPath);
  const header = headerValue(response.headers['content-type'])?.split(';')[0]?.trim();
  const sniffed = await sniffType(blobReader(blob));
  const type =
    options.contentType ?? (header && header !== OCTET_STREAM ? header : (sniffed ?? header ?? ''));
  const lastSegment = decodeURIComponent(target.pathname.split('/').pop() ?? '');
  const file = new File([blob as Blob], options.filename ?? (lastSegment || defaultNameForType(type)), {
    type,
  });
  tempFiles.register(file, tempPath);
  rememberFileOnDisk(file, { path: tempPath, start: 0, size: file.size, mtimeMs });
  return file;
}

// Temporary downloads: each is removed when its File is collected, and any left at exit.
const liveTemps = new Set<string>();
const tempFiles = new FinalizationRegistry<string>(removeTemp);

function newTempPath(dir: string): string {
  if (liveTemps.size === 0) process.once('exit', removeAllTemps);
  const path = join(dir, `mediagw-download-${randomUUID()}`);
  liveTemps.add(path);
  return path;
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

// Normalisation for multipart bodies; internal, not exported by the package entry.
export { BARE_STRING_MESSAGE, isUploadable, toUploadFile, UploadFile } from '../internal/upload-file.js';
