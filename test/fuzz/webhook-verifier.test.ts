// Covers: the webhook verifiers under hostile deliveries
/**
 * The webhook verifiers on anything a sender (or a misconfigured receiver) can hand them:
 * headers, bodies, clocks, tolerances and secrets. They throw only WebhookVerificationError (or
 * MediaGatewayError for unusable options), agree with each other, accept only a delivery signed
 * with a configured secret within the tolerance of a usable clock, and run in linear time.
 */
import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { MediaGatewayError } from '../../src/core/base-error.js';
import {
  createWebhookHandler,
  type VerifyWebhookOptions,
  verifyWebhook,
  verifyWebhookAsync,
  WebhookVerificationError,
} from '../../src/webhooks/index.js';
import { expectLinear } from '../security/linear-time.js';
import { KEY_ID, NOW, SECRET } from '../webhooks/fixtures.js';
import { hostileString, TRICKY_KEYS } from './hostile-json.js';
import { FUZZ_SHAPES, fuzz } from './settings.js';

/** Mostly `good`, else anything from `other`: every field of a genuine delivery, each open to mutation. */
const usually = <T>(good: T, other: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 4, arbitrary: fc.constant(good) }, { weight: 1, arbitrary: other });

const sign = (secret: string, timestamp: string, body: Uint8Array) =>
  createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex');
const bytesOf = (body: unknown): Uint8Array | undefined =>
  typeof body === 'string'
    ? new TextEncoder().encode(body)
    : body instanceof Uint8Array
      ? body
      : body instanceof ArrayBuffer
        ? new Uint8Array(body)
        : undefined;

const GOOD_BODY = JSON.stringify({ id: 'evt_1', type: 'task.completed', data: {} });
const body = usually<unknown>(
  GOOD_BODY,
  fc.oneof(
    hostileString.map((id) => JSON.stringify({ id, type: 'task.completed', data: {} })),
    fc.constant(JSON.stringify({ id: 'evt_1', type: 'task.completed' }, null, 2)),
    hostileString,
    fc.uint8Array({ maxLength: 64 }),
    fc.uint8Array({ maxLength: 64 }).map((b) => b.slice().buffer),
    fc.constant(new TextEncoder().encode(GOOD_BODY)),
    fc.constantFrom<unknown>({ id: 'evt_1', type: 'x' }, null, 42, undefined, ['a']),
  ),
);
const timestamp = usually(
  String(NOW),
  fc.oneof(
    fc.integer({ min: -400, max: 400 }).map((skew) => String(NOW + skew)),
    fc.constantFrom('', ' ', '0', '-1', `${NOW}.0`, ` ${NOW}`, '9'.repeat(16), 'NaN', '1e9'),
    hostileString,
  ),
);
const keyId = usually(
  KEY_ID,
  fc.oneof(fc.constant('kid_old'), fc.constantFrom(...TRICKY_KEYS, 'kid_unknown'), hostileString),
);
const secretUsed = usually(SECRET, fc.constantFrom('whsec_old', 'whsec_wrong', 'whsec_proto'));
const clock = usually<number | Date | undefined>(
  NOW,
  fc.oneof<fc.Arbitrary<number | Date | undefined>[]>(
    fc.integer({ min: -1_000, max: 1_000 }).map((skew) => NOW + skew),
    fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, -0, undefined),
    fc.constantFrom(new Date(Number.NaN), new Date(NOW * 1000)),
    fc.double(),
  ),
);
const tolerance = usually<number | undefined>(
  undefined,
  fc.oneof(fc.constantFrom(0, 1, 300, -1, Number.NaN, Number.POSITIVE_INFINITY), fc.nat(1_000)),
);
const secrets = usually<unknown>(
  { [KEY_ID]: SECRET, kid_old: 'whsec_old' },
  fc.oneof<fc.Arbitrary<unknown>[]>(
    fc.constant([
      { keyId: KEY_ID, secret: SECRET },
      { keyId: 'kid_old', secret: 'whsec_old' },
    ]),
    // `__proto__` as an own key, as JSON.parse or Object.fromEntries makes it.
    fc.constant(
      Object.fromEntries([
        [KEY_ID, SECRET],
        ['__proto__', 'whsec_proto'],
      ]),
    ),
    fc.constantFrom<unknown>({}, [], null, 'whsec', { [KEY_ID]: 5 }, [{ keyId: KEY_ID }], [null]),
  ),
);

