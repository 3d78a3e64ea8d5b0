// Covers: src/webhooks/handler-node.ts
import { createServer, type IncomingMessage, request, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import express from 'express';
import { afterAll, describe, expect, test, vi } from 'vitest';
import {
  createNodeWebhookHandler,
  type NodeWebhookRequest,
  type NodeWebhookResponse,
  signWebhook,
  type WebhookEvent,
  type WebhookHandlerOptions,
  WebhookVerificationError,
} from '../../src/webhooks/index.js';
import { completedEvent, KEY_ID, NOW, SECRET, SECRETS } from './fixtures.js';

const servers: Server[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
});

type Listener = (req: IncomingMessage & { body?: unknown }, res: ServerResponse) => void;

async function serve(listener: Listener): Promise<string> {
  const server = createServer(listener);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
}

function setup(over: Partial<WebhookHandlerOptions> & { bodyTimeoutMs?: number } = {}) {
  const onEvent = vi.fn(async (_event: WebhookEvent) => {});
  const handler = createNodeWebhookHandler({
    secrets: SECRETS,
    onEvent,
    clock: () => NOW,
    onError: () => {},
    ...over,
  });
  return { handler, onEvent };
}

/** A body-parser stand-in: reads the stream, then sets `req.body` to what `parse` makes of it. */
function withBody(handler: ReturnType<typeof setup>['handler'], parse: (raw: Buffer) => unknown): Listener {
  return (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      req.body = parse(Buffer.concat(chunks));
      handler(req, res);
    });
  };
}

function post(url: string, event: unknown, over: { secret?: string; body?: string } = {}) {
  const body = over.body ?? JSON.stringify(event);
  const headers = signWebhook({ body, secret: over.secret ?? SECRET, keyId: KEY_ID, timestamp: NOW });
  return fetch(url, { method: 'POST', body, headers: { ...headers, 'content-type': 'application/json' } });
}

const verification = {
  id: 'evt_v',
  type: 'webhook.endpoint_verification',
  api_version: '2026-10-03',
  created_at: NOW,
  data: { challenge: 'ch_node' },
};

describe('createNodeWebhookHandler on a real node:http server, reading the raw stream', () => {
  test('answers a signed challenge, refuses an unsigned one', async () => {
    const { handler, onEvent } = setup();
    const url = await serve(handler);
    const ok = await post(url, verification);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ challenge: 'ch_node' });
    const unsigned = await fetch(url, { method: 'POST', body: JSON.stringify(verification) });
    expect(unsigned.status).toBe(400);
    expect(await unsigned.text()).not.toContain('ch_node');
    expect(onEvent).not.toHaveBeenCalled();
  });

  test('calls onEvent once per event ID; a duplicate gets 200; a bad signature 400', async () => {
    const reasons: string[] = [];
    const { handler, onEvent } = setup({
      onError: (error) => reasons.push((error as WebhookVerificationError).reason),
    });
    const url = await serve(handler);
    expect((await post(url, completedEvent())).status).toBe(200);
    const dup = await post(url, completedEvent());
    expect(dup.status).toBe(200);
    expect(await dup.json()).toEqual({ received: true, duplicate: true });
    expect(onEvent).toHaveBeenCalledTimes(1);
    expect(onEvent.mock.calls[0]![0]).toEqual(completedEvent());
    const bad = await post(url, completedEvent({ id: 'evt_2' }), { secret: 'wrong' });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.reason).toBeUndefined();
    expect(reasons).toEqual(['signature_mismatch']);
    expect(onEvent).toHaveBeenCalledTimes(1);
  });

  test('onEvent throwing gives 500 and the retry of the event is processed', async () => {
    let calls = 0;
    const { handler } = setup({
      onEvent: () => {
        if (++calls === 1) throw new Error('disk full');
      },
    });
    const url = await serve(handler);
    expect((await post(url, completedEvent())).status).toBe(500);
    expect((await post(url, completedEvent())).status).toBe(200);
    expect(calls).toBe(2);
  });

  test('a body over the limit is answered 413, with Content-Length or chunked', async () => {
    const { handler, onEvent } = setup({ maxBodyBytes: 64 });
    const url = await serve(handler);
    const res = await post(url, completedEvent());
    expect(res.status).toBe(413);
    expect((await res.json()).error.type).toBe('body_too_large');

    const chunked = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(url, { method: 'POST' }, (r) => {
        let body = '';
        r.on('data', (c) => (body += c));
        r.on('end', () => resolve({ status: r.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      for (let i = 0; i < 20; i++) req.write('x'.repeat(16));
      req.end();
    });
    expect(chunked.status).toBe(413);
    expect(onEvent).not.toHaveBeenCalled();
  });

  test('a method other than POST is answered 405', async () => {
    const { handler } = setup();
    const res = await fetch(await serve(handler));
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
  });
});

describe('createNodeWebhookHandler behind a body parser (req.body)', () => {
  test('uses a Buffer from express.raw() as the raw body', async () => {
    const { handler, onEvent } = setup();
    const url = await serve(withBody(handler, (raw) => raw));
    expect((await post(url, completedEvent())).status).toBe(200);
    expect(onEvent).toHaveBeenCalledTimes(1);
  });

  test('uses a string from a text parser as the raw body', async () => {
    const { handler, onEvent } = setup();
    const url = await serve(withBody(handler, (raw) => raw.toString('utf8')));
    expect((await post(url, completedEvent())).status).toBe(200);
    expect(onEvent).toHaveBeenCalledTimes(1);
  });

  test('applies the size limit to req.body too', async () => {
    const { handler } = setup({ maxBodyBytes: 64 });
    const url = await serve(withBody(handler, (raw) => raw));
    expect((await post(url, completedEvent())).status).toBe(413);
  });

  test('answers a body parsed into an object with 400 explaining express.raw', async () => {
    const { handler, onEvent } = setup();
    const url = await serve(withBody(handler, (raw) => JSON.parse(raw.toString())));
    const res = await post(url, completedEvent());
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.error.reason).toBe('invalid_body');
    expect(body.error.message).toContain("express.raw({ type: 'application/json' })");
    expect(onEvent).not.toHaveBeenCalled();
  });

  test('reads the stream when req.body is an empty object set without reading it (Express 4)', async () => {
    const { handler, onEvent } = setup();
    const url = await serve((req, res) => {
      req.body = {};
      handler(req, res);
    });
    expect((await post(url, completedEvent())).status).toBe(200);
    expect(onEvent).toHaveBeenCalledTimes(1);
  });
});

