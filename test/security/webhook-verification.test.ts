// Covers: src/webhooks/verify-node.ts, src/webhooks/verify-web.ts
import { afterEach, describe, expect, test, vi } from 'vitest';
import {
  createWebhookHandler,
  type VerifyWebhookOptions,
  verifyWebhook,
  verifyWebhookAsync,
  WebhookVerificationError,
} from '../../src/webhooks/index.js';
import { completedEvent, deliveryHeaders, KEY_ID, NOW, SECRET } from '../webhooks/fixtures.js';

const body = JSON.stringify(completedEvent());

/** Both verifiers' outcome: the event ID, or the failure's reason. */
async function outcome(options: VerifyWebhookOptions): Promise<[string, string]> {
  const read = (run: () => unknown) => {
    try {
      return (run() as { id: string }).id;
    } catch (error) {
      if (error instanceof WebhookVerificationError) return error.reason;
      throw error;
    }
  };
  const sync = read(() => verifyWebhook(options));
  const async = await verifyWebhookAsync(options).then(
    (event) => event.id,
    (error: unknown) => {
      if (error instanceof WebhookVerificationError) return error.reason;
      throw error;
    },
  );
  return [sync, async];
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the timestamp check fails closed', () => {
  test.each([
    ['NaN', Number.NaN],
    ['an invalid Date', new Date(Number.NaN)],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['-Infinity', Number.NEGATIVE_INFINITY],
  ])('now = %s → timestamp_out_of_tolerance', async (_, now) => {
    const options = { body, headers: deliveryHeaders(body), secrets: { [KEY_ID]: SECRET }, now };
    expect(await outcome(options)).toEqual(['timestamp_out_of_tolerance', 'timestamp_out_of_tolerance']);
  });

  test('a system clock that gives NaN accepts nothing', async () => {
    vi.spyOn(Date, 'now').mockReturnValue(Number.NaN);
    const options = { body, headers: deliveryHeaders(body), secrets: { [KEY_ID]: SECRET } };
    expect(await outcome(options)).toEqual(['timestamp_out_of_tolerance', 'timestamp_out_of_tolerance']);
  });

  test('the same delivery with a usable clock verifies', async () => {
    const options = { body, headers: deliveryHeaders(body), secrets: { [KEY_ID]: SECRET }, now: NOW };
    expect(await outcome(options)).toEqual(['evt_0001', 'evt_0001']);
  });
});

describe('secrets are looked up as own entries only', () => {
  test.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'length', '0'])(
    'kid=%s is an unknown key, for a record and for a list',
    async (kid) => {
      const headers = deliveryHeaders(body, { keyId: kid });
      for (const secrets of [{ [KEY_ID]: SECRET }, [{ keyId: KEY_ID, secret: SECRET }]]) {
        expect(await outcome({ body, headers, secrets, now: NOW })).toEqual(['unknown_key', 'unknown_key']);
      }
    },
  );

  test("a secret inherited from the record's prototype is not used", async () => {
    const secrets = Object.assign(Object.create({ kid_inherited: 'whsec_inherited' }), { [KEY_ID]: SECRET });
    const headers = deliveryHeaders(body, { keyId: 'kid_inherited', secret: 'whsec_inherited' });
    expect(await outcome({ body, headers, secrets, now: NOW })).toEqual(['unknown_key', 'unknown_key']);
  });

  test('a key set on Object.prototype (prototype pollution) does not verify, in the handler either', async () => {
    const polluted = Object.prototype as Record<string, unknown>;
    polluted.kid_polluted = 'whsec_known_to_the_attacker';
    try {
      const headers = deliveryHeaders(body, { keyId: 'kid_polluted', secret: 'whsec_known_to_the_attacker' });
      const options = { body, headers, secrets: { [KEY_ID]: SECRET }, now: NOW };
      expect(await outcome(options)).toEqual(['unknown_key', 'unknown_key']);
      const onEvent = vi.fn();
      const handler = createWebhookHandler({ secrets: { [KEY_ID]: SECRET }, onEvent, clock: () => NOW });
      const res = await handler(new Request('http://127.0.0.1/hook', { method: 'POST', headers, body }));
      expect(res.status).toBe(400);
      expect(onEvent).not.toHaveBeenCalled();
    } finally {
      delete polluted.kid_polluted;
    }
  });

  test('a key ID named like a prototype member verifies when it is an own entry', async () => {
    const secrets = Object.fromEntries([['constructor', 'whsec_own']]);
    const headers = deliveryHeaders(body, { keyId: 'constructor', secret: 'whsec_own' });
    expect(await outcome({ body, headers, secrets, now: NOW })).toEqual(['evt_0001', 'evt_0001']);
  });
});

describe('the handler tells the sender nothing about why a delivery failed', () => {
  const deliveries: ReadonlyArray<[string, Record<string, string>, number]> = [
    ['unknown key', deliveryHeaders(body, { keyId: 'kid_unknown' }), NOW],
    ['bad signature', deliveryHeaders(body, { secret: 'whsec_wrong' }), NOW],
    ['stale timestamp', deliveryHeaders(body), NOW + 3_600],
    ['clock gives NaN', deliveryHeaders(body), Number.NaN],
    ['malformed signature', { ...deliveryHeaders(body), 'x-service-signature': 'v1=zz,kid=x' }, NOW],
    ['missing header', { 'x-service-event-id': 'evt_0001' }, NOW],
  ];

  test('every failure gets the same 400 body; onError gets the reason', async () => {
    const answers = new Set<string>();
    const reasons: string[] = [];
    for (const [, headers, now] of deliveries) {
      const onEvent = vi.fn();
      const handler = createWebhookHandler({
        secrets: { [KEY_ID]: SECRET },
        onEvent,
        clock: () => now,
        onError: (error) => reasons.push((error as WebhookVerificationError).reason),
      });
      const res = await handler(new Request('http://127.0.0.1/hook', { method: 'POST', headers, body }));
      expect(res.status).toBe(400);
      expect(onEvent).not.toHaveBeenCalled();
      answers.add(await res.text());
    }
    expect([...answers]).toEqual([
      JSON.stringify({ error: { type: 'webhook_verification_failed', message: 'verification failed' } }),
    ]);
    expect(reasons).toEqual([
      'unknown_key',
      'signature_mismatch',
      'timestamp_out_of_tolerance',
      'timestamp_out_of_tolerance',
      'malformed_signature',
      'missing_header',
    ]);
  });
});