/** One delivery as generated, and whether it is genuine (signed by a configured secret). */
const delivery = fc
  .record({
    body,
    timestamp,
    keyId,
    secretUsed,
    eventHeader: usually('evt_1', hostileString),
    signatureForm: fc.constantFrom(
      'valid',
      'valid',
      'valid',
      'upper',
      'spaced',
      'garbage',
      'missing',
      'array',
    ),
    garbage: hostileString,
    headerCase: fc.constantFrom('lower', 'mixed', 'fetch'),
    drop: usually<string[]>([], fc.subarray(['x-service-event-id', 'x-service-timestamp'])),
    now: clock,
    toleranceSeconds: tolerance,
    secrets,
  })
  .map((d) => {
    const bytes = bytesOf(d.body);
    const hex = bytes ? sign(d.secretUsed, d.timestamp, bytes) : '0'.repeat(64);
    const signature = {
      valid: `v1=${hex},kid=${d.keyId}`,
      upper: `v1=${hex.toUpperCase()},kid=${d.keyId}`,
      spaced: ` kid=${d.keyId} , v1=${hex} `,
      garbage: d.garbage,
      missing: undefined,
      array: [`v1=${hex},kid=${d.keyId}`, 'v1=00,kid=x'],
    }[d.signatureForm];
    const raw: Record<string, string | string[] | undefined> = {
      'x-service-event-id': d.eventHeader,
      'x-service-timestamp': d.timestamp,
      'x-service-signature': signature,
      'x-service-delivery-id': 'dlv_1',
    };
    for (const name of d.drop) delete raw[name];
    const named =
      d.headerCase === 'lower'
        ? raw
        : Object.fromEntries(Object.entries(raw).map(([k, v]) => [k.replace(/(^|-)x/g, '$1X'), v]));
    const headers = d.headerCase === 'fetch' ? fetchHeaders(raw) : named;
    const options = {
      body: d.body,
      headers,
      secrets: d.secrets,
      now: d.now,
      toleranceSeconds: d.toleranceSeconds,
    } as unknown as VerifyWebhookOptions;
    // Configured: the secrets hold this pair as an own entry (a prototype's does not count).
    const configured = Array.isArray(d.secrets)
      ? d.secrets.some(
          (s: { keyId?: unknown; secret?: unknown } | null) =>
            s?.keyId === d.keyId && s?.secret === d.secretUsed,
        )
      : !!d.secrets &&
        typeof d.secrets === 'object' &&
        Object.hasOwn(d.secrets, d.keyId) &&
        (d.secrets as Record<string, unknown>)[d.keyId] === d.secretUsed;
    const seconds = d.now instanceof Date ? d.now.getTime() / 1000 : (d.now ?? Date.now() / 1000);
    const genuine =
      configured &&
      ['valid', 'spaced', 'array'].includes(d.signatureForm) &&
      /^\d{1,15}$/.test(d.timestamp) &&
      Math.abs(seconds - Number(d.timestamp)) <= (d.toleranceSeconds ?? 300);
    return { options, genuine, eventHeader: d.eventHeader };
  });

/** A Fetch `Headers` of the values it can hold (it refuses control characters, for example). */
function fetchHeaders(raw: Record<string, unknown>): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    const text = Array.isArray(value) ? value.join(', ') : value;
    try {
      if (typeof text === 'string') headers.set(name, text);
    } catch {
      // not a value a Fetch request can carry
    }
  }
  return headers;
}

type Outcome = { accepted: string } | { reason: string } | { misuse: string };

function outcomeOf(error: unknown): Outcome {
  if (error instanceof WebhookVerificationError) return { reason: error.reason };
  if (error instanceof MediaGatewayError) return { misuse: error.message };
  throw error;
}

