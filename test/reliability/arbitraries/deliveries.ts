/**
 * Webhook deliveries for the verifier properties: random and hostile headers and bodies, and
 * signed deliveries with one thing tampered. Each comes with what a correct receiver must
 * conclude, computed here with `node:crypto` independently of the SDK.
 */
import { createHmac } from 'node:crypto';
import fc from 'fast-check';

/** A fixed "now", Unix seconds. */
export const NOW = 1_790_000_000;
export const SECRETS = { kid_current: 'whsec_current_0123456789', kid_previous: 'whsec_previous_9876543210' };
const KEY_IDS = Object.keys(SECRETS) as Array<keyof typeof SECRETS>;

/** A delivery: the logical header values (before they are put in a container) and the raw body. */
export interface Delivery {
  eventId: string | undefined;
  timestamp: string | undefined;
  signature: string | undefined;
  body: string | Uint8Array;
  /** How the headers are handed over. */
  container: 'lower' | 'mixed' | 'fetch' | 'array';
  /** Unrelated headers sent alongside. */
  noise: Record<string, string>;
}

/** The HMAC-SHA256 hex the gateway would send. spec: Authentication — item 6. */
export function hmacHex(secret: string, timestamp: string, body: string | Uint8Array): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex');
}

const NAMES = {
  eventId: 'X-Service-Event-ID',
  timestamp: 'X-Service-Timestamp',
  signature: 'X-Service-Signature',
} as const;

/** The headers of a delivery, in the container it asks for. */
export function headersOf(delivery: Delivery): Record<string, string | string[]> | Headers {
  const pairs = (Object.keys(NAMES) as Array<keyof typeof NAMES>)
    .filter((key) => delivery[key] !== undefined)
    .map((key) => [NAMES[key], delivery[key] as string] as const);
  if (delivery.container === 'fetch') {
    const headers = new Headers();
    for (const [name, value] of Object.entries(delivery.noise)) headers.set(name, value);
    for (const [name, value] of pairs) headers.set(name, value);
    return headers;
  }
  const out: Record<string, string | string[]> = { ...delivery.noise };
  for (const [name, value] of pairs) {
    if (delivery.container === 'lower') out[name.toLowerCase()] = value;
    else if (delivery.container === 'mixed') out[name] = value;
    else out[name.toLowerCase()] = [value, 'v1=0,kid=ignored'];
  }
  return out;
}

/** Whether a receiver must accept the delivery: every check of the spec passes. */
export function mustAccept(delivery: Delivery, now = NOW): boolean {
  const trim = (value: string | undefined) => value?.trim() || undefined;
  const [eventId, timestamp, header] = [
    trim(delivery.eventId),
    trim(delivery.timestamp),
    trim(delivery.signature),
  ];
  if (!eventId || !timestamp || !header || !/^\d{1,15}$/.test(timestamp)) return false;
  if (Math.abs(now - Number(timestamp)) > 300) return false;
  // `v1=<64 lowercase hex>,kid=<key_id>`, in any order, spaces allowed; a repeated or bare field is malformed.
  const parts = header.split(',').filter((part) => part.trim());
  if (parts.some((part) => !part.includes('='))) return false;
  const fields = new Map(
    parts.map((part) => [part.slice(0, part.indexOf('=')).trim(), part.slice(part.indexOf('=') + 1).trim()]),
  );
  if (fields.size !== parts.length) return false;
  const kid = fields.get('kid') as keyof typeof SECRETS | undefined;
  if (!kid || !Object.hasOwn(SECRETS, kid)) return false;
  if (fields.get('v1') !== hmacHex(SECRETS[kid], timestamp, delivery.body)) return false;
  let event: unknown;
  try {
    event = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytesOf(delivery.body)));
  } catch {
    return false;
  }
  const e = event as { id?: unknown; type?: unknown } | null;
  return !!e && typeof e === 'object' && typeof e.type === 'string' && e.id === eventId;
}

function bytesOf(body: string | Uint8Array): Uint8Array {
  return typeof body === 'string' ? new TextEncoder().encode(body) : body;
}

/** A JSON event body with its id. */
export const eventBody = fc
  .record({
    id: fc.stringMatching(/^evt_[a-z0-9]{1,20}$/),
    type: fc.constantFrom(
      'task.completed',
      'task.failed',
      'batch.completed',
      'webhook.endpoint_verification',
    ),
    data: fc.jsonValue(),
    indent: fc.constantFrom(0, 2),
  })
  .map(({ indent, ...event }) => ({ id: event.id, text: JSON.stringify(event, null, indent) }));

const anyBody = fc.oneof(
  { arbitrary: eventBody.map((e) => e.text), weight: 6 },
  fc.string({ unit: 'binary' }),
  fc.uint8Array({ maxLength: 200 }),
  fc.jsonValue().map((v) => JSON.stringify(v) ?? ''),
);

const timestamp = fc.oneof(
  { arbitrary: fc.integer({ min: -300, max: 300 }).map((skew) => String(NOW + skew)), weight: 6 },
  fc.integer({ min: 301, max: 10_000_000 }).map((skew) => String(NOW - skew)),
  fc.constantFrom(` ${NOW} `, `${NOW}.5`, `+${NOW}`, '0', '9'.repeat(16), '', '   ', `${NOW}\n`),
  fc.string(),
);

