// Covers: a call's deadline across retries, through the whole client
import type { ServerResponse } from 'node:http';
import { createServer, type Server, type Socket } from 'node:net';
import { text } from 'node:stream/consumers';
import { setTimeout as delay } from 'node:timers/promises';
import { afterEach, describe, expect, test } from 'vitest';
import { AmbiguousSubmissionError, APIConnectionTimeoutError } from '../../src/core/errors.js';
import type { RequestSpec } from '../../src/internal/request-spec.js';
import { testClient } from '../helpers/client.js';
import { drain, type RawServer, startRawServer } from '../helpers/raw-server.js';
import { rejection } from '../helpers/rejection.js';

// Every case ends within its timeout plus this much: the machine is shared and noisy.
const SLACK_MS = 2_000;
const KEY = 'mgw_deadline_key_0000111122223333';

const servers: RawServer[] = [];
const stops: Array<() => void> = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) stop();
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/**
 * Writes one byte of `body` every `everyMs` after the headers, for at most `count` bytes (then
 * ends): an answer that keeps a per-chunk timer alive for `count * everyMs`.
 */
function drip(res: ServerResponse, everyMs: number, count = 100, body = ' '): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.flushHeaders();
  let sent = 0;
  const timer = setInterval(() => {
    if (sent >= count || res.destroyed) {
      clearInterval(timer);
      if (!res.destroyed) res.end('{}');
      return;
    }
    res.write(body);
    sent++;
  }, everyMs);
  stops.push(() => clearInterval(timer));
}

async function server(handle: Parameters<typeof startRawServer>[0]): Promise<RawServer> {
  const s = await startRawServer(handle);
  servers.push(s);
  return s;
}

const client = (baseURL: string, maxRetries = 0) => testClient({ apiKey: KEY, baseURL, maxRetries });
const query: RequestSpec = { method: 'GET', path: '/videos/t1', retry: 'safe', timeout: 60_000 };
const submission: RequestSpec = {
  method: 'POST',
  path: '/videos/generations',
  body: { model: 'vidmodel-2.0-mini', prompt: 'a red kite' },
  retry: 'billable',
  timeout: 60_000,
};

/** Runs `call` and returns what it rejected with and how long it took, in ms. */
async function timed(call: () => Promise<unknown>) {
  const started = performance.now();
  const error = await rejection(call());
  return { error, elapsed: performance.now() - started };
}

describe('timeout is a total deadline per attempt', () => {
  test('a JSON answer that drips a byte every 200 ms ends at a 1,000 ms timeout', async () => {
    const gw = await server((_req, res) => drip(res, 200)); // 20 s of body if let run
    const { error, elapsed } = await timed(() =>
      client(gw.url)._transport.json({ ...query, options: { timeout: 1_000 } }),
    );
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expect(error.message).toMatch(/GET \/v1\/videos\/t1: .*1000 ms/);
    expect(elapsed).toBeGreaterThanOrEqual(995);
    expect(elapsed).toBeLessThan(1_000 + SLACK_MS);
  });

  test('a sub-second timeout is honoured to the millisecond, not rounded up to undici’s second', async () => {
    const gw = await server((_req, res) => drip(res, 100)); // 10 s of body if let run
    const { error, elapsed } = await timed(() =>
      client(gw.url)._transport.json({ ...query, options: { timeout: 300 } }),
    );
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expect(elapsed).toBeGreaterThanOrEqual(295);
    expect(elapsed).toBeLessThan(3_000);
  });

  test('the client’s timeout is a total too, and each retry gets it afresh', async () => {
    const gw = await server((_req, res) => drip(res, 100));
    const gateway = testClient({ apiKey: KEY, baseURL: gw.url, maxRetries: 1, timeout: 400 });
    const { error, elapsed } = await timed(() => gateway._transport.json(query));
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expect(gw.received).toHaveLength(2);
    // Two attempts of 400 ms and one backoff of at most 500 ms.
    expect(elapsed).toBeGreaterThanOrEqual(790);
    expect(elapsed).toBeLessThan(1_300 + SLACK_MS);
  });

  test('a billable submission whose answer drips is ambiguous at its deadline, and sent once', async () => {
    const gw = await server(async (req, res) => {
      await drain(req);
      drip(res, 200);
    });
    const { error, elapsed } = await timed(() =>
      client(gw.url, 2)._transport.json({ ...submission, options: { timeout: 1_000 } }),
    );
    expect(error).toBeInstanceOf(AmbiguousSubmissionError);
    expect(error.cause).toBeInstanceOf(APIConnectionTimeoutError);
    expect(gw.received).toHaveLength(1);
    expect(elapsed).toBeGreaterThanOrEqual(995);
    expect(elapsed).toBeLessThan(1_000 + SLACK_MS);
  });

  test('a streamed upload that cannot be sent in time ends at its deadline', async () => {
    const gw = await server(() => undefined); // never reads, never answers
    let yielded = 0;
    async function* slowBody(): AsyncGenerator<Uint8Array> {
      for (let i = 0; i < 100; i++) {
        await delay(100);
        yielded++;
        yield new Uint8Array(1024);
      }
    }
    const { error, elapsed } = await timed(() =>
      client(gw.url)._transport.json({
        method: 'POST',
        path: '/uploads/images',
        stream: async () => ({ body: slowBody(), headers: { 'content-type': 'application/octet-stream' } }),
        retry: 'create',
        timeout: 60_000,
        options: { timeout: 700 },
      }),
    );
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expect(elapsed).toBeGreaterThanOrEqual(695);
    expect(elapsed).toBeLessThan(700 + SLACK_MS);
    const atEnd = yielded;
    await delay(400);
    expect(yielded - atEnd).toBeLessThanOrEqual(1); // the body is no longer read
  });
});

