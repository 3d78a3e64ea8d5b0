// The kinds of file the SDK uploads, and how they are told apart: a type and pure checks, no I/O.
import type { ReadStream } from 'node:fs';

/**
 * A file to upload: a `Blob`/`File`, a `Buffer`/`Uint8Array`/`ArrayBuffer`, an `fs.ReadStream`,
 * a web `ReadableStream<Uint8Array>`, or what `fileFromPath`, `fileFromURL` and
 * `fileFromBase64` return. A string is not a file: pass it through one of those helpers.
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

/** The message for a string given where a file is expected. */
export const BARE_STRING_MESSAGE =
  'is a string, not a file: a path, URL or base64 text is not uploaded as is. Pass fileFromPath(path), ' +
  'await fileFromURL(url) or fileFromBase64(data) instead';

/**
 * Carried by the SDK's own normalised upload files (internal/upload-file.ts), so that
 * {@link isUploadable} takes them without importing their class from the layer above.
 */
export const UPLOAD_FILE: unique symbol = Symbol('mediagw.UploadFile');

/** Whether `value` is one of the {@link Uploadable} kinds (a string never is). */
export function isUploadable(value: unknown): value is Uploadable {
  if (value === null || typeof value !== 'object') return false;
  return (
    (value as { [UPLOAD_FILE]?: unknown })[UPLOAD_FILE] === true ||
    isBlobLike(value) ||
    value instanceof ArrayBuffer ||
    ArrayBuffer.isView(value) ||
    typeof (value as { getReader?: unknown }).getReader === 'function' ||
    typeof (value as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === 'function'
  );
}

/** A `Blob` or `File`, of this realm or another (formdata-node's, another undici's). */
export function isBlobLike(value: object): value is Blob {
  if (value instanceof Blob) return true;
  const v = value as Partial<Blob>;
  return (
    typeof v.slice === 'function' &&
    typeof v.stream === 'function' &&
    typeof v.size === 'number' &&
    /^(Blob|File)$/.test(String((value as { [Symbol.toStringTag]?: unknown })[Symbol.toStringTag]))
  );
}
