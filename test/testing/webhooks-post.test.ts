// Covers: src/testing/state/webhooks/http.ts
/**
 * The one sender of signed deliveries (the mock's deliveries and challenges, `mediagw webhooks
 * send`): the gateway's limits, read to the end, memory bounded. spec: Events 5 and 7.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, test } from 'vitest';
import { postWebhookDelivery } from '../../src/testing/index.js';

/** A loopback receiver answering each request with `answer`, closed by `use`'s end. */
async function withReceiver(
  answer: (req: IncomingMessage, res: ServerResponse) => void,
  use: (url: string) => Promise<void>,
) {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => answer(req, res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    await use(`http://127.0.0.1:${(server.address() as AddressInfo).port}/in`);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

const LIMITS = { timeoutMs: 2_000, headersTimeoutMs: 1_000, userAgent: 'test' };

describe('postWebhookDelivery', () => {
  test('a large body that ends in time: read whole, the first 64 KiB kept, no error', async () => {
    const body = Buffer.alloc(200 * 1024, 0x62);
    await withReceiver(
      (req, res) => res.writeHead(200, { 'X-Seen': req.headers['user-agent'] ?? '' }).end(body),
      async (url) => {
        const outcome = await postWebhookDelivery(url, '{}', { 'X-Service-Event-ID': 'evt_1' }, LIMITS);
        expect(outcome).toMatchObject({ statusCode: 200, error: undefined, answerBytes: body.length });
        expect(outcome.text).toHaveLength(64 * 1024);
        expect(outcome.headers['x-seen']).toBe('test');
        expect(outcome.headersMs).toBeGreaterThanOrEqual(0);
      },
    );
  });

  test('keptBytes bounds what is kept', async () => {
    await withReceiver(
      (_req, res) => res.end('x'.repeat(5000)),
      async (url) => {
        const outcome = await postWebhookDelivery(url, '{}', {}, { ...LIMITS, keptBytes: 10 });
        expect(outcome).toMatchObject({
          statusCode: 200,
          text: 'x'.repeat(10),
          answerBytes: 5000,
          error: undefined,
        });
      },
    );
  });

  test('headers later than headersTimeoutMs: no status, and the error says which limit', async () => {
    await withReceiver(
      (_req, res) => void setTimeout(() => res.end('late'), 1_500),
      async (url) => {
        const outcome = await postWebhookDelivery(url, '{}', {}, { ...LIMITS, headersTimeoutMs: 200 });
        expect(outcome).toMatchObject({ statusCode: undefined, error: 'no response headers within 200 ms' });
      },
    );
  });

  test('no answer at all within timeoutMs: no status, in whole seconds when the limit is', async () => {
    await withReceiver(
      () => undefined,
      async (url) => {
        const outcome = await postWebhookDelivery(
          url,
          '{}',
          {},
          { ...LIMITS, timeoutMs: 1_000, headersTimeoutMs: 5_000 },
        );
        expect(outcome).toMatchObject({ statusCode: undefined, error: 'no answer within 1 s' });
        expect(outcome.ms).toBeGreaterThanOrEqual(990);
      },
    );
  });

  test('stopped by its signal: the caller’s words, else "the request was stopped"', async () => {
    await withReceiver(
      () => undefined,
      async (url) => {
        const stop = new AbortController();
        const pending = postWebhookDelivery(
          url,
          '{}',
          {},
          { ...LIMITS, signal: stop.signal, stopped: 'the gateway closed' },
        );
        setTimeout(() => stop.abort(), 50);
        expect((await pending).error).toBe('the gateway closed');
        const plain = new AbortController();
        plain.abort();
        expect((await postWebhookDelivery(url, '{}', {}, { ...LIMITS, signal: plain.signal })).error).toBe(
          'the request was stopped',
        );
      },
    );
  });

  test('a redirect is returned as it is, not followed', async () => {
    await withReceiver(
      (_req, res) => res.writeHead(307, { location: 'http://127.0.0.1:9/elsewhere' }).end(),
      async (url) => {
        const outcome = await postWebhookDelivery(url, '{}', {}, LIMITS);
        expect(outcome).toMatchObject({ statusCode: 307, error: undefined });
        expect(outcome.headers.location).toBe('http://127.0.0.1:9/elsewhere');
      },
    );
  });

  test('a refused connection: the system code, once', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const outcome = await postWebhookDelivery(`http://127.0.0.1:${port}/`, '{}', {}, LIMITS);
    expect(outcome.statusCode).toBeUndefined();
    expect(outcome.error).toMatch(/ECONNREFUSED/);
    expect(outcome.error?.match(/ECONNREFUSED/g)).toHaveLength(1);
  });
});
