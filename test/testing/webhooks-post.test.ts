// Covers: src/testing/state/webhooks/http.ts
/**
 * The one sender of signed deliveries (the mock's deliveries and challenges, `mediagw webhooks
 * send`): the gateway's limits, read to the end, memory bounded. spec: Events 5 and 7.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, test } from 'vitest';
import { InvalidOptionError } from '../../src/index.js';
import {
  deliveryVerdict,
  postWebhookDelivery,
  verificationVerdict,
  webhookDeliveryBody,
} from '../../src/testing/index.js';
import { rejection } from '../helpers/rejection.js';

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

  test('its outcome is what the verdicts read: status, Retry-After and Date as answered', async () => {
    const date = 'Fri, 27 Nov 2026 10:00:00 GMT';
    await withReceiver(
      (_req, res) => res.writeHead(503, { 'retry-after': 'Fri, 27 Nov 2026 10:00:45 GMT', date }).end(),
      async (url) => {
        const outcome = await postWebhookDelivery(url, '{}', {}, LIMITS);
        expect(outcome).toMatchObject({
          statusCode: 503,
          status: 503,
          date,
          retryAfter: 'Fri, 27 Nov 2026 10:00:45 GMT',
        });
        expect(deliveryVerdict(outcome)).toMatchObject({ retried: true, retryAfterMs: 45_000 });
        expect(verificationVerdict(outcome, 'chl_1')).toEqual({
          verified: false,
          reason: 'the receiver answered 503, not 200',
        });
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

  test("the gateway's limits by default: 10 s, 8 s for headers, 64 KiB kept", async () => {
    await withReceiver(
      (req, res) => res.end(JSON.stringify({ ua: req.headers['user-agent'] })),
      async (url) => {
        const outcome = await postWebhookDelivery(url, '{}', {});
        expect(outcome).toMatchObject({ statusCode: 200, error: undefined, text: '{"ua":"mediagw"}' });
      },
    );
  });

  // Both sides of each rule: the values taken are sent (to a closed port, so the outcome is an
  // error, not a throw); the values refused throw before anything is sent.
  test.each<[string, Parameters<typeof postWebhookDelivery>]>([
    ['url', ['ftp://127.0.0.1/in', '{}', {}]],
    ['url', ['not a url', '{}', {}]],
    ['body', ['http://127.0.0.1:9/', { id: 'evt_1' } as never, {}]],
    ['headers', ['http://127.0.0.1:9/', '{}', null as never]],
    ['timeoutMs', ['http://127.0.0.1:9/', '{}', {}, { timeoutMs: 0 }]],
    ['timeoutMs', ['http://127.0.0.1:9/', '{}', {}, { timeoutMs: Number.NaN }]],
    ['timeoutMs', ['http://127.0.0.1:9/', '{}', {}, { timeoutMs: 2_147_483_648 }]],
    ['headersTimeoutMs', ['http://127.0.0.1:9/', '{}', {}, { headersTimeoutMs: 1.5 }]],
    ['keptBytes', ['http://127.0.0.1:9/', '{}', {}, { keptBytes: -1 }]],
    ['keptBytes', ['http://127.0.0.1:9/', '{}', {}, { keptBytes: 65_537 }]],
    ['signal', ['http://127.0.0.1:9/', '{}', {}, { signal: {} as never }]],
    ['dispatcher', ['http://127.0.0.1:9/', '{}', {}, { dispatcher: {} as never }]],
    ['userAgent', ['http://127.0.0.1:9/', '{}', {}, { userAgent: 7 as never }]],
    ['stopped', ['http://127.0.0.1:9/', '{}', {}, { stopped: false as never }]],
  ])('refuses a bad %s before sending', async (option, args) => {
    const error = await rejection(postWebhookDelivery(...args));
    expect(error).toBeInstanceOf(InvalidOptionError);
    expect((error as unknown as InvalidOptionError).option).toBe(option);
  });

  test.each<[string, NonNullable<Parameters<typeof postWebhookDelivery>[3]>]>([
    ['the smallest limits', { timeoutMs: 1, headersTimeoutMs: 1, keptBytes: 0 }],
    ['the largest limits', { timeoutMs: 2_147_483_647, headersTimeoutMs: 2_147_483_647, keptBytes: 65_536 }],
  ])('takes %s', async (_, limits) => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const outcome = await postWebhookDelivery(new URL(`http://127.0.0.1:${port}/`), '{}', {}, limits);
    expect(outcome.statusCode).toBeUndefined();
    expect(outcome.error).toEqual(expect.any(String));
  });
});

describe('webhookDeliveryBody', () => {
  test('is the JSON JSON.stringify gives, read the same, with a space after each : and ,', () => {
    const payload = {
      id: 'evt_1',
      data: { text: 'a, b: "c" é\u2028', list: [1, null, [], {}, 'x'], skipped: undefined, at: new Date(0) },
    };
    const body = webhookDeliveryBody(payload);
    expect(JSON.parse(body)).toEqual(JSON.parse(JSON.stringify(payload)));
    expect(body).toBe(
      '{"id": "evt_1", "data": {"text": "a, b: \\"c\\" é\u2028", "list": [1, null, [], {}, "x"], "at": "1970-01-01T00:00:00.000Z"}}',
    );
    expect(body).not.toBe(JSON.stringify(payload));
  });
});
