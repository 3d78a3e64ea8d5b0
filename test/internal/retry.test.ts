// Covers: src/internal/retry.ts
import { Agent, type Dispatcher } from 'undici';
import { afterEach, describe, expect, test } from 'vitest';
import type { MediaGateway } from '../../src/client.js';
import {
  AmbiguousSubmissionError,
  APIConnectionError,
  APIConnectionTimeoutError,
  APIUserAbortError,
  InternalServerError,
} from '../../src/core/errors.js';
import type { RequestSpec } from '../../src/internal/request-spec.js';
import { NotSentError } from '../../src/internal/retry-policy.js';
import { testClient } from '../helpers/client.js';
import { drain, type RawServer, refusedPort, startRawServer } from '../helpers/raw-server.js';
import { rejection } from '../helpers/rejection.js';

const KEY = 'mgw_retry_key_abcdef123456';
const servers: RawServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(
  responses: Array<number | 'hang' | 'reset' | 'ok'>,
  headers: Record<string, string> = {},
) {
  const server = await startRawServer(async (req, res, index) => {
    await drain(req);
    const step = responses[Math.min(index, responses.length - 1)];
    if (step === 'hang') return;
    if (step === 'reset') {
      req.socket.destroy();
      return;
    }
    if (step === 'ok') {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      return;
    }
    res
      .writeHead(step ?? 500, { 'content-type': 'application/json', ...headers })
      .end('{"code":"x","message":"m","data":null}');
  });
  servers.push(server);
  return server;
}

const client = (baseURL: string, options: Partial<ConstructorParameters<typeof MediaGateway>[0]> = {}) =>
  testClient({ apiKey: KEY, baseURL, maxRetries: 2, ...options })._transport;

const get: RequestSpec = { method: 'GET', path: '/videos/t1', retry: 'safe', timeout: 2_000 };
const submit: RequestSpec = {
  method: 'POST',
  path: '/videos/generations',
  body: { model: 'm' },
  retry: 'billable',
  timeout: 2_000,
};
const create: RequestSpec = {
  method: 'POST',
  path: '/vidmodel2/private-avatar/groups',
  body: { name: 'g' },
  retry: 'create',
  timeout: 2_000,
};

describe('GET, PATCH, DELETE (safe)', () => {
  test.each([408, 429, 500, 502, 503])('retried on %i', async (status) => {
    const server = await serve([status, 'ok']);
    await expect(client(server.url).json(get)).resolves.toEqual({ ok: true });
    expect(server.received).toHaveLength(2);
  });

  test('retried on a reset connection', async () => {
    const server = await serve(['reset', 'ok']);
    await expect(client(server.url).json(get)).resolves.toEqual({ ok: true });
    expect(server.received).toHaveLength(2);
  });

  test('retried after a timeout', async () => {
    const server = await serve(['hang', 'ok']);
    await expect(client(server.url).json({ ...get, timeout: 200 })).resolves.toEqual({ ok: true });
    expect(server.received).toHaveLength(2);
  });

  test.each([400, 401, 403, 404, 409, 410, 413])('not retried on %i', async (status) => {
    const server = await serve([status, 'ok']);
    await expect(client(server.url).json(get)).rejects.toMatchObject({ status });
    expect(server.received).toHaveLength(1);
  });

  test('gives up after maxRetries retries', async () => {
    const server = await serve([500]);
    await expect(client(server.url).json(get)).rejects.toBeInstanceOf(InternalServerError);
    expect(server.received).toHaveLength(3);
  });

  test('maxRetries: 0 means exactly one attempt, on the client or per call', async () => {
    const server = await serve([503]);
    await expect(client(server.url, { maxRetries: 0 }).json(get)).rejects.toBeInstanceOf(InternalServerError);
    expect(server.received).toHaveLength(1);
    await expect(client(server.url).json({ ...get, options: { maxRetries: 0 } })).rejects.toBeInstanceOf(
      InternalServerError,
    );
    expect(server.received).toHaveLength(2);
  });

  test('a 429 with Retry-After: 1 is retried after at least a second', async () => {
    const server = await serve([429, 'ok'], { 'retry-after': '1' });
    await client(server.url).json(get);
    const [first, second] = server.received;
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(1000);
  });

  test('Retry-After as an HTTP date is honoured', async () => {
    const date = new Date(Date.now() + 2000).toUTCString();
    const server = await serve([503, 'ok'], { 'retry-after': date });
    await client(server.url).json(get);
    const [first, second] = server.received;
    // HTTP dates have whole-second precision, so the wait is at least ~1 s.
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(900);
  });

  test("the caller's signal ends a backoff sleep at once", async () => {
    const server = await serve([429, 'ok'], { 'retry-after': '30' });
    const controller = new AbortController();
    const pending = client(server.url).json({ ...get, options: { signal: controller.signal } });
    setTimeout(() => controller.abort(), 100);
    await expect(pending).rejects.toBeInstanceOf(APIUserAbortError);
    expect(server.received).toHaveLength(1);
  });

  test('an aborted signal sends nothing', async () => {
    const server = await serve(['ok']);
    await expect(
      client(server.url).json({ ...get, options: { signal: AbortSignal.abort() } }),
    ).rejects.toBeInstanceOf(APIUserAbortError);
    expect(server.received).toHaveLength(0);
  });
});

