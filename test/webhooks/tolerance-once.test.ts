// Covers: src/webhooks/handler-core.ts, src/webhooks/signature.ts
import { beforeEach, describe, expect, test, vi } from 'vitest';
import * as options from '../../src/core/options.js';
import {
  createNodeWebhookHandler,
  createWebhookHandler,
  InvalidOptionError,
  type NodeWebhookResponse,
  signWebhook,
  verifyWebhook,
  verifyWebhookAsync,
  type WebhookHandlerOptions,
  WebhookVerificationError,
} from '../../src/webhooks/index.js';
import { completedEvent, deliveryHeaders, KEY_ID, NOW, SECRET, SECRETS } from './fixtures.js';

// Every checkCount call made from outside core/options.ts is counted: the verifiers' check of
// toleranceSeconds is one of them.
vi.mock('../../src/core/options.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../src/core/options.js')>();
  return { ...actual, checkCount: vi.fn(actual.checkCount) };
});
const checkCount = vi.mocked(options.checkCount);
const toleranceChecks = () =>
  checkCount.mock.calls.filter(([option]) => option === 'toleranceSeconds').length;
beforeEach(() => checkCount.mockClear());

/** A delivery of event `n`, signed `age` seconds before NOW. */
function delivery(n: number, age = 0) {
  const body = JSON.stringify(completedEvent({ id: `evt_${n}` }));
  const headers = signWebhook({ body, secret: SECRET, keyId: KEY_ID, timestamp: NOW - age });
  return { body, headers };
}

/** Both handlers, each as `(delivery) => status`. */
const HANDLERS = {
  createWebhookHandler: (options: WebhookHandlerOptions) => {
    const handler = createWebhookHandler(options);
    return async ({ body, headers }: ReturnType<typeof delivery>) =>
      (await handler(new Request('http://127.0.0.1/webhooks', { method: 'POST', body, headers }))).status;
  },
  createNodeWebhookHandler: (options: WebhookHandlerOptions) => {
    const handler = createNodeWebhookHandler(options);
    return ({ body, headers }: ReturnType<typeof delivery>) =>
      new Promise<number>((resolve) => {
        const res: NodeWebhookResponse = {
          statusCode: 0,
          setHeader: () => {},
          end: () => resolve(res.statusCode),
        };
        // As express.raw() leaves it: the body already read, as a Buffer.
        handler(
          Object.assign((async function* () {})(), { method: 'POST', headers, body: Buffer.from(body) }),
          res,
        );
      });
  },
};

/** Handler options whose `toleranceSeconds` counts its reads. */
function countingOptions(toleranceSeconds: number) {
  const reads = { count: 0 };
  const options: WebhookHandlerOptions = {
    secrets: SECRETS,
    onEvent: () => {},
    clock: () => NOW,
    onError: () => {},
    get toleranceSeconds() {
      reads.count++;
      return toleranceSeconds;
    },
  };
  return { options, reads };
}

describe.each(Object.entries(HANDLERS))('%s checks toleranceSeconds once, when it is created', (_, make) => {
  test('deliveries neither read the option again nor check it again', async () => {
    const { options: given, reads } = countingOptions(60);
    const handle = make(given);
    const readsAtCreation = reads.count;
    const checksAtCreation = toleranceChecks();
    expect(readsAtCreation).toBeGreaterThan(0);
    for (const n of [1, 2, 3]) expect(await handle(delivery(n))).toBe(200);
    expect(reads.count).toBe(readsAtCreation);
    expect(toleranceChecks()).toBe(checksAtCreation);
  });

  test('the value checked at creation is the one deliveries are held to: 60 s old passes, 61 s does not', async () => {
    const { options: given } = countingOptions(60);
    const handle = make(given);
    expect(await handle(delivery(1, 60))).toBe(200);
    expect(await handle(delivery(2, 61))).toBe(400);
    expect(await handle(delivery(3, -60))).toBe(200);
    expect(await handle(delivery(4, -61))).toBe(400);
  });

  test('left out, it is 300 s: 300 s old passes, 301 s does not', async () => {
    const handle = make({ secrets: SECRETS, onEvent: () => {}, clock: () => NOW, onError: () => {} });
    expect(await handle(delivery(1, 300))).toBe(200);
    expect(await handle(delivery(2, 301))).toBe(400);
  });

  test('0 is taken (only the current second passes), -1 is refused at creation', async () => {
    const handle = make({
      secrets: SECRETS,
      onEvent: () => {},
      clock: () => NOW,
      onError: () => {},
      toleranceSeconds: 0,
    });
    expect(await handle(delivery(1, 0))).toBe(200);
    expect(await handle(delivery(2, 1))).toBe(400);
    expect(() => make({ secrets: SECRETS, onEvent: () => {}, toleranceSeconds: -1 })).toThrow(
      'toleranceSeconds must be a whole number of 0 or more; got -1. Nothing was sent.',
    );
  });
});

describe('verifyWebhook and verifyWebhookAsync check toleranceSeconds on each call', () => {
  const raw = JSON.stringify(completedEvent());
  const base = { body: raw, headers: deliveryHeaders(raw), secrets: SECRETS, now: NOW };

  test('each call checks the option it is given', async () => {
    verifyWebhook({ ...base, toleranceSeconds: 0 });
    verifyWebhook({ ...base, toleranceSeconds: 0 });
    await verifyWebhookAsync({ ...base, toleranceSeconds: 0 });
    expect(toleranceChecks()).toBe(3);
    expect(() => verifyWebhook({ ...base, toleranceSeconds: -1 })).toThrow(InvalidOptionError);
    await expect(verifyWebhookAsync({ ...base, toleranceSeconds: 0.5 })).rejects.toThrow(
      'toleranceSeconds must be a whole number of 0 or more; got 0.5',
    );
  });

  // The order of the checks: body, headers, signature header, then the option, then the timestamp.
  test.each([
    ['a missing header', { headers: {} }, 'missing_header'],
    [
      'a malformed signature header',
      { headers: { ...base.headers, 'x-service-signature': 'v1=x' } },
      'malformed_signature',
    ],
  ])('a bad toleranceSeconds comes after %s', async (_, over, reason) => {
    const given = { ...base, ...over, toleranceSeconds: -1 };
    expect(() => verifyWebhook(given)).toThrow(expect.objectContaining({ reason }));
    await expect(verifyWebhookAsync(given)).rejects.toThrow(WebhookVerificationError);
  });

  test('a bad toleranceSeconds comes before a timestamp that is not Unix seconds', async () => {
    const given = {
      ...base,
      headers: { ...base.headers, 'x-service-timestamp': 'soon' },
      toleranceSeconds: -1,
    };
    expect(() => verifyWebhook(given)).toThrow(InvalidOptionError);
    await expect(verifyWebhookAsync(given)).rejects.toThrow(InvalidOptionError);
  });
});