describe('verifyWebhook and verifyWebhookAsync on any delivery', () => {
  test('throw only documented errors, agree, and accept only genuine deliveries', async () => {
    let accepted = 0;
    await fc.assert(
      fc.asyncProperty(delivery, async ({ options, genuine, eventHeader }) => {
        let sync: Outcome;
        try {
          sync = { accepted: verifyWebhook(options).id };
        } catch (error) {
          sync = outcomeOf(error);
        }
        const async = await verifyWebhookAsync(options).then(
          (event): Outcome => ({ accepted: event.id }),
          outcomeOf,
        );
        expect(async).toEqual(sync);
        if ('accepted' in sync) {
          expect(genuine).toBe(true);
          expect(sync.accepted).toBe(eventHeader.trim());
          accepted++;
        }
      }),
      fuzz(),
    );
    // The generator reaches the accepting path too, not only the failures.
    expect(accepted).toBeGreaterThan(0);
  });

  test('the handlers answer any delivery with a status they document, never naming the reason', async () => {
    const handler = createWebhookHandler({
      secrets: { [KEY_ID]: SECRET },
      onEvent: () => {},
      clock: () => NOW,
      onError: () => {},
    });
    await fc.assert(
      fc.asyncProperty(delivery, async ({ options }) => {
        const headers =
          options.headers instanceof Headers
            ? options.headers
            : fetchHeaders(options.headers as Record<string, unknown>);
        const raw = options.body;
        const sendable = typeof raw === 'string' || raw instanceof Uint8Array || raw instanceof ArrayBuffer;
        const res = await handler(
          new Request('http://127.0.0.1/hook', {
            method: 'POST',
            headers,
            body: sendable ? (raw as string | ArrayBuffer) : '{}',
          }),
        );
        expect([200, 400, 413]).toContain(res.status);
        const text = await res.text();
        if (res.status === 400) {
          expect(JSON.parse(text)).toEqual({
            error: { type: 'webhook_verification_failed', message: 'verification failed' },
          });
        }
      }),
      fuzz(Math.ceil(fuzz().numRuns / 2)),
    );
  });
});

describe('verification takes time linear in the delivery', () => {
  const verifyAnyway = (options: VerifyWebhookOptions) => {
    try {
      verifyWebhook(options);
    } catch (error) {
      if (!(error instanceof WebhookVerificationError)) throw error;
    }
  };
  const headersWith = (signature: string, ts = String(NOW)) => ({
    'x-service-event-id': 'evt_1',
    'x-service-timestamp': ts,
    'x-service-signature': signature,
  });
  const base = { body: '{"id":"evt_1","type":"x"}', secrets: { [KEY_ID]: SECRET }, now: NOW };

  test.each([
    ['a signature header of commas', (n: number) => headersWith(`v1=${'0'.repeat(64)}${','.repeat(n)}kid=a`)],
    ['a signature header of "v1="', (n: number) => headersWith('v1='.repeat(n))],
    ['a signature header of "=,"', (n: number) => headersWith('=,'.repeat(n))],
    [
      'a signature header of spaces',
      (n: number) => headersWith(`v1=${'0'.repeat(64)},${' '.repeat(n)}kid=a `),
    ],
    ['a long kid', (n: number) => headersWith(`v1=${'0'.repeat(64)},kid=${'k'.repeat(n)}`)],
    ['a long timestamp', (n: number) => headersWith(`v1=${'0'.repeat(64)},kid=${KEY_ID}`, '1'.repeat(n))],
  ] as const)('%s', (_, headers) => {
    expectLinear(headers, (h) => verifyAnyway({ ...base, headers: h }), { n: 16_384 });
  });

  test('a header record with many names, and a large signed body', () => {
    const manyNames = (n: number) =>
      Object.fromEntries(Array.from({ length: n }, (_, i) => [`X-Other-${i}`, 'v']));
    expectLinear(manyNames, (headers) => verifyAnyway({ ...base, headers }), { n: 4_096 });
    const bigBody = (n: number) => {
      const text = JSON.stringify({ id: 'evt_1', type: 'x', data: { pad: ' \n'.repeat(n) } });
      const hex = sign(SECRET, String(NOW), new TextEncoder().encode(text));
      return { ...base, body: text, headers: headersWith(`v1=${hex},kid=${KEY_ID}`) };
    };
    expectLinear(bigBody, verifyAnyway, { n: 65_536 });
  });

  test('any short pattern, repeated, as the signature header', () => {
    fc.assert(
      fc.property(
        hostileString.filter((s) => s.length > 0 && s.length < 16),
        (unit) => {
          const build = (n: number) => headersWith(unit.repeat(Math.ceil(n / unit.length)));
          expectLinear(build, (headers) => verifyAnyway({ ...base, headers }), { n: 16_384, floorMs: 100 });
        },
      ),
      fuzz(FUZZ_SHAPES),
    );
  });
});
