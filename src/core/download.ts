import { createWriteStream } from 'node:fs';
import { rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { APIConnectionError, APIUserAbortError, MediaGatewayError } from './errors.js';

/** Progress of a download being saved. */
export interface DownloadProgress {
  /** Bytes written so far. */
  bytes: number;
  /** Total bytes, when the answer said (`Content-Length`). */
  total: number | undefined;
}

/** Options of {@link MediaDownload.saveTo}. */
export interface SaveOptions {
  /** Called as bytes are written. */
  onProgress?: ((progress: DownloadProgress) => void) | undefined;
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
  readonly contentType: string | undefined;
  /** Size in bytes, when the server declared it. */
  readonly contentLength: number | undefined;
  /** `X-Service-Request-Id` of the answer. */
  readonly requestId: string | undefined;
  private source: Readable | undefined;

  constructor(
    source: Readable,
    init: {
      contentType?: string | undefined;
      contentLength?: number | undefined;
      requestId?: string | undefined;
    },
  ) {
    this.source = source;
    this.contentType = init.contentType;
    this.contentLength = init.contentLength;
    this.requestId = init.requestId;
  }

  private take(): Readable {
    const source = this.source;
    if (!source)
      throw new MediaGatewayError('This download was already read; each MediaDownload is read once.');
    this.source = undefined;
    return source;
  }

  /**
   * The bytes as a Web `ReadableStream`.
   *
   * @throws MediaGatewayError when the download was already read.
   */
  get body(): ReadableStream<Uint8Array> {
    return Readable.toWeb(this.take()) as ReadableStream<Uint8Array>;
  }

  /**
   * The bytes as a Node `Readable`, the fastest way to pipe them elsewhere in Node.
   *
   * @throws MediaGatewayError when the download was already read.
   */
  nodeStream(): Readable {
    return this.take();
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
      for await (const chunk of this.take()) {
        chunks.push(chunk as Buffer);
        bytes += (chunk as Buffer).length;
      }
    } catch (error) {
      throw transferError(error, bytes);
    }
    if (this.contentLength !== undefined && bytes !== this.contentLength) {
      throw new APIConnectionError(`The download ended after ${bytes} of ${this.contentLength} bytes`);
    }
    const all = Buffer.concat(chunks);
    return all.buffer.slice(all.byteOffset, all.byteOffset + all.byteLength) as ArrayBuffer;
  }

  /**
   * Streams the file to `path` through a temporary file in the same folder, renamed into
   * place when complete: a failed download leaves no partial file behind.
   *
   * @returns the path and the number of bytes written.
   * @throws APIConnectionError when the transfer breaks off or ends short of `Content-Length`;
   * APIUserAbortError when the caller's signal aborts it; MediaGatewayError when the download
   * was already read; the `fs` error when the folder cannot be written.
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
    const source = this.take();
    const temporary = join(dirname(path), `.${basename(path)}.${process.pid}.${Date.now()}.part`);
    let bytes = 0;
    const total = this.contentLength;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        bytes += chunk.length;
        options.onProgress?.({ bytes, total });
        done(null, chunk);
      },
    });
    const file = createWriteStream(temporary);
    let fileError: unknown;
    file.once('error', (error) => {
      fileError = error;
    });
    try {
      await pipeline(source, counter, file);
      if (total !== undefined && bytes !== total) {
        throw new APIConnectionError(`The download ended after ${bytes} of ${total} bytes`);
      }
      await rename(temporary, path);
    } catch (caught) {
      // Newer Node versions hand the source's error on to the file stream too: only an error
      // the file raised on its own (a folder that cannot be written) stays the fs error.
      const fromFile = caught === fileError && caught !== source.errored;
      const error = fromFile ? caught : transferError(caught, bytes);
      // The file may still be opening when a transfer breaks off at once: wait for the stream
      // to close, or the unlink would run before the file exists and leave it behind.
      if (!file.closed) await new Promise<void>((done) => file.once('close', () => done()));
      await unlink(temporary).catch(() => undefined);
      throw error;
    }
    return { path, bytes };
  }
}

/** Maps a failure of the transfer itself to the SDK's errors; the SDK's own errors pass as they are. */
function transferError(error: unknown, bytes: number): unknown {
  if (error instanceof MediaGatewayError) return error;
  if ((error as { name?: string } | undefined)?.name === 'AbortError') {
    return new APIUserAbortError('The download was aborted by the caller.', { cause: error });
  }
  const reason = error instanceof Error ? error.message : String(error);
  return new APIConnectionError(`The download broke off after ${bytes} bytes: ${reason}`, { cause: error });
}
