// Covers: src/webhooks/verify-node.ts, src/webhooks/verify-web.ts
import { afterEach, describe, expect, test, vi } from 'vitest';
import { MediaGatewayError } from '../../src/core/base-error.js';
import {
  InvalidOptionError,
  signWebhook,
  type VerifyWebhookOptions,
  verifyWebhook,
  verifyWebhookAsync,
  type WebhookEvent,
  WebhookVerificationError,
} from '../../src/webhooks/index.js';
import {
  completedEvent,
  deliveryHeaders,
  hmacHex,
  KEY_ID,
  NOW,
  OLD_KEY_ID,
  OLD_SECRET,
  SECRET,
  SECRETS,
} from './fixtures.js';

const raw = JSON.stringify(completedEvent());
const base = (over: Partial<VerifyWebhookOptions> = {}): VerifyWebhookOptions => ({
  body: raw,
  headers: deliveryHeaders(raw),
  secrets: SECRETS,
  now: NOW,
  ...over,
});
const without = (name: string) => {
  const headers = deliveryHeaders(raw);
  delete headers[name];
  return headers;
};
const withSignature = (value: string) => ({ ...deliveryHeaders(raw), 'x-service-signature': value });
const goodHex = hmacHex(SECRET, String(NOW), raw);
const signedAt = (timestamp: string) => deliveryHeaders(raw, { timestamp });
const signedBody = (body: string | Uint8Array, eventId = 'evt_0001') => ({
  body,
  headers: deliveryHeaders(body, { eventId }),
});

interface Outcome {
  event?: WebhookEvent;
  reason?: string;
  message?: string;
  isGatewayError?: boolean;
}

function describeError(error: unknown): Outcome {
  if (!(error instanceof WebhookVerificationError)) throw error;
  return { reason: error.reason, message: error.message, isGatewayError: error instanceof MediaGatewayError };
}

/** Runs both verifiers and returns both outcomes. */
async function runBoth(options: VerifyWebhookOptions): Promise<[Outcome, Outcome]> {
  let sync: Outcome;
  try {
    sync = { event: verifyWebhook(options) };
  } catch (error) {
    sync = describeError(error);
  }
  const web = await verifyWebhookAsync(options).then((event) => ({ event }), describeError);
  return [sync, web];
}

