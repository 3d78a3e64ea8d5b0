import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import busboy from 'busboy';
import { PART_HEAD_BYTES, type ReceivedPart } from '../types.js';

/** The client went away before its body was complete. */
export class RequestAbortedError extends Error {
  /** Always `'RequestAbortedError'`. */
  override readonly name = 'RequestAbortedError';
  constructor() {
    super('the client went away before the body was complete');
  }
}

/**
 * Parses a multipart body as it streams in. File parts are consumed as streams: only their size,
 * SHA-256, first {@link PART_HEAD_BYTES} and declared filename and type are kept, never the
 * whole file. Text fields keep their value (up to 1 MiB).
 *
 * Rejects with an Error whose message says what is wrong when the body is not valid multipart;
 * the rest of the request is then drained so the connection stays usable.
 */
export function parseMultipart(req: IncomingMessage): Promise<ReceivedPart[]> {
  return new Promise((resolve, reject) => {
    const parts: ReceivedPart[] = [];
    let settled = false;
    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      req.unpipe();
      req.resume();
      reject(error instanceof Error ? error : new Error(String(error)));
    };
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: req.headers, limits: { fieldSize: 1024 * 1024 } });
    } catch (error) {
      return fail(error);
    }
    let open = 0;
    let ended = false;
    const maybeDone = () => {
      if (!ended || open > 0 || settled) return;
      settled = true;
      resolve(parts);
    };
    parser.on('field', (name, value, info) => {
      parts.push({
        name,
        contentType: info.mimeType,
        size: Buffer.byteLength(value),
        value,
        truncated: info.valueTruncated,
      });
    });
    parser.on('file', (name, stream, info) => {
      const part: ReceivedPart = { name, filename: info.filename, contentType: info.mimeType, size: 0 };
      parts.push(part);
      open += 1;
      const hash = createHash('sha256');
      const head: Buffer[] = [];
      let headBytes = 0;
      stream.on('data', (chunk: Buffer) => {
        part.size += chunk.length;
        hash.update(chunk);
        if (headBytes < PART_HEAD_BYTES) {
          const slice = chunk.subarray(0, PART_HEAD_BYTES - headBytes);
          head.push(Buffer.from(slice));
          headBytes += slice.length;
        }
      });
      stream.on('end', () => {
        part.sha256 = hash.digest('hex');
        part.head = Buffer.concat(head);
        open -= 1;
        maybeDone();
      });
      stream.on('error', fail);
    });
    parser.on('close', () => {
      ended = true;
      maybeDone();
    });
    parser.on('error', fail);
    req.on('error', () => fail(new RequestAbortedError()));
    req.on('close', () => {
      if (!req.complete) fail(new RequestAbortedError());
    });
    req.pipe(parser);
  });
}