describe('createNodeWebhookHandler with an internal failure', () => {
  function fakes() {
    const req: NodeWebhookRequest = {
      method: 'POST',
      headers: {},
      // biome-ignore lint/correctness/useYield: a stream that fails before its first chunk
      async *[Symbol.asyncIterator]() {
        throw new Error('socket reset');
      },
    };
    const sent: { status?: number; body?: string | undefined } = {};
    const res: NodeWebhookResponse = {
      statusCode: 0,
      setHeader: () => {},
      end(body) {
        sent.status = this.statusCode;
        sent.body = body;
      },
    };
    return { req, res, sent };
  }

  test('passes the error to next when given', async () => {
    const { handler } = setup();
    const { req, res, sent } = fakes();
    const error = await new Promise((resolve) => handler(req, res, resolve));
    expect((error as Error).message).toBe('socket reset');
    expect(sent.status).toBeUndefined();
  });

  test('answers 500 without next', async () => {
    const { handler } = setup();
    const { req, res, sent } = fakes();
    handler(req, res);
    for (let i = 0; i < 20 && sent.status === undefined; i++) await new Promise((r) => setTimeout(r, 5));
    expect(sent.status).toBe(500);
  });
});

/**
 * Sends a signed delivery's headers and then its body one byte every `everyMs`, as a slow peer
 * does, over a raw socket; resolves with the answer's status line and body once it comes.
 * Stops by itself: after the body (at most 2,000 bytes), or once the answer came
 * (`closeOnAnswer`; else once the server closes the connection).
 */
function drip(
  url: string,
  everyMs: number,
  closeOnAnswer = true,
): Promise<{ head: string; body: string; sent: number }> {
  const { port } = new URL(url);
  const body = JSON.stringify(completedEvent());
  const headers = signWebhook({ body, secret: SECRET, keyId: KEY_ID, timestamp: NOW });
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1');
    let answer = '';
    let sent = 0;
    let timer: ReturnType<typeof setInterval> | undefined;
    socket.on('connect', () => {
      const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
      socket.write(
        `POST /webhooks HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n${lines.join('')}\r\n`,
      );
      timer = setInterval(() => {
        if (sent >= Math.min(body.length, 2_000) || socket.destroyed) return clearInterval(timer);
        socket.write(body[sent++]!);
      }, everyMs);
    });
    socket.on('data', (chunk) => {
      answer += chunk;
      const [head, rest] = answer.split('\r\n\r\n');
      const length = /content-length: (\d+)/i.exec(head ?? '')?.[1];
      if (
        closeOnAnswer &&
        rest !== undefined &&
        length !== undefined &&
        Buffer.byteLength(rest) >= Number(length)
      )
        socket.destroy();
    });
    socket.on('error', reject);
    socket.on('close', () => {
      clearInterval(timer);
      const [head = '', rest = ''] = answer.split('\r\n\r\n');
      resolve({ head, body: rest, sent });
    });
  });
}