describe('a delivery is refused, by both verifiers, for the same reason', () => {
  const cases: Array<[string, VerifyWebhookOptions, string, RegExp?]> = [
    ['no X-Service-Event-ID', base({ headers: without('x-service-event-id') }), 'missing_header', /Event-ID/],
    [
      'no X-Service-Timestamp',
      base({ headers: without('x-service-timestamp') }),
      'missing_header',
      /Timestamp/,
    ],
    [
      'no X-Service-Signature',
      base({ headers: without('x-service-signature') }),
      'missing_header',
      /Signature/,
    ],
    ['an empty X-Service-Signature', base({ headers: withSignature('') }), 'missing_header'],
    [
      'no headers at all',
      base({ headers: {} }),
      'missing_header',
      /Event-ID, X-Service-Timestamp, X-Service/,
    ],
    // A serverless event with no headers carries `headers: null` (API Gateway) or none.
    [
      'headers null',
      base({ headers: null as never }),
      'missing_header',
      /Event-ID, X-Service-Timestamp, X-Service/,
    ],
    [
      'headers undefined',
      base({ headers: undefined as never }),
      'missing_header',
      /Event-ID, X-Service-Timestamp, X-Service/,
    ],
    [
      'a signature header that is not key=value',
      base({ headers: withSignature('garbage') }),
      'malformed_signature',
    ],
    [
      'a signature header without kid',
      base({ headers: withSignature(`v1=${goodHex}`) }),
      'malformed_signature',
    ],
    [
      'a signature header without v1',
      base({ headers: withSignature(`kid=${KEY_ID}`) }),
      'malformed_signature',
    ],
    ['an empty kid', base({ headers: withSignature(`v1=${goodHex},kid=`) }), 'malformed_signature'],
    [
      'a repeated v1',
      base({ headers: withSignature(`v1=${goodHex},v1=${goodHex},kid=${KEY_ID}`) }),
      'malformed_signature',
    ],
    [
      'v1 with characters that are not hex',
      base({ headers: withSignature(`v1=${'zz'.repeat(32)},kid=${KEY_ID}`) }),
      'malformed_signature',
    ],
    [
      'v1 in uppercase hex',
      base({ headers: withSignature(`v1=${goodHex.toUpperCase()},kid=${KEY_ID}`) }),
      'malformed_signature',
      /64 lowercase hex/,
    ],
    [
      'v1 with an odd number of hex digits',
      base({ headers: withSignature(`v1=${goodHex.slice(1)},kid=${KEY_ID}`) }),
      'malformed_signature',
    ],
    [
      'v1 longer than a SHA-256 digest',
      base({ headers: withSignature(`v1=${goodHex}00,kid=${KEY_ID}`) }),
      'malformed_signature',
    ],
    [
      'a well-formed v1 of other bytes (wrong hex)',
      base({ headers: withSignature(`v1=${'0'.repeat(64)},kid=${KEY_ID}`) }),
      'signature_mismatch',
    ],
    [
      'an unknown kid',
      base({ headers: withSignature(`v1=${goodHex},kid=kid_other`) }),
      'unknown_key',
      /kid_other/,
    ],
    [
      'the wrong secret',
      base({ headers: deliveryHeaders(raw, { secret: 'whsec_wrong' }) }),
      'signature_mismatch',
    ],
    ['a tampered body', base({ body: raw.replace('task_abc', 'task_abd') }), 'signature_mismatch'],
    [
      'a body re-serialized from parsed JSON (indented)',
      base({ body: JSON.stringify(JSON.parse(raw), null, 2) }),
      'signature_mismatch',
      /parsed and re-serialized/,
    ],
    [
      'a body re-serialized with another key order',
      base({ body: JSON.stringify({ type: 'task.completed', ...JSON.parse(raw) }) }),
      'signature_mismatch',
      /pass the raw body/,
    ],
    ['a body with whitespace added', base({ body: `${raw}\n` }), 'signature_mismatch'],
    ['a body with a leading space', base({ body: ` ${raw}` }), 'signature_mismatch'],
    ['a timestamp 301 s old', base({ headers: signedAt(String(NOW - 301)) }), 'timestamp_out_of_tolerance'],
    [
      'a timestamp an hour old',
      base({ headers: signedAt(String(NOW - 3600)) }),
      'timestamp_out_of_tolerance',
    ],
    ['a timestamp 301 s ahead', base({ headers: signedAt(String(NOW + 301)) }), 'timestamp_out_of_tolerance'],
    [
      'a non-numeric timestamp',
      base({ headers: signedAt('yesterday') }),
      'timestamp_out_of_tolerance',
      /integer/,
    ],
    ['a fractional timestamp', base({ headers: signedAt(`${NOW}.5`) }), 'timestamp_out_of_tolerance'],
    ['a negative timestamp', base({ headers: signedAt('-1') }), 'timestamp_out_of_tolerance'],
    [
      'a timestamp in milliseconds',
      base({ headers: signedAt(String(NOW * 1000)) }),
      'timestamp_out_of_tolerance',
    ],
    [
      'an X-Service-Event-ID that is not the body id',
      base(signedBody(raw, 'evt_other')),
      'event_id_mismatch',
      /evt_other.*evt_0001/,
    ],
    ['a signed body that is not JSON', base(signedBody('not json')), 'invalid_body'],
    ['a signed JSON array', base(signedBody('[1,2]')), 'invalid_body'],
    ['a signed JSON object without id', base(signedBody('{"type":"task.completed"}')), 'invalid_body'],
    [
      'a signed body that is not UTF-8',
      base(signedBody(new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]))),
      'invalid_body',
    ],
    [
      'a parsed object passed as the body',
      base({ body: JSON.parse(raw) }),
      'invalid_body',
      /raw string or bytes as received, not a parsed object/,
    ],
    ['no body', base({ body: undefined as unknown as string }), 'invalid_body'],
  ];

  test.each(cases)('%s -> %s', async (_name, options, reason, message) => {
    const [sync, web] = await runBoth(options);
    expect(sync.event).toBeUndefined();
    expect(sync.reason).toBe(reason);
    expect(sync.isGatewayError).toBe(true);
    expect(web).toEqual(sync);
    if (message) expect(sync.message).toMatch(message);
  });
});

