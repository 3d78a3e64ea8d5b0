// Covers: webhook receivers against hostile deliveries
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import fc from 'fast-check';
import { afterAll, afterEach, describe, expect, test, vi } from 'vitest';
import {
  createNodeWebhookHandler,
  createWebhookHandler,
  type NodeWebhookRequest,
  type NodeWebhookResponse,
  signWebhook,
  verifyWebhook,
  verifyWebhookAsync,
} from '../../src/webhooks/index.js';
import { anyDelivery, type Delivery, headersOf, mustAccept, NOW, SECRETS } from './arbitraries/deliveries.js';
import { PROPERTY_RUNS, PROPERTY_SEED } from './property-settings.js';

// The module object the SDK loads (`process.getBuiltinModule`), so a spy on it sees the SDK's calls.
const nodeCrypto = process.getBuiltinModule('node:crypto');
const KEY_ID = 'kid_current';
const SECRET = SECRETS.kid_current;
const LIMIT = 4_096;

const options = (onEvent = vi.fn(async () => {})) => ({
  secrets: SECRETS,
  onEvent,
  clock: () => NOW,
  maxBodyBytes: LIMIT,
  onError: () => {},
});

/** A Fetch request of a delivery. */
function fetchRequest(delivery: Delivery): Request {
  const headers = new Headers();
  const given = headersOf(delivery);
  if (given instanceof Headers) {
    given.forEach((value, name) => {
      headers.set(name, value);
    });
  } else
    for (const [name, value] of Object.entries(given))
      headers.set(name, Array.isArray(value) ? value[0]! : value);
  const body = typeof delivery.body === 'string' ? delivery.body : new Uint8Array(delivery.body);
  return new Request('https://receiver.example/webhooks', { method: 'POST', body, headers });
}

/** Runs the node handler on an in-memory request and resolves with the status and body it wrote. */
function nodeCall(
  handler: ReturnType<typeof createNodeWebhookHandler>,
  body: string | Uint8Array,
  headers: NodeWebhookRequest['headers'],
): Promise<{ status: number; text: string }> {
  return new Promise((resolve) => {
    const req = Object.assign(
      Readable.from([typeof body === 'string' ? Buffer.from(body) : Buffer.from(body)]),
      {
        method: 'POST',
        headers,
      },
    ) as unknown as NodeWebhookRequest;
    const res: NodeWebhookResponse = {
      statusCode: 0,
      setHeader: () => undefined,
      end(text?: string) {
        resolve({ status: this.statusCode, text: text ?? '' });
      },
    };
    handler(req, res);
  });
}

afterEach(() => vi.restoreAllMocks());

describe('webhook handlers answer 2xx to verified deliveries only', () => {
  test(`${PROPERTY_RUNS} random and hostile deliveries, to the Fetch and the Node handler`, async () => {
    const onFetch = vi.fn(async () => {});
    const onNode = vi.fn(async () => {});
    const fetchHandler = createWebhookHandler(options(onFetch));
    const nodeHandler = createNodeWebhookHandler(options(onNode));
    let verified = 0;
    await fc.assert(
      fc.asyncProperty(anyDelivery, async (delivery) => {
        const accept =
          mustAccept(delivery) &&
          (typeof delivery.body === 'string' ? Buffer.byteLength(delivery.body) : delivery.body.length) <=
            LIMIT;
        const viaFetch = await createWebhookHandler(options())(fetchRequest(delivery));
        const viaNode = await nodeCall(
          createNodeWebhookHandler(options()),
          delivery.body,
          headersOf(delivery) as Record<string, string>,
        );
        for (const [status, text] of [
          [viaFetch.status, await viaFetch.text()],
          [viaNode.status, viaNode.text],
        ] as const) {
          expect(status >= 200 && status < 300, `${status} ${text}`).toBe(accept);
          // spec: Webhook endpoint states — a 410 would pause the endpoint; a refusal is never one.
          expect(status).not.toBe(410);
          if (!accept) expect(JSON.parse(text)).not.toHaveProperty('challenge');
        }
        if (accept) verified++;
        // The shared handlers see every delivery too: onEvent runs for verified ones only.
        await fetchHandler(fetchRequest(delivery));
        await nodeCall(nodeHandler, delivery.body, headersOf(delivery) as Record<string, string>);
      }),
      { seed: PROPERTY_SEED, numRuns: PROPERTY_RUNS },
    );
    expect(verified).toBeGreaterThan(0);
    for (const spy of [onFetch, onNode]) {
      for (const [event] of spy.mock.calls as unknown as Array<[{ type: string }]>) {
        expect(event.type).not.toBe('webhook.endpoint_verification');
      }
      expect(spy.mock.calls.length).toBeLessThanOrEqual(verified);
    }
  }, 60_000);

  test('a verification challenge is echoed only from a verified request', async () => {
    const challenge = 'chal_5d0c3b9a77e2416f';
    const body = JSON.stringify({ id: 'evt_v1', type: 'webhook.endpoint_verification', data: { challenge } });
    const signed = signWebhook({ body, secret: SECRET, keyId: KEY_ID, timestamp: NOW });
    const forged = signWebhook({ body, secret: 'whsec_guessed', keyId: KEY_ID, timestamp: NOW });
    const stale = signWebhook({ body, secret: SECRET, keyId: KEY_ID, timestamp: NOW - 3_600 });
    const handler = createWebhookHandler(options());
    const nodeHandler = createNodeWebhookHandler(options());
    const ask = async (headers: Record<string, string>) => {
      const viaFetch = await handler(new Request('https://r.example/', { method: 'POST', body, headers }));
      const viaNode = await nodeCall(nodeHandler, body, headers);
      return [
        { status: viaFetch.status, text: await viaFetch.text() },
        { status: viaNode.status, text: viaNode.text },
      ];
    };
    for (const answer of await ask(signed)) {
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.text)).toEqual({ challenge });
    }
    for (const headers of [forged, stale, { ...signed, 'X-Service-Signature': '' }]) {
      for (const answer of await ask(headers)) {
        expect(answer.status).toBe(400);
        expect(answer.text).not.toContain(challenge);
      }
    }
  });
});