describe('billable submissions', () => {
  test('a timeout after sending is received exactly once and is ambiguous', async () => {
    const server = await serve(['hang', 'ok']);
    const error = await rejection(client(server.url).json({ ...submit, timeout: 300 }));
    expect(error).toBeInstanceOf(AmbiguousSubmissionError);
    expect(error.message).toMatch(/before submitting again/);
    expect(server.received).toHaveLength(1);
  });

  test('a reset after sending is received once and is ambiguous', async () => {
    const server = await serve(['reset', 'ok']);
    await expect(client(server.url).json(submit)).rejects.toBeInstanceOf(AmbiguousSubmissionError);
    expect(server.received).toHaveLength(1);
  });

  test('a 200 whose body cannot be read is ambiguous (the task may exist)', async () => {
    const server = await startRawServer(async (req, res) => {
      await drain(req);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"code":200,"data":[{"task_');
    });
    servers.push(server);
    await expect(client(server.url).json(submit)).rejects.toBeInstanceOf(AmbiguousSubmissionError);
    expect(server.received).toHaveLength(1);
  });

  test.each([500, 502, 503, 408])('not retried on %i', async (status) => {
    const server = await serve([status, 'ok']);
    await expect(client(server.url).json(submit)).rejects.toMatchObject({ status });
    expect(server.received).toHaveLength(1);
  });

  test('retried on 429, which proves the gateway did not take it', async () => {
    const server = await serve([429, 'ok'], { 'retry-after': '0' });
    await expect(client(server.url).json(submit)).resolves.toEqual({ ok: true });
    expect(server.received).toHaveLength(2);
  });

  test('retried when the connection is refused before any byte is sent', async () => {
    const port = await refusedPort();
    const warnings: string[] = [];
    const transport = client(`http://127.0.0.1:${port}`, { logger: { warn: (m) => warnings.push(m) } });
    const error = await rejection(transport.json(submit));
    expect(error).toBeInstanceOf(NotSentError);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(error).not.toBeInstanceOf(AmbiguousSubmissionError);
    expect(warnings).toHaveLength(2);
  });

  test('aborting after sending is ambiguous too', async () => {
    const server = await serve(['hang']);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const error = await rejection(
      client(server.url).json({ ...submit, options: { signal: controller.signal } }),
    );
    expect(error).toBeInstanceOf(AmbiguousSubmissionError);
    expect(error.cause).toBeInstanceOf(APIUserAbortError);
  });
});

describe('state-creating management calls', () => {
  test('a timeout is a plain timeout error, received once', async () => {
    const server = await serve(['hang', 'ok']);
    await expect(client(server.url).json({ ...create, timeout: 200 })).rejects.toBeInstanceOf(
      APIConnectionTimeoutError,
    );
    expect(server.received).toHaveLength(1);
  });
  test('retried on 429 only', async () => {
    const limited = await serve([429, 'ok'], { 'retry-after': '0' });
    await expect(client(limited.url).json(create)).resolves.toEqual({ ok: true });
    const failing = await serve([500, 'ok']);
    await expect(client(failing.url).json(create)).rejects.toBeInstanceOf(InternalServerError);
    expect(failing.received).toHaveLength(1);
  });
});

describe('timeouts reach undici', () => {
  class RecordingAgent extends Agent {
    seen: Array<Dispatcher.DispatchOptions> = [];
    override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
      this.seen.push(options);
      return super.dispatch(options, handler);
    }
  }

  test('headersTimeout and bodyTimeout follow the operation timeout (600 s edits outlive undici 300 s defaults)', async () => {
    const server = await serve(['ok']);
    const agent = new RecordingAgent();
    await client(server.url, { dispatcher: agent }).json({ ...get, timeout: 600_000 });
    expect(agent.seen[0]).toMatchObject({ headersTimeout: 600_000, bodyTimeout: 600_000 });
    await client(server.url, { dispatcher: agent, timeout: 1234 }).json({ ...get, timeout: 600_000 });
    expect(agent.seen[1]).toMatchObject({ headersTimeout: 1234 });
    await client(server.url, { dispatcher: agent }).json({ ...get, options: { timeout: 4321 } });
    expect(agent.seen[2]).toMatchObject({ headersTimeout: 4321 });
    await agent.close();
  });
});