describe('an authentic delivery is accepted by both verifiers', () => {
  const expected = JSON.parse(raw);
  const bodies: Array<[string, string | Uint8Array | ArrayBuffer]> = [
    ['a string', raw],
    ['a Buffer', Buffer.from(raw)],
    ['a Uint8Array', new TextEncoder().encode(raw)],
    ['an ArrayBuffer', new TextEncoder().encode(raw).buffer],
    [
      'a Buffer slice of a larger pool',
      Buffer.from(`xxxx${raw}yyyy`).subarray(4, 4 + Buffer.byteLength(raw)),
    ],
  ];
  test.each(bodies)('the body as %s', async (_name, body) => {
    const [sync, web] = await runBoth(base({ body }));
    expect(sync.event).toEqual(expected);
    expect(web.event).toEqual(expected);
  });

  test('headers as a Fetch Headers object, and as a record with mixed-case names and array values', async () => {
    const signed = deliveryHeaders(raw);
    for (const headers of [
      new Headers(signed),
      Object.fromEntries(Object.entries(signed).map(([k, v]) => [k.toUpperCase(), [v, 'ignored']])),
    ]) {
      const [sync, web] = await runBoth(base({ headers }));
      expect(sync.event?.id).toBe('evt_0001');
      expect(web.event?.id).toBe('evt_0001');
    }
  });

  test('the signature header tolerates spaces and either order, and ignores other fields', async () => {
    for (const value of [
      `kid=${KEY_ID},v1=${goodHex}`,
      `  v1 = ${goodHex} ,  kid = ${KEY_ID}  `,
      `v0=deadbeef, kid=${KEY_ID}, v1=${goodHex},`,
    ]) {
      const [sync, web] = await runBoth(base({ headers: withSignature(value) }));
      expect(sync.event?.id).toBe('evt_0001');
      expect(web.event?.id).toBe('evt_0001');
    }
  });

  test('during a rotation both secrets are accepted, in either secrets form', async () => {
    const record = { [KEY_ID]: SECRET, [OLD_KEY_ID]: OLD_SECRET };
    const both = [
      record,
      [
        { keyId: KEY_ID, secret: SECRET },
        { keyId: OLD_KEY_ID, secret: OLD_SECRET },
      ],
    ];
    for (const secrets of both) {
      for (const [keyId, secret] of [
        [KEY_ID, SECRET],
        [OLD_KEY_ID, OLD_SECRET],
      ] as const) {
        const [sync, web] = await runBoth(
          base({ secrets, headers: deliveryHeaders(raw, { keyId, secret }) }),
        );
        expect(sync.event?.id).toBe('evt_0001');
        expect(web.event?.id).toBe('evt_0001');
      }
    }
    // A secret signed under the other kid is still a mismatch: the kid picks the secret.
    const crossed = deliveryHeaders(raw, { keyId: KEY_ID, secret: OLD_SECRET });
    const [sync] = await runBoth(base({ secrets: record, headers: crossed }));
    expect(sync.reason).toBe('signature_mismatch');
  });

  test('the tolerance is 300 s inclusive in both directions by default, and configurable', async () => {
    for (const offset of [-300, 0, 300]) {
      const [sync, web] = await runBoth(base({ headers: signedAt(String(NOW + offset)) }));
      expect(sync.event?.id, `offset ${offset}`).toBe('evt_0001');
      expect(web.event?.id).toBe('evt_0001');
    }
    const old = signedAt(String(NOW - 500));
    expect((await runBoth(base({ headers: old, toleranceSeconds: 600 })))[0].event?.id).toBe('evt_0001');
    const recent = signedAt(String(NOW - 11));
    expect((await runBoth(base({ headers: recent, toleranceSeconds: 10 })))[1].reason).toBe(
      'timestamp_out_of_tolerance',
    );
  });

  test('now may be a Date, and defaults to the system clock', async () => {
    const [sync] = await runBoth(base({ now: new Date(NOW * 1000) }));
    expect(sync.event?.id).toBe('evt_0001');
    const fresh = String(Math.floor(Date.now() / 1000));
    const [current] = await runBoth({ body: raw, headers: signedAt(fresh), secrets: SECRETS });
    expect(current.event?.id).toBe('evt_0001');
    const [stale] = await runBoth({ body: raw, headers: signedAt(String(NOW - 10_000)), secrets: SECRETS });
    expect(stale.reason).toBe('timestamp_out_of_tolerance');
  });

  test('an unknown event type is passed through, not refused', async () => {
    const body = JSON.stringify({
      id: 'evt_new',
      type: 'task.progress',
      api_version: '2027-01-01',
      data: {},
    });
    const [sync, web] = await runBoth(base(signedBody(body, 'evt_new')));
    expect(sync.event).toEqual(JSON.parse(body));
    expect(web.event).toEqual(JSON.parse(body));
  });

  test('verifying the same delivery twice gives the same event: duplicates are the caller`s concern', async () => {
    expect(verifyWebhook(base())).toEqual(verifyWebhook(base()));
  });
});

