import { openAsBlob, ReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { FileInputError, MediaGatewayError, RequestValidationError } from '../core/errors.js';
import { defaultNameForType, OCTET_STREAM, sniffType } from '../core/file-type.js';
import { type ByteReader, blobReader, bytesReader } from '../core/image-header.js';
import type { Uploadable } from '../core/uploadable.js';
import { BARE_STRING_MESSAGE, isBlobLike, isUploadable, UPLOAD_FILE } from '../core/uploadable.js';
import { type FileOnDisk, fileOnDisk, readInRing, whyUnreadable } from './disk-file.js';

const CHUNK = 64 * 1024;
// A stream's first bytes are held back to sniff its type and read its image header.
const STREAM_HEAD = 64 * 1024;

/** Options of {@link UploadFile.stream}. */
export interface StreamOptions {
  /**
   * Read a file on disk into a small ring of reused buffers instead of a new Buffer per chunk, so
   * the memory of an upload does not wait for the garbage collector. Only for a consumer that is
   * done with each chunk before it asks for the chunk after next (undici's own socket writer).
   */
  reuseChunks?: boolean | undefined;
}

type Source =
  | { kind: 'blob'; blob: Blob; disk?: FileOnDisk | undefined }
  | { kind: 'bytes'; bytes: Uint8Array }
  | { kind: 'stream'; head: Uint8Array; rest: AsyncIterator<Uint8Array> | undefined; started: boolean };

/**
 * A file normalised for multipart encoding (the `File` shape form-data-encoder reads): `name`,
 * `type`, `size` and `stream()`, which yields chunks of at most 64 KiB. `size` is `NaN` for a stream
 * of unknown length; such a body is sent without `Content-Length`, and only once.
 */
export class UploadFile {
  /** Filename sent in the part. */
  declare readonly name: string;
  /** MIME type sent in the part. */
  declare readonly type: string;
  /** Byte length; `NaN` for a stream of unknown length. */
  declare readonly size: number;
  /** Creation time of this object, as `File` has. */
  declare readonly lastModified: number;
  /** Marks it as uploadable for `isUploadable`, which lives in the layer below. */
  declare readonly [UPLOAD_FILE]: true;
  readonly #source: Source;
  readonly #limit: { maxBytes: number; error: (sent: number) => Error } | undefined;

  constructor(
    source: Source,
    meta: { name: string; type: string },
    limit?: { maxBytes: number; error: (sent: number) => Error },
  ) {
    this.#source = source;
    this.#limit = limit;
    this.name = meta.name;
    this.type = meta.type;
    this.size =
      source.kind === 'blob'
        ? source.blob.size
        : source.kind === 'bytes'
          ? source.bytes.byteLength
          : Number.NaN;
    this.lastModified = Date.now();
    this[UPLOAD_FILE] = true;
  }

  /** `File`, so that encoders take it for one. */
  get [Symbol.toStringTag](): string {
    return 'File';
  }

  /** Random access to the file's bytes; for a stream, only its first 64 KiB. */
  reader(): ByteReader {
    const source = this.#source;
    if (source.kind === 'blob') return blobReader(source.blob);
    return bytesReader(source.kind === 'bytes' ? source.bytes : source.head);
  }

  /**
   * The same file, whose stream throws `error(sent)` once more than `maxBytes` bytes were
   * produced: `sent` is the number of bytes it had handed on before.
   */
  withLimit(maxBytes: number, error: (sent: number) => Error): UploadFile {
    return new UploadFile(this.#source, this, { maxBytes, error });
  }

  /** The bytes, in chunks of at most 64 KiB (form-data-encoder mis-slices larger offset views). */
  async *stream(options: StreamOptions = {}): AsyncGenerator<Uint8Array, void, undefined> {
    const source = this.#source;
    let produced = 0;
    const chunks =
      source.kind === 'blob' && source.disk && options.reuseChunks
        ? readInRing(source.disk, this.name)
        : this.#chunks(source);
    for await (const chunk of chunks) {
      for (let offset = 0; offset < chunk.byteLength; offset += CHUNK) {
        const piece = chunk.subarray(offset, offset + CHUNK);
        produced += piece.byteLength;
        if (this.#limit && produced > this.#limit.maxBytes)
          throw this.#limit.error(produced - piece.byteLength);
        yield piece;
      }
    }
  }

  async *#chunks(source: Source): AsyncGenerator<Uint8Array, void, undefined> {
    if (source.kind === 'bytes') {
      yield source.bytes;
    } else if (source.kind === 'blob') {
      yield* source.blob.stream() as unknown as AsyncIterable<Uint8Array>;
    } else {
      if (source.started) {
        throw new MediaGatewayError(
          `${this.name}: a ReadableStream can be sent only once, so the request cannot be repeated. ` +
            'Pass a Blob, a Buffer or fileFromPath() to allow retries.',
        );
      }
      source.started = true;
      yield source.head;
      for (let next = await source.rest?.next(); next && !next.done; next = await source.rest?.next()) {
        yield next.value;
      }
    }
  }
}

/**
 * Normalises an {@link Uploadable} into an {@link UploadFile} without reading it into memory: a
 * Blob is sliced, an `fs.ReadStream` is reopened from its path (and the stream itself closed), a
 * `ReadableStream` is peeked for its first 64 KiB only. The type is sniffed from the magic bytes
 * when not given; the name defaults to `image.<ext>` by type.
 *
 * @throws RequestValidationError at `field` for a string or anything that is not a file;
 * FileInputError for an `fs.ReadStream` whose path cannot be read or is not a regular file.
 */
export async function toUploadFile(value: unknown, field: string, operation = 'upload'): Promise<UploadFile> {
  if (value instanceof UploadFile) return value;
  if (typeof value === 'string')
    throw new RequestValidationError(operation, [{ path: field, message: BARE_STRING_MESSAGE }]);
  if (!isUploadable(value)) {
    throw new RequestValidationError(operation, [
      {
        path: field,
        message:
          'must be a file: a Blob, File, Buffer, Uint8Array, ArrayBuffer, fs.ReadStream or ReadableStream ' +
          '(see fileFromPath, fileFromURL, fileFromBase64)',
      },
    ]);
  }
  let source: Source;
  let name: string | undefined;
  let type = '';
  if (isBlobLike(value)) {
    source = { kind: 'blob', blob: value, disk: fileOnDisk(value) };
    name = (value as Partial<File>).name;
    type = value.type;
  } else if (value instanceof ArrayBuffer) {
    source = { kind: 'bytes', bytes: new Uint8Array(value) };
  } else if (ArrayBuffer.isView(value)) {
    source = { kind: 'bytes', bytes: new Uint8Array(value.buffer, value.byteOffset, value.byteLength) };
  } else if (value instanceof ReadStream && value.bytesRead === 0 && value.path !== undefined) {
    const path = String(value.path);
    const { start, end } = value as unknown as { start?: number; end?: number };
    // The stream is never read (the path is read afresh): its own failing open must not be an
    // uncaught 'error' event.
    value.on('error', () => undefined);
    const refuse = (reason: string, cause?: unknown) => {
      value.destroy();
      return new FileInputError(`${operation}: ${field}`, path, `(an fs.ReadStream) ${reason}`, {
        cause,
      });
    };
    const info = await stat(path).catch((error: unknown) => {
      throw refuse(whyUnreadable(error), error);
    });
    if (info.isDirectory()) throw refuse('is a folder, not a file');
    if (!info.isFile()) throw refuse('is not a regular file (a device, pipe or socket)');
    const { mtimeMs } = info;
    let blob = (await openAsBlob(path).catch((error: unknown) => {
      throw refuse(whyUnreadable(error), error);
    })) as Blob;
    if (start || (end !== undefined && end !== Number.POSITIVE_INFINITY)) {
      blob = blob.slice(
        start ?? 0,
        end === undefined || end === Number.POSITIVE_INFINITY ? undefined : end + 1,
      );
    }
    value.destroy(); // its descriptor is not needed: the blob reads the path
    source = { kind: 'blob', blob, disk: { path, start: start ?? 0, size: blob.size, mtimeMs } };
    name = basename(path);
  } else {
    source = await peekStream(value as AsyncIterable<Uint8Array> | ReadableStream<Uint8Array>);
  }
  const file = new UploadFile(source, { name: '', type: '' });
  const sniffed = await sniffType(file.reader());
  type = type && type !== OCTET_STREAM ? type : (sniffed ?? (type || OCTET_STREAM));
  if (!name || name === 'blob') name = defaultNameForType(type);
  return new UploadFile(source, { name, type });
}

async function peekStream(stream: AsyncIterable<Uint8Array> | ReadableStream<Uint8Array>): Promise<Source> {
  const iterate = (stream as Partial<AsyncIterable<Uint8Array>>)[Symbol.asyncIterator];
  const rest: AsyncIterator<Uint8Array> = iterate
    ? iterate.call(stream)
    : readerIterator((stream as ReadableStream<Uint8Array>).getReader());
  const parts: Uint8Array[] = [];
  let length = 0;
  let done = false;
  while (length < STREAM_HEAD) {
    const next = await rest.next();
    if (next.done) {
      done = true;
      break;
    }
    const chunk = typeof next.value === 'string' ? new TextEncoder().encode(next.value) : next.value;
    parts.push(chunk);
    length += chunk.byteLength;
  }
  return {
    kind: 'stream',
    head: Buffer.concat(parts, length),
    rest: done ? undefined : rest,
    started: false,
  };
}

function readerIterator(reader: ReadableStreamDefaultReader<Uint8Array>): AsyncIterator<Uint8Array> {
  return {
    next: async () => {
      const { done, value } = await reader.read();
      return done ? { done: true, value: undefined } : { done: false, value };
    },
  };
}