describe('downloads: the deadline covers the headers, the body has its own idle timeout', () => {
  test('headers that arrive a line at a time end at the deadline', async () => {
    const sockets = new Set<Socket>();
    const raw: Server = createServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.write('HTTP/1.1 200 OK\r\n');
      let lines = 0;
      const timer = setInterval(() => {
        if (lines >= 100 || socket.destroyed) return clearInterval(timer);
        socket.write(`x-line-${lines++}: 1\r\n`);
      }, 100);
      stops.push(() => clearInterval(timer));
    });
    await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
    stops.push(() => {
      for (const socket of sockets) socket.destroy();
      raw.close();
    });
    const { port } = raw.address() as { port: number };
    const { error, elapsed } = await timed(() =>
      client(`http://127.0.0.1:${port}`)._transport.stream({
        ...query,
        path: '/videos/t1/content',
        options: { timeout: 800 },
      }),
    );
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expect(elapsed).toBeGreaterThanOrEqual(795);
    expect(elapsed).toBeLessThan(800 + SLACK_MS);
  });

  test('the deadline spans every redirect hop', async () => {
    // Five hops of 300 ms each: each is quick, together they pass an 800 ms deadline.
    const gw = await server((req, res, index) => {
      const timer = setTimeout(() => {
        if (index < 5) res.writeHead(302, { location: `/v1/hop/${index}` }).end();
        else res.writeHead(200, { 'content-type': 'video/mp4' }).end('MP4!');
      }, 300);
      stops.push(() => clearTimeout(timer));
      req.resume();
    });
    const { error, elapsed } = await timed(() =>
      client(gw.url)._transport.stream({ ...query, path: '/videos/t1/content', options: { timeout: 800 } }),
    );
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expect(gw.received.length).toBeLessThan(5);
    expect(elapsed).toBeLessThan(800 + SLACK_MS);
  });

  test('a body that streams past the timeout is not cut while its chunks keep coming', async () => {
    const gw = await server((_req, res) => {
      res.writeHead(200, { 'content-type': 'video/mp4' });
      let sent = 0;
      const timer = setInterval(() => {
        if (sent++ < 12) res.write('x');
        else {
          clearInterval(timer);
          res.end();
        }
      }, 100);
      stops.push(() => clearInterval(timer));
    });
    // 1.2 s of body under a 600 ms timeout: the body's limit is the pause between chunks.
    const response = await client(gw.url)._transport.stream({
      ...query,
      path: '/videos/t1/content',
      options: { timeout: 600 },
    });
    expect(await text(response.body)).toBe('x'.repeat(12));
  });
});