describe('unusable options are refused as programming errors, not verification failures', () => {
  test.each([
    ['an empty record', {}],
    ['an empty array', []],
    ['a bare string', 'whsec_x'],
    ['an empty secret', { [KEY_ID]: '' }],
    ['an entry without keyId', [{ secret: SECRET }]],
    // `{ [process.env.MEDIAGW_WEBHOOK_KEY_ID!]: secret }` with the variable unset.
    ['a key ID "undefined"', { [String(process.env.MEDIAGW_UNSET_VARIABLE_FOR_TEST)]: SECRET }],
  ])('secrets as %s', async (_name, secrets) => {
    const options = base({ secrets: secrets as VerifyWebhookOptions['secrets'] });
    expect(() => verifyWebhook(options)).toThrow(/secrets must be/);
    await expect(verifyWebhookAsync(options)).rejects.toThrow(/secrets must be/);
    expect(() => verifyWebhook(options)).not.toThrow(WebhookVerificationError);
  });

  test.each([
    ['no options at all', undefined],
    ['null options', null],
  ])('%s is refused as invalid_body by both verifiers, not a TypeError', async (_name, options) => {
    const outcomes = await runBoth(options as never);
    expect(outcomes).toEqual([
      expect.objectContaining({ reason: 'invalid_body', isGatewayError: true }),
      expect.objectContaining({ reason: 'invalid_body', isGatewayError: true }),
    ]);
  });

  test.each([
    ['negative', -1],
    ['not a number', Number.NaN],
    ['a fraction', 1.5],
    ['infinite', Number.POSITIVE_INFINITY],
    ['a string', '300'],
  ])('a tolerance that is %s is an InvalidOptionError, as the handlers answer it', async (_, value) => {
    const options = base({ toleranceSeconds: value as number });
    expect(() => verifyWebhook(options)).toThrow(InvalidOptionError);
    expect(() => verifyWebhook(options)).toThrow(/toleranceSeconds must be a whole number of 0 or more/);
    await expect(verifyWebhookAsync(options)).rejects.toThrow(InvalidOptionError);
  });

  test('a tolerance of 0 or a whole number of seconds is taken', async () => {
    for (const toleranceSeconds of [0, 300]) {
      const options = base({ toleranceSeconds });
      expect(verifyWebhook(options).id).toBeTypeOf('string');
      expect((await verifyWebhookAsync(options)).id).toBeTypeOf('string');
    }
  });
});

