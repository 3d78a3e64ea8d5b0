import type { ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/**
 * How an answer goes out: as is, or broken by a fault that let the route run first.
 * `truncate` announces the full length and sends part of it; `reset` drops the connection;
 * `malformed` replaces the body with invalid JSON.
 */
export type AnswerMode = 'normal' | 'truncate' | 'reset' | 'malformed';

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
export interface SendOptions {
  /** How an injected fault alters the answer. */
  mode: AnswerMode;
  /** Bytes of the body a `truncate` answer sends. @default half the body */
  truncateBytes?: number | undefined;
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
