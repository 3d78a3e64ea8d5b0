import type { IncomingMessage } from 'node:http';
import { contentTypeError, MockHttpError } from '../http-error.js';
import type { BodyMode, ReceivedPart } from '../types.js';
import { parseMultipart, RequestAbortedError } from './multipart.js';

/** Largest JSON or raw body a route accepts (multipart files are streamed and not limited here). */
export const MAX_BUFFERED_BODY = 16 * 1024 * 1024;

/** A request body as read: what the route gets, and an error to answer with, if any. */
export interface ReadBody {
  /** Parsed JSON (`json` routes). */
  body?: unknown;
  /** The raw bytes (`raw` and `json` routes). */
  raw?: Buffer;
  /** Multipart parts in order (`multipart` routes). */
  parts?: ReceivedPart[];
  /** Bytes read. */
  size: number;
  /** Set when the body could not be read as the route asked; answered after authentication. */
  error?: MockHttpError;
  /** The client went away before the body was complete: there is no one to answer. */
  aborted?: boolean;
}

/** The mode to read a body in when no route says: by its content type. */
export function modeForContentType(contentType: string | undefined): BodyMode {
  if (contentType?.toLowerCase().startsWith('multipart/form-data')) return 'multipart';
  return 'json';
}

/**
 * Reads the request body in `mode`. Never throws: a body that is not what the route asked for
 * (invalid JSON, JSON without a JSON content type, not multipart, too large) comes back with
 * `error` set to the spec's 400 or 413.
 * With `lenient`, JSON that does not parse is not an error (the request log reads this way).
 */
export async function readBody(req: IncomingMessage, mode: BodyMode, lenient = false): Promise<ReadBody> {
  try {
    return await readAs(req, mode, lenient);
  } catch {
    return { size: 0, aborted: true };
  }
}

async function readAs(req: IncomingMessage, mode: BodyMode, lenient: boolean): Promise<ReadBody> {
  if (mode === 'none') {
    const size = await drain(req);
    return { size };
  }
  if (mode === 'multipart') {
    if (modeForContentType(req.headers['content-type']) !== 'multipart') {
      const size = await drain(req);
      return {
        size,
        error: MockHttpError.spec(400, 'invalid_request', 'expected a multipart/form-data body'),
      };
    }
    try {
      const parts = await parseMultipart(req);
      return { parts, size: parts.reduce((n, p) => n + p.size, 0) };
    } catch (error) {
      if (error instanceof RequestAbortedError) return { size: 0, aborted: true };
      const message = `the multipart body could not be read: ${(error as Error).message}`;
      return { size: 0, error: MockHttpError.spec(400, 'invalid_request', message) };
    }
  }
  const { raw, size } = await collect(req);
  if (!raw) {
    const error = MockHttpError.spec(
      413,
      'payload_too_large',
      `the body is larger than ${MAX_BUFFERED_BODY} bytes`,
    );
    return { size, error };
  }
  if (mode === 'raw') return { raw, size };
  if (size === 0) return { size };
  const wrongType = lenient ? undefined : contentTypeError(req.headers['content-type']);
  if (wrongType) return { raw, size, error: wrongType };
  try {
    return { body: JSON.parse(raw.toString('utf8')), raw, size };
  } catch {
    if (lenient) return { raw, size };
    return {
      raw,
      size,
      error: MockHttpError.spec(400, 'invalid_request', 'the request body is not valid JSON'),
    };
  }
}

async function collect(req: IncomingMessage): Promise<{ raw: Buffer | undefined; size: number }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= MAX_BUFFERED_BODY) chunks.push(chunk);
  }
  return { raw: size <= MAX_BUFFERED_BODY ? Buffer.concat(chunks) : undefined, size };
}

async function drain(req: IncomingMessage): Promise<number> {
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) size += chunk.length;
  return size;
}