describe('verifyWebhookAsync imports each secret once', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });
  // Secrets of their own: the imported keys outlive a test.
  const secretsOf = (n: number) => ({ [KEY_ID]: `whsec_cache_${n}_0123456789` });
  const signedWith = (secrets: Record<string, string>) =>
    base({ secrets, headers: deliveryHeaders(raw, { secret: secrets[KEY_ID] ?? '' }) });

  test('a secret is imported for its first delivery only, and still checks every signature', async () => {
    const importKey = vi.spyOn(globalThis.crypto.subtle, 'importKey');
    const secrets = secretsOf(1);
    for (let i = 0; i < 3; i++) expect((await verifyWebhookAsync(signedWith(secrets))).id).toBe('evt_0001');
    expect(importKey).toHaveBeenCalledTimes(1);
    // A delivery signed with another secret for the same kid still fails with the kept key.
    await expect(verifyWebhookAsync({ ...signedWith(secrets), secrets: secretsOf(2) })).rejects.toMatchObject(
      {
        reason: 'signature_mismatch',
      },
    );
    expect((await verifyWebhookAsync(signedWith(secrets))).id).toBe('evt_0001');
  });

  test('at most eight keys are kept', async () => {
    const twenty = Array.from({ length: 20 }, (_, i) => secretsOf(10 + i));
    for (const secrets of twenty) await verifyWebhookAsync(signedWith(secrets));
    const importKey = vi.spyOn(globalThis.crypto.subtle, 'importKey');
    for (const secrets of twenty) await verifyWebhookAsync(signedWith(secrets));
    // Of twenty secrets, at most the last eight can still be kept: the first twelve come again.
    expect(importKey.mock.calls.length).toBeGreaterThanOrEqual(12);
  });
});

describe('timestamp messages say what is wrong', () => {
  test.each([
    [
      'an hour old',
      base({ headers: signedAt(String(NOW - 3600)) }),
      'X-Service-Timestamp is 3600 s old, over 300 s',
    ],
    [
      'an hour ahead',
      base({ headers: signedAt(String(NOW + 3600)) }),
      'X-Service-Timestamp is 3600 s ahead, over 300 s',
    ],
    [
      'in milliseconds',
      base({ headers: signedAt(String(NOW * 1000)) }),
      'X-Service-Timestamp is in ms, not Unix seconds',
    ],
    ['now given in milliseconds', base({ now: NOW * 1000 }), 'now is in ms, not Unix seconds'],
  ])('%s', async (_name, options, message) => {
    for (const outcome of await runBoth(options)) {
      expect(outcome.reason).toBe('timestamp_out_of_tolerance');
      expect(outcome.message).toContain(message);
    }
  });

  test.each([
    ['in milliseconds', Date.now()],
    ['NaN', Number.NaN],
    ['negative', -1],
    ['infinite', Number.POSITIVE_INFINITY],
    ['an invalid Date', new Date('not a date')],
    ['a word', 'now'],
  ])('signWebhook refuses a timestamp %s, signing nothing', (_, timestamp) => {
    const sign = () =>
      signWebhook({ body: raw, secret: SECRET, keyId: KEY_ID, timestamp: timestamp as number });
    expect(sign).toThrow(InvalidOptionError);
    expect(sign).toThrow('signWebhook: timestamp must be Unix seconds (not ms) or a valid Date');
  });

  test.each([
    ['0', 0, '0'],
    ['the last second before 1e11', 1e11 - 1, '99999999999'],
    ['a fraction, dropped', NOW + 0.9, String(NOW)],
    ['a Date', new Date(NOW * 1000 + 999), String(NOW)],
  ])('signWebhook signs a timestamp of %s', (_, timestamp, header) => {
    const headers = signWebhook({ body: raw, secret: SECRET, keyId: KEY_ID, timestamp });
    expect(headers['X-Service-Timestamp']).toBe(header);
  });
});
