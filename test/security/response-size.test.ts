// Covers: src/internal/response-body.ts, src/internal/read-capped.ts
import type { ServerResponse } from 'node:http';
import { gunzipSync, gzipSync } from 'node:zlib';
import { Agent, type Dispatcher, interceptors } from 'undici';
import { afterEach, describe, expect, test } from 'vitest';
import {
  AmbiguousSubmissionError,
  InternalServerError,
  InvalidResponseError,
  ResponseTooLargeError,
} from '../../src/core/errors.js';
import type { RequestSpec } from '../../src/internal/request-spec.js';
import { testClient } from '../helpers/client.js';
import { drain, type RawServer, startRawServer } from '../helpers/raw-server.js';
import { rejection } from '../helpers/rejection.js';
import { mib, runChild } from '../reliability/child.js';

const KEY = 'mgw_size_key_0000111122223333';
const MiB = 1024 * 1024;

const servers: RawServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function server(handle: Parameters<typeof startRawServer>[0]): Promise<RawServer> {
  const s = await startRawServer(handle);
  servers.push(s);
  return s;
}

/**
 * Streams a chunked JSON answer of up to `total` bytes, honouring backpressure, and stops when
 * the client goes away. `sent()` tells how many bytes were written.
 */
function streamJSON(res: ServerResponse, total: number, status = 200): () => number {
  const chunk = Buffer.alloc(64 * 1024, 'x');
  let written = 0;
  res.writeHead(status, { 'content-type': 'application/json' });
  res.write('{"id":"');
  const pump = () => {
    while (written < total && !res.destroyed) {
      written += chunk.length;
      if (!res.write(chunk)) return void res.once('drain', pump);
    }
    if (!res.destroyed) res.end('"}');
  };
  res.on('close', () => {
    written = Math.min(written, total);
  });
  pump();
  return () => written;
}

const query: RequestSpec = { method: 'GET', path: '/videos/t1', retry: 'safe', timeout: 10_000 };
const submission: RequestSpec = {
  method: 'POST',
  path: '/videos/generations',
  body: { model: 'vidmodel-2.0-mini', prompt: 'a red kite' },
  retry: 'billable',
  timeout: 10_000,
};
const client = (baseURL: string, maxResponseBytes?: number) =>
  testClient({ apiKey: KEY, baseURL, maxRetries: 2, ...(maxResponseBytes ? { maxResponseBytes } : {}) });

