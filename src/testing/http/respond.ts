import type { ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setTimeout as delay } from 'node:timers/promises';

/**
 * How an answer goes out: as is, or broken by a fault that let the route run first.
 * `truncate` announces the full length and sends part of it; `reset` drops the connection;
 * `malformed` replaces the body with invalid JSON; `drip` sends the body a few bytes at a time;
 * `pad` sends it without a length and with spaces after it.
 */
export type AnswerMode = 'normal' | 'truncate' | 'reset' | 'malformed' | 'drip' | 'pad';

/** What the fault that chose the mode says about the answer. */
export interface AnswerShape {
  /** Bytes of the body a `truncate` answer sends. @default half the body */
  truncateBytes?: number | undefined;
  /** How a `drip` answer is paced. */
  drip?: { everyMs: number; bytes?: number | undefined } | undefined;
  /** Spaces a `pad` answer sends after the body. */
  padBytes?: number | undefined;
}

/** An answer to send: a status, headers, and a buffered body or a stream. */
export interface Answer {
  /** HTTP status. */
  status: number;
  /** Answer headers. */
  headers?: Record<string, string | number> | undefined;
  /** A buffered body. */
  body?: Buffer | string | undefined;
  /** A streamed body. */
  stream?: Readable | undefined;
  /** Byte length of `stream`, sent as Content-Length when known. */
  length?: number | undefined;
}

/** What {@link sendAnswer} needs besides the answer. */
export interface SendOptions extends AnswerShape {
  /** How an injected fault alters the answer. */
  mode: AnswerMode;
  /** Told the status once the headers are decided. */
  onStatus?: ((status: number) => void) | undefined;
}

/** A body that does not parse as JSON (a `malformedJson` fault). */
export const MALFORMED_JSON = '{"code":200,"data":[{"status":"submitted","task_id":';

/**
 * Writes an answer to `res` in the given mode. Resolves once it is sent, broken off, or the
 * client went away; never rejects.
 */
export async function sendAnswer(res: ServerResponse, answer: Answer, options: SendOptions): Promise<void> {
  if (res.headersSent || res.destroyed) return;
  if (options.mode === 'reset') {
    answer.stream?.destroy();
    options.onStatus?.(0);
    res.destroy();
    return;
  }
  if (options.mode === 'malformed') {
    answer.stream?.destroy();
    answer = { status: 200, headers: { 'Content-Type': 'application/json' }, body: MALFORMED_JSON };
  }
  options.onStatus?.(answer.status);
  const body = typeof answer.body === 'string' ? Buffer.from(answer.body) : answer.body;
  const length = body ? body.length : answer.length;
  if (options.mode === 'truncate') return sendTruncated(res, answer, body, length, options.truncateBytes);
  if (options.mode === 'drip') return sendDripping(res, answer, body, length, options.drip);
  if (options.mode === 'pad') return sendPadded(res, answer, body, options.padBytes ?? 0);
  const headers = { ...answer.headers, ...(length !== undefined ? { 'Content-Length': length } : {}) };
  res.writeHead(answer.status, headers);
  if (answer.stream) {
    // A client that goes away mid-stream ends the pipeline with an error: nothing to report.
    await pipeline(answer.stream, res).catch(() => res.destroy());
    return;
  }
  await new Promise<void>((resolve) => res.end(body ?? '', resolve));
}

async function sendTruncated(
  res: ServerResponse,
  answer: Answer,
  body: Buffer | undefined,
  length: number | undefined,
  truncateBytes: number | undefined,
): Promise<void> {
  // Announce more than will arrive: the full length, or a made-up one for an empty or unsized body.
  const announced = length && length > 0 ? length : 1024;
  const limit = Math.max(0, Math.min(truncateBytes ?? Math.floor(announced / 2), announced - 1));
  res.writeHead(answer.status, { ...answer.headers, 'Content-Length': announced });
  res.flushHeaders();
  let sent = 0;
  const write = (chunk: Buffer) =>
    new Promise<void>((resolve) => {
      if (res.destroyed) return resolve();
      res.write(chunk, () => resolve());
    });
  if (body) {
    await write(body.subarray(0, limit));
    sent = limit;
  } else if (answer.stream) {
    try {
      for await (const chunk of answer.stream as AsyncIterable<Buffer>) {
        const piece = chunk.subarray(0, limit - sent);
        if (piece.length > 0) await write(piece);
        sent += piece.length;
        if (sent >= limit || res.destroyed) break;
      }
    } catch {
      // the client went away
    }
    answer.stream.destroy();
  }
  res.destroy();
}

/** Writes `chunk` and resolves once it is handed to the socket, or at once if the client went away. */
function write(res: ServerResponse, chunk: Buffer): Promise<void> {
  return new Promise<void>((resolve) => {
    if (res.destroyed) return resolve();
    res.write(chunk, () => resolve());
  });
}

/** The body's bytes in order, from the buffer or the stream. */
async function* bodyBytes(body: Buffer | undefined, stream: Readable | undefined): AsyncGenerator<Buffer> {
  if (body) yield body;
  else if (stream) yield* stream as AsyncIterable<Buffer>;
}

/** Sends the headers at once, then `bytes` of the body every `everyMs` ms, until done or the client leaves. */
async function sendDripping(
  res: ServerResponse,
  answer: Answer,
  body: Buffer | undefined,
  length: number | undefined,
  drip: AnswerShape['drip'],
): Promise<void> {
  const everyMs = drip?.everyMs ?? 100;
  const size = Math.max(1, drip?.bytes ?? 1);
  res.writeHead(answer.status, {
    ...answer.headers,
    ...(length !== undefined ? { 'Content-Length': length } : {}),
  });
  res.flushHeaders();
  // The pause ends when the connection closes (the client left, or the gateway closed), so a
  // long `everyMs` keeps no timer alive after the answer is gone.
  const closed = new AbortController();
  res.once('close', () => closed.abort());
  try {
    for await (const chunk of bodyBytes(body, answer.stream)) {
      for (let at = 0; at < chunk.length; at += size) {
        await delay(everyMs, undefined, { signal: closed.signal });
        await write(res, chunk.subarray(at, at + size));
      }
    }
  } catch {
    // the connection closed
  } finally {
    answer.stream?.destroy();
  }
  if (!res.destroyed) res.end();
}

/** Sends the body without Content-Length, then `padBytes` spaces, honouring backpressure. */
async function sendPadded(
  res: ServerResponse,
  answer: Answer,
  body: Buffer | undefined,
  padBytes: number,
): Promise<void> {
  const headers = { ...answer.headers };
  for (const name of Object.keys(headers)) if (name.toLowerCase() === 'content-length') delete headers[name];
  res.writeHead(answer.status, headers);
  try {
    for await (const chunk of bodyBytes(body, answer.stream)) await write(res, chunk);
  } catch {
    // the client went away
  } finally {
    answer.stream?.destroy();
  }
  const spaces = Buffer.alloc(64 * 1024, ' ');
  for (let left = padBytes; left > 0 && !res.destroyed; left -= spaces.length) {
    await write(res, spaces.subarray(0, Math.min(left, spaces.length)));
  }
  if (!res.destroyed) res.end();
}