const noise = fc.dictionary(
  fc.stringMatching(/^x-[a-z]{1,10}$/),
  fc.string({ unit: 'grapheme-ascii', maxLength: 20 }),
  { maxKeys: 3 },
);

/** Random, hostile and sometimes correctly signed deliveries. */
export const anyDelivery: fc.Arbitrary<Delivery> = fc
  .record({
    body: anyBody,
    timestamp: fc.option(timestamp, { nil: undefined, freq: 10 }),
    eventId: fc.oneof(
      { arbitrary: fc.constant('from-body'), weight: 6 },
      fc.string(),
      fc.constant(undefined),
    ),
    kid: fc.oneof({ arbitrary: fc.constantFrom(...KEY_IDS), weight: 6 }, fc.string()),
    signature: fc.oneof(
      { arbitrary: fc.constantFrom('valid', 'reordered', 'extra-field'), weight: 6 },
      fc.constantFrom('valid-upper', 'wrong-secret', 'random-hex', 'garbage', 'missing', 'repeated'),
    ),
    hex: fc.stringMatching(/^[0-9a-f]{64}$/),
    garbage: fc.string(),
    container: fc.constantFrom<Delivery['container']>('lower', 'mixed', 'fetch', 'array'),
    noise,
  })
  .map((g) => {
    const ts = g.timestamp ?? String(NOW);
    const secret = Object.hasOwn(SECRETS, g.kid) ? SECRETS[g.kid as keyof typeof SECRETS] : 'whsec_other';
    const valid = hmacHex(secret, ts, g.body);
    const signature = {
      valid: `v1=${valid},kid=${g.kid}`,
      'valid-upper': `v1=${valid.toUpperCase()},kid=${g.kid}`,
      'wrong-secret': `v1=${hmacHex('whsec_wrong', ts, g.body)},kid=${g.kid}`,
      'random-hex': `v1=${g.hex},kid=${g.kid}`,
      garbage: g.garbage,
      missing: undefined,
      reordered: ` kid=${g.kid} , v1=${valid} `,
      'extra-field': `v1=${valid},kid=${g.kid},v0=abc`,
      repeated: `v1=${g.hex},v1=${valid},kid=${g.kid}`,
    }[g.signature];
    let eventId: string | undefined = g.eventId;
    if (eventId === 'from-body') {
      try {
        const parsed = JSON.parse(typeof g.body === 'string' ? g.body : new TextDecoder().decode(g.body));
        eventId = typeof parsed?.id === 'string' ? parsed.id : 'evt_none';
      } catch {
        eventId = 'evt_none';
      }
    }
    return {
      body: g.body,
      timestamp: g.timestamp,
      eventId,
      signature,
      container: g.container,
      noise: g.noise,
    };
  });

/** One change to a correctly signed delivery. */
export type Tamper =
  | 'none'
  | 'body-byte'
  | 'timestamp'
  | 'signature-digit'
  | 'other-kid'
  | 'unknown-kid'
  | 'stale'
  | 'event-id';

/** Correctly signed deliveries of valid events, each with one thing changed (or none). */
export const tamperedDelivery: fc.Arbitrary<{ delivery: Delivery; tamper: Tamper }> = fc
  .record({
    event: eventBody,
    kid: fc.constantFrom(...KEY_IDS),
    skew: fc.integer({ min: -300, max: 300 }),
    tamper: fc.constantFrom<Tamper>(
      'none',
      'body-byte',
      'timestamp',
      'signature-digit',
      'other-kid',
      'unknown-kid',
      'stale',
      'event-id',
    ),
    at: fc.nat(),
    container: fc.constantFrom<Delivery['container']>('lower', 'mixed', 'fetch', 'array'),
    asBytes: fc.boolean(),
  })
  .map(({ event, kid, skew, tamper, at, container, asBytes }) => {
    let ts = String(NOW + skew);
    let body = event.text;
    const signed = hmacHex(SECRETS[kid], ts, body);
    let signature = `v1=${signed},kid=${kid}`;
    let eventId = event.id;
    if (tamper === 'body-byte') {
      const i = at % body.length;
      body = body.slice(0, i) + (body[i] === ' ' ? '\t' : ' ') + body.slice(i + 1);
    }
    if (tamper === 'timestamp') ts = String(NOW + skew + (skew > 0 ? -1 : 1));
    if (tamper === 'signature-digit') {
      const i = 3 + (at % 64);
      signature = signature.slice(0, i) + (signature[i] === '0' ? '1' : '0') + signature.slice(i + 1);
    }
    if (tamper === 'other-kid') signature = `v1=${signed},kid=${KEY_IDS.find((k) => k !== kid)}`;
    if (tamper === 'unknown-kid') signature = `v1=${signed},kid=kid_unknown`;
    if (tamper === 'stale') {
      ts = String(NOW - 301 - (at % 10_000));
      signature = `v1=${hmacHex(SECRETS[kid], ts, body)},kid=${kid}`;
    }
    if (tamper === 'event-id') eventId = `${event.id}x`;
    const delivery: Delivery = {
      body: asBytes ? new TextEncoder().encode(body) : body,
      timestamp: ts,
      eventId,
      signature,
      container,
      noise: {},
    };
    return { delivery, tamper };
  });