describe('createNodeWebhookHandler and a body that drips', () => {
  test('a body not received within bodyTimeoutMs is answered 408, the connection closed, and onError told', async () => {
    const errors: unknown[] = [];
    const { handler, onEvent } = setup({ bodyTimeoutMs: 300, onError: (e) => errors.push(e) });
    const url = await serve(handler);
    const answer = await drip(url, 50, false);
    expect(answer.head).toMatch(/^HTTP\/1\.1 408 /);
    expect(answer.head.toLowerCase()).toContain('connection: close');
    expect(JSON.parse(answer.body)).toEqual({
      error: { type: 'body_timeout', message: 'body not received in 300 ms' },
    });
    // The peer was cut off before its body ended: the connection closed after the answer.
    expect(answer.sent).toBeLessThan(JSON.stringify(completedEvent()).length);
    expect(onEvent).not.toHaveBeenCalled();
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(WebhookVerificationError);
    expect((errors[0] as WebhookVerificationError).reason).toBe('body_timeout');
  });

  test('a body that arrives in time, however it is cut, is processed', async () => {
    const { handler, onEvent } = setup({ bodyTimeoutMs: 60_000 });
    const url = await serve(handler);
    const answer = await Promise.race([
      drip(url, 1),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no answer')), 30_000)),
    ]).catch((error: unknown) => ({ head: String(error), body: '', sent: 0 }));
    expect(answer.head).toMatch(/^HTTP\/1\.1 200 /);
    expect(onEvent).toHaveBeenCalledTimes(1);
  });

  test('by default the handler waits 10 s for a body, not longer', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const { handler } = setup();
      const sent: { status?: number; body?: string | undefined } = {};
      const req: NodeWebhookRequest = {
        method: 'POST',
        headers: {},
        // A stream whose body never comes.
        async *[Symbol.asyncIterator]() {
          yield new Uint8Array(1);
          await new Promise(() => {});
        },
      };
      const res: NodeWebhookResponse = {
        statusCode: 0,
        setHeader: () => {},
        end(body) {
          sent.status = this.statusCode;
          sent.body = body;
        },
      };
      handler(req, res);
      await vi.advanceTimersByTimeAsync(9_999);
      expect(sent.status).toBeUndefined();
      await vi.advanceTimersByTimeAsync(1);
      expect(sent.status).toBe(408);
      expect(JSON.parse(sent.body!).error.message).toBe('body not received in 10000 ms');
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('every refusal reaches onError, with its reason', () => {
  async function expressApp(handler: ReturnType<typeof setup>['handler'], json: boolean) {
    const app = express();
    if (json) app.use(express.json());
    app.all('/webhooks', handler);
    const server = app.listen(0, '127.0.0.1');
    servers.push(server);
    await new Promise<void>((resolve) => server.once('listening', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
  }

  test('express.json() before the route: 400 explaining express.raw, and onError is told (invalid_body)', async () => {
    const errors: unknown[] = [];
    const { handler, onEvent } = setup({ onError: (e) => errors.push(e) });
    const url = await expressApp(handler, true);
    const res = await post(url, completedEvent());
    expect(res.status).toBe(400);
    expect((await res.json()).error.message).toContain('express.raw(');
    expect(onEvent).not.toHaveBeenCalled();
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(WebhookVerificationError);
    expect((errors[0] as WebhookVerificationError).reason).toBe('invalid_body');
    // The order is named: express.raw on the route does not help behind app.use(express.json()).
    expect((errors[0] as Error).message).toContain(
      "req.body is parsed: mount express.raw({ type: 'application/json' }) before any express.json()",
    );
  });

  test('in Express, a method other than POST (405) and a body over maxBodyBytes (413) are told too', async () => {
    const errors: WebhookVerificationError[] = [];
    const { handler } = setup({
      maxBodyBytes: 64,
      onError: (e) => errors.push(e as WebhookVerificationError),
    });
    const url = await expressApp(handler, false);
    expect((await fetch(url)).status).toBe(405);
    expect((await post(url, completedEvent())).status).toBe(413);
    expect(errors.map((e) => e.reason)).toEqual(['method_not_allowed', 'body_too_large']);
    expect(errors.every((e) => e instanceof WebhookVerificationError)).toBe(true);
  });

  test('without onError, a refused delivery is not logged; an internal failure without next is', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const handler = createNodeWebhookHandler({ secrets: SECRETS, onEvent: () => {} });
      const url = await expressApp(handler, true);
      expect((await post(url, completedEvent())).status).toBe(400);
      expect(logged).not.toHaveBeenCalled();
      const sent: { status?: number } = {};
      handler(
        {
          method: 'POST',
          headers: {},
          // biome-ignore lint/correctness/useYield: a stream that fails before its first chunk
          async *[Symbol.asyncIterator]() {
            throw new Error('socket reset');
          },
        },
        {
          statusCode: 0,
          setHeader: () => {},
          end() {
            sent.status = this.statusCode;
          },
        },
      );
      for (let i = 0; i < 20 && sent.status === undefined; i++) await new Promise((r) => setTimeout(r, 5));
      expect(sent.status).toBe(500);
      expect(logged).toHaveBeenCalledWith(
        'mediagw/webhooks:',
        expect.objectContaining({ message: 'socket reset' }),
      );
    } finally {
      logged.mockRestore();
    }
  });
});
