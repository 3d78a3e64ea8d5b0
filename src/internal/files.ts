import { constants, openAsBlob } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { basename } from 'node:path';
import { FileInputError } from '../core/errors.js';
import { defaultName, sniffType } from '../core/file-type.js';
import { type ByteReader, IMAGE_MIME_TYPES, SNIFF_BYTES, sniffImageFormat } from '../core/image-header.js';
import { rememberFileOnDisk, whyUnreadable } from './disk-file.js';
import { checkFileOptions, type FileOptions } from './file-options.js';

export type { Uploadable } from '../core/uploadable.js';
export { type FileFromURLOptions, fileFromURL } from './file-from-url.js';
export type { FileOptions } from './file-options.js';

/**
 * A file on disk, streamed when sent: nothing is read into memory, and its size is known without
 * reading. The file must not change until the upload is done.
 *
 * @throws FileInputError naming the path and the reason (`code` holds the system code) when it
 * does not exist, may not be read, is a folder or anything else than a regular file, or is
 * empty, or when `path` is not text; InvalidOptionError when `options` is not an object or its
 * `filename` or `contentType` is not text, before anything is read.
 * @example
 * await client.images.edit({ model: 'imgmodel-2', prompt: 'add a hat', image: await fileFromPath('cat.png') });
 */
export async function fileFromPath(path: string, options?: FileOptions): Promise<File> {
  const given = checkFileOptions(options);
  // Not `String(path)`: an object without a prototype cannot be made text.
  const shown = typeof path === 'string' ? path : `(${path === null ? 'null' : typeof path})`;
  const refuse = (reason: string, cause?: unknown) =>
    new FileInputError('fileFromPath', shown, reason, cause === undefined ? undefined : { cause });
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
    type = given.contentType ?? (await sniffType(handleReader(handle))) ?? '';
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
  const file = new File([blob], given.filename ?? basename(path), { type, lastModified: info.mtimeMs });
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
 * or URL-safe alphabet), a data URL with malformed percent-encoding, or decodes to no bytes;
 * InvalidOptionError when `options` is not an object or its `filename` or `contentType` is not
 * text.
 * @example
 * const file = fileFromBase64(response.data[0].b64_json, { filename: 'result.png' });
 */
export function fileFromBase64(base64OrDataURL: string, options?: FileOptions): File {
  const given = checkFileOptions(options);
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
  let type = given.contentType;
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
  return new File([bytes as Uint8Array<ArrayBuffer>], given.filename ?? defaultName(format), { type });
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