describe('webhook handlers limit the body', () => {
  const big = JSON.stringify({ id: 'evt_big', type: 'task.completed', data: { pad: 'x'.repeat(LIMIT) } });
  const headers = signWebhook({ body: big, secret: SECRET, keyId: KEY_ID, timestamp: NOW });

  test('the Fetch handler answers 413 to a signed body over the limit, with or without Content-Length', async () => {
    const onEvent = vi.fn(async () => {});
    const handler = createWebhookHandler(options(onEvent));
    const sized = new Request('https://r.example/', { method: 'POST', body: big, headers });
    const streamed = new Request('https://r.example/', {
      method: 'POST',
      body: Readable.toWeb(Readable.from([Buffer.from(big)])) as ReadableStream,
      headers,
      duplex: 'half',
    } as RequestInit);
    expect(streamed.headers.get('content-length')).toBeNull();
    for (const request of [sized, streamed]) expect((await handler(request)).status).toBe(413);
    expect(onEvent).not.toHaveBeenCalled();
  });

  test('the Node handler answers 413 over HTTP and stops keeping the body', async () => {
    const onEvent = vi.fn(async () => {});
    const handler = createNodeWebhookHandler(options(onEvent));
    const server: Server = createServer((req, res) => handler(req as unknown as NodeWebhookRequest, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
      // Far over the limit: 2 MiB, sent in chunks.
      const huge = Buffer.alloc(2 * 1024 * 1024, 0x20);
      const response = await fetch(url, { method: 'POST', body: huge, headers });
      expect(response.status).toBe(413);
      // A body parser's Buffer over the limit is refused the same way.
      const parsed = await new Promise<number>((resolve) => {
        const req = Object.assign(Readable.from([]), { method: 'POST', headers, body: Buffer.from(big) });
        handler(req as unknown as NodeWebhookRequest, {
          statusCode: 0,
          setHeader: () => undefined,
          end() {
            resolve(this.statusCode);
          },
        });
      });
      expect(parsed).toBe(413);
      expect(onEvent).not.toHaveBeenCalled();
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('signatures are compared in constant time', () => {
  const body = JSON.stringify({ id: 'evt_ct', type: 'task.completed', data: {} });
  const good = signWebhook({ body, secret: SECRET, keyId: KEY_ID, timestamp: NOW });
  // Same length, first digit wrong: a naive early-exit compare would stop at once.
  const hex = good['X-Service-Signature'].slice(3, 67);
  const bad = {
    ...good,
    'X-Service-Signature': `v1=${hex[0] === '0' ? '1' : '0'}${hex.slice(1)},kid=${KEY_ID}`,
  };

  test('verifyWebhook compares with crypto.timingSafeEqual, for a match and a mismatch alike', () => {
    const spy = vi.spyOn(nodeCrypto, 'timingSafeEqual');
    expect(verifyWebhook({ body, headers: good, secrets: SECRETS, now: NOW }).id).toBe('evt_ct');
    expect(() => verifyWebhook({ body, headers: bad, secrets: SECRETS, now: NOW })).toThrow(
      /signature_mismatch/,
    );
    expect(spy).toHaveBeenCalledTimes(2);
    for (const [a, b] of spy.mock.calls) {
      expect(a.byteLength).toBe(32);
      expect(b.byteLength).toBe(32);
    }
  });

  test('verifyWebhookAsync lets crypto.subtle.verify compare (constant time), never comparing digests itself', async () => {
    const verify = vi.spyOn(globalThis.crypto.subtle, 'verify');
    const sign = vi.spyOn(globalThis.crypto.subtle, 'sign');
    expect((await verifyWebhookAsync({ body, headers: good, secrets: SECRETS, now: NOW })).id).toBe('evt_ct');
    await expect(verifyWebhookAsync({ body, headers: bad, secrets: SECRETS, now: NOW })).rejects.toThrow(
      /signature_mismatch/,
    );
    expect(verify).toHaveBeenCalledTimes(2);
    expect(verify.mock.calls[0]?.[0]).toBe('HMAC');
    expect(sign).not.toHaveBeenCalled();
  });
});

afterAll(() => vi.restoreAllMocks());