describe('maxResponseBytes', () => {
  test('a content-length over the limit is refused before reading, and not retried', async () => {
    const gw = await server((_req, res) => {
      const body = JSON.stringify({ id: 'x'.repeat(2_000) });
      res
        .writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) })
        .end(body);
    });
    const error = await rejection(client(gw.url, 1_024)._transport.json(query));
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect(error.message).toMatch(
      /GET \/v1\/videos\/t1 answered 200 with a body of 2009 bytes, over maxResponseBytes \(1024\)/,
    );
    expect((error as unknown as ResponseTooLargeError).limit).toBe(1_024);
    expect(gw.received).toHaveLength(1);
  });

  test('the default is 32 MiB: a larger content-length fails at once, with no body sent', async () => {
    const gw = await server((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(32 * MiB + 1) });
      res.flushHeaders(); // and nothing more
    });
    const error = await rejection(client(gw.url)._transport.json({ ...query, options: { timeout: 5_000 } }));
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect((error as unknown as ResponseTooLargeError).limit).toBe(32 * MiB);
  });

  test('a streamed answer is cut off once past the limit: the rest is not read', async () => {
    let sent = () => 0;
    const gw = await server((_req, res) => {
      sent = streamJSON(res, 200 * MiB);
    });
    const error = await rejection(client(gw.url, 256 * 1024)._transport.json(query));
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error.message).toMatch(/a body of more than 262144 bytes/);
    expect(gw.received).toHaveLength(1);
    // Socket buffers take a few MiB; the 200 MiB were never asked for.
    expect(sent()).toBeLessThan(32 * MiB);
  });

  test('an error answer over the limit is the APIError of its status, its body not read', async () => {
    let sent = () => 0;
    const gw = await server((_req, res) => {
      sent = streamJSON(res, 200 * MiB, 503);
    });
    const error = await rejection(
      client(gw.url, 64 * 1024)._transport.json({ ...query, options: { maxRetries: 0 } }),
    );
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error.status).toBe(503);
    expect(error.message).toMatch(/the body was not read: it passed maxResponseBytes, 65536 bytes/);
    expect(sent()).toBeLessThan(32 * MiB);
  });

  test('a billable submission answered 2xx past the limit is ambiguous, and sent once', async () => {
    const gw = await server(async (req, res) => {
      await drain(req);
      streamJSON(res, 8 * MiB);
    });
    const error = await rejection(client(gw.url, 64 * 1024)._transport.json(submission));
    expect(error).toBeInstanceOf(AmbiguousSubmissionError);
    expect(error.cause).toBeInstanceOf(ResponseTooLargeError);
    expect(gw.received).toHaveLength(1);
  });

  test('an answer within the limit is read whole, with or without content-length', async () => {
    const body = JSON.stringify({ id: 'task_1', pad: 'y'.repeat(10_000) });
    const gw = await server((req, res) => {
      if (req.url?.includes('chunked')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write(body.slice(0, 5_000));
        res.end(body.slice(5_000));
      } else res.writeHead(200, { 'content-type': 'application/json' }).end(body);
    });
    const transport = client(gw.url, Buffer.byteLength(body))._transport;
    expect(await transport.json<{ pad: string }>(query)).toMatchObject({ id: 'task_1' });
    expect(await transport.json<{ pad: string }>({ ...query, path: '/videos/chunked' })).toMatchObject({
      id: 'task_1',
    });
  });

  test('a body a dispatcher decompresses is counted as decoded, past the limit or within it', async () => {
    const inflated = Buffer.alloc(8 * MiB, 0x20);
    inflated.write('{"id":"t1"', 0);
    inflated.write('}', inflated.length - 1);
    const bodies = { big: gzipSync(inflated), small: gzipSync('{"id":"t2"}') };
    const gw = await server((req, res) => {
      const body = req.url?.endsWith('t2') ? bodies.small : bodies.big;
      res
        .writeHead(200, {
          'content-type': 'application/json',
          'content-encoding': 'gzip',
          'content-length': body.length,
        })
        .end(body);
    });
    // undici's own interceptor drops content-length; one of the caller's may keep it, counting
    // the gzip bytes while the body grows a thousandfold.
    const keepsLength: Dispatcher.DispatcherComposeInterceptor = (dispatch) => (opts, handler) => {
      const chunks: Buffer[] = [];
      return dispatch(opts, {
        onRequestStart: (c, context) => handler.onRequestStart?.(c, context),
        onResponseStart: (c, status, headers, message) =>
          handler.onResponseStart?.(c, status, headers, message),
        onResponseData: (_c, chunk) => void chunks.push(chunk),
        onResponseEnd: (c, trailers) => {
          handler.onResponseData?.(c, gunzipSync(Buffer.concat(chunks)));
          handler.onResponseEnd?.(c, trailers);
        },
        onResponseError: (c, error) => handler.onResponseError?.(c, error),
      });
    };
    for (const interceptor of [interceptors.decompress(), keepsLength]) {
      const dispatcher = new Agent().compose(interceptor);
      const gateway = testClient({ apiKey: KEY, baseURL: gw.url, maxResponseBytes: 64 * 1024, dispatcher });
      try {
        const error = await rejection(gateway.videos.retrieve('t1'));
        expect(error).toBeInstanceOf(ResponseTooLargeError);
        expect(error.message).toMatch(/more than 65536 bytes/);
        expect((await gateway.videos.retrieve('t2')).id).toBe('t2');
      } finally {
        await dispatcher.close();
      }
    }
  });

  test('memory stays bounded for a streamed 256 MiB answer (peak RSS, in a child process)', async () => {
    const gw = await server((req, res) => {
      if (req.url?.endsWith('task_small')) {
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"id":"task_small"}');
      } else streamJSON(res, 256 * MiB);
    });
    const limit = 16 * MiB;
    const result = await runChild<{ error?: string; message?: string; rssBefore: number; peakRss: number }>(
      'oversize-json.ts',
      [gw.url, KEY, String(limit)],
      60_000,
    );
    expect(result.error, result.message).toBe('ResponseTooLargeError');
    const growth = result.peakRss - result.rssBefore;
    // The 16 MiB kept, the chunks passed through before V8 collects them, and slack: far below
    // the 256 MiB a buffering client holds (twice that with the decoded string).
    console.info(`oversize JSON: peak RSS grew by ${mib(growth)} MiB`);
    expect(growth, `peak RSS grew by ${mib(growth)} MiB`).toBeLessThan(128 * MiB);
  }, 90_000);
});
