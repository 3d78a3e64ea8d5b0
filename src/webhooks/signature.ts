/**
 * The checks shared by the Node and Web Crypto verifiers and signers: header reading,
 * signature-header parsing, timestamp tolerance, secrets, body bytes and event parsing.
 * Pure functions with no `node:` import and no crypto, so both verifiers agree on every case.
 * spec: Authentication — items 4-6.
 */
import { MediaGatewayError } from '../core/base-error.js';
import { WebhookVerificationError } from '../core/errors/webhooks.js';
import { checkCount } from '../core/options.js';
import type { WebhookEvent } from './events.js';

/** Header names of a delivery, as the gateway sends them. */
export const WEBHOOK_HEADERS = {
  /** Event ID; must equal the body's `id`. */
  eventId: 'X-Service-Event-ID',
  /** New per attempt, prefix `dlv_`. */
  deliveryId: 'X-Service-Delivery-ID',
  /** Unix seconds, new per attempt. */
  timestamp: 'X-Service-Timestamp',
  /** `v1=<hex_hmac>,kid=<key_id>`. */
  signature: 'X-Service-Signature',
} as const;

/**
 * Request headers: a Fetch `Headers`, anything with `get(name)`, or a Node
 * `IncomingHttpHeaders`-like record (names matched case-insensitively; of an array, the first value).
 */
export type WebhookHeaders =
  | {
      /** Returns a header's value by name, case-insensitively. */
      get(name: string): string | null | undefined;
    }
  | Readonly<Record<string, string | readonly string[] | undefined>>;

/**
 * Signing secrets by key ID: `{ [keyId]: secret }` or `[{ keyId, secret }]`. The key ID is the
 * endpoint's `key_id`. During a rotation give both the current and the previous pair.
 */
export type WebhookSecrets =
  | Readonly<Record<string, string>>
  | ReadonlyArray<{
      /** The endpoint's `key_id`, matched against the signature's `kid`. */
      keyId: string;
      /** The signing secret of that key ID. */
      secret: string;
    }>;

/** The raw body exactly as received: text, or bytes (`Uint8Array`, `Buffer`, `ArrayBuffer`). */
export type WebhookBody = string | Uint8Array | ArrayBuffer | ArrayBufferView;

/** Options of `verifyWebhook` and `verifyWebhookAsync`. */
export interface VerifyWebhookOptions {
  /** The raw body as received. A parsed object is refused: the signature covers the exact bytes. */
  body: WebhookBody;
  /** The request's headers. */
  headers: WebhookHeaders;
  /** Secrets by key ID; the signature's `kid` picks one. */
  secrets: WebhookSecrets;
  /**
   * Largest accepted difference between `X-Service-Timestamp` and now, either way, in whole
   * seconds (0 or more). @default 300
   */
  toleranceSeconds?: number | undefined;
  /** The current time: Unix seconds, or a `Date`. @default the system clock */
  now?: number | Date | undefined;
}

/**
 * The key under which a handler passes its `toleranceSeconds` to the verifiers, checked once
 * when the handler was created; a delivery then skips the check that each call of
 * `verifyWebhook` makes. A symbol of this module, so no caller's option can stand for it.
 */
export const CHECKED_TOLERANCE: unique symbol = Symbol();

/** The options of a verification, as a handler gives them. */
export interface CheckedVerifyOptions extends VerifyWebhookOptions {
  /** `toleranceSeconds`, checked already. */
  [CHECKED_TOLERANCE]?: number | undefined;
}

const encoder = new TextEncoder();
/** The UTF-8 bytes of `text`. */
export const utf8 = (text: string): Uint8Array<ArrayBuffer> => encoder.encode(text);
// One decoder for every call: constructing one costs more than decoding a 2 KB body, and a
// non-streaming decode() starts from a clean state.
const strictDecoder = new TextDecoder(undefined, { fatal: true });
const quote = (text: string) => JSON.stringify(text.slice(0, 64));

/** Reads one header, trimmed; `undefined` when absent or empty. */
export function readHeader(headers: WebhookHeaders, name: string): string | undefined {
  let value: unknown;
  if (typeof headers.get === 'function') value = headers.get(name);
  else {
    const lower = name.toLowerCase();
    // Node lowercases header names; any other spelling is found by a scan.
    const key = Object.hasOwn(headers, lower)
      ? lower
      : Object.keys(headers).find((k) => k.toLowerCase() === lower);
    value = key && (headers as Record<string, unknown>)[key];
  }
  if (Array.isArray(value)) value = value[0];
  return (typeof value === 'string' && value.trim()) || undefined;
}

/**
 * Parses `X-Service-Signature` (`v1=<hex>,kid=<key_id>`), in any order, spaces allowed.
 * Fields other than `v1` and `kid` are ignored.
 * @throws {WebhookVerificationError} `malformed_signature` when a field is not key=value or is
 * repeated, `kid` is missing or empty, or `v1` is not exactly 64 lowercase hex digits.
 */
export function parseSignatureHeader(value: string): { signature: string; keyId: string } {
  // The form the gateway sends, read as the general parse below reads it, without its cost.
  const canonical = /^v1=([0-9a-f]{64}),kid=([^,\s]+)$/.exec(value);
  if (canonical) return { signature: canonical[1] as string, keyId: canonical[2] as string };
  const fields = new Map<string, string>();
  let wellFormed = true;
  for (const part of value.split(',')) {
    if (!part.trim()) continue;
    const at = part.indexOf('=');
    const key = part.slice(0, at).trim();
    if (at < 0 || fields.has(key)) wellFormed = false;
    fields.set(key, part.slice(at + 1).trim());
  }
  const signature = fields.get('v1');
  const keyId = fields.get('kid');
  // Strict: the gateway sends 64 lowercase hex digits; anything else is not its signature.
  if (!wellFormed || !keyId || !signature || !/^[0-9a-f]{64}$/.test(signature)) {
    throw new WebhookVerificationError(
      'malformed_signature',
      `X-Service-Signature ${quote(value)} is not v1=<64 lowercase hex>,kid=<key_id>`,
    );
  }
  return { signature, keyId };
}

/**
 * Checks `X-Service-Timestamp`: integer Unix seconds, at most `toleranceSeconds` (checked
 * already) from `now` in either direction.
 * @throws {WebhookVerificationError} `timestamp_out_of_tolerance`, also when `now` (or the
 * system clock) is not a finite time.
 */
export function checkTimestamp(text: string, toleranceSeconds = 300, now?: number | Date): void {
  if (!/^\d{1,15}$/.test(text)) {
    throw new WebhookVerificationError(
      'timestamp_out_of_tolerance',
      `X-Service-Timestamp ${quote(text)} is not integer Unix seconds`,
    );
  }
  const seconds = now instanceof Date ? now.getTime() / 1000 : (now ?? Date.now() / 1000);
  const skew = seconds - Number(text);
  // Fails closed: written so that NaN (an invalid Date, a broken clock) is never within tolerance.
  if (!(Math.abs(skew) <= toleranceSeconds)) {
    // Past 1e11 s (the year 5138), a time is surely in milliseconds.
    const inMs = +text > 1e11 ? 'X-Service-Timestamp' : seconds > 1e11 ? 'now' : '';
    throw new WebhookVerificationError(
      'timestamp_out_of_tolerance',
      inMs
        ? `${inMs} is in ms, not Unix seconds`
        : `X-Service-Timestamp is ${Math.round(Math.abs(skew))} s ${skew > 0 ? 'old' : 'ahead'}, over ${toleranceSeconds} s; check the clock`,
    );
  }
}

/**
 * Turns either secrets form into a map of key ID to secret.
 * @throws {MediaGatewayError} when no usable secret is given.
 */
export function normalizeSecrets(secrets: WebhookSecrets): Map<string, string> {
  // `{ [process.env.KID!]: secret }` with the variable unset gives the key ID "undefined".
  const usage =
    'secrets must be { [keyId]: secret } or [{ keyId, secret }], not empty: is each environment variable set?';
  if (!secrets || typeof secrets !== 'object') throw new MediaGatewayError(usage);
  const map = new Map<string, string>();
  const pairs = Array.isArray(secrets)
    ? secrets.map((s: { keyId?: unknown; secret?: unknown }) => [s?.keyId, s?.secret])
    : Object.entries(secrets);
  for (const [keyId, secret] of pairs) {
    if (
      typeof keyId !== 'string' ||
      !keyId ||
      keyId === 'undefined' ||
      typeof secret !== 'string' ||
      !secret
    ) {
      throw new MediaGatewayError(usage);
    }
    map.set(keyId, secret);
  }
  if (!map.size) throw new MediaGatewayError(usage);
  return map;
}

/**
 * The secret of `keyId`, or `undefined`. A record with a usable secret for it is read directly,
 * the usual case on every delivery; anything else goes through {@link normalizeSecrets}.
 * @throws {MediaGatewayError} when no usable secret is given.
 */
export function secretFor(secrets: WebhookSecrets, keyId: string): string | undefined {
  // Own entries only: `kid=toString` or `kid=__proto__` must not reach Object.prototype, nor a
  // key a polluted prototype holds. An array's own entries are objects, not strings.
  const secret =
    secrets && typeof secrets === 'object' && Object.hasOwn(secrets, keyId)
      ? (secrets as Record<string, unknown>)[keyId]
      : undefined;
  if (typeof secret === 'string' && secret) return secret;
  return normalizeSecrets(secrets).get(keyId);
}

/**
 * The body as bytes: a string is UTF-8 encoded, bytes are used as they are.
 * @throws {WebhookVerificationError} `invalid_body` for anything else, such as a parsed object.
 */
export function bodyBytes(body: WebhookBody): Uint8Array {
  if (typeof body === 'string') return utf8(body);
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  if (ArrayBuffer.isView(body)) return new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
  throw new WebhookVerificationError(
    'invalid_body',
    'the body must be the raw string or bytes as received, not a parsed object',
  );
}

/** The signed bytes: the timestamp text, a literal `.`, and the raw body. spec: Authentication — item 6. */
export function signedPayload(timestamp: string, body: Uint8Array): Uint8Array<ArrayBuffer> {
  return concatBytes([utf8(`${timestamp}.`), body]);
}

/** Joins byte chunks into one new array. */
export function concatBytes(chunks: readonly Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(chunks.reduce((size, chunk) => size + chunk.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

/** Decodes hex of even length, at least two digits (a checked `v1` signature). */
export const hexToBytes = (hex: string): Uint8Array<ArrayBuffer> =>
  Uint8Array.from(hex.match(/../g) as string[], (pair) => parseInt(pair, 16));

/** Encodes bytes as lowercase hex. */
export function bytesToHex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** The body parsed as strict UTF-8 JSON, or `undefined` when it is not. */
export function parseJson(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(strictDecoder.decode(bytes));
  } catch {
    return undefined;
  }
}

/** What a verifier needs after the header checks, before comparing the signature. */
export interface PreparedVerification {
  /** The raw body. */
  bytes: Uint8Array;
  /** `X-Service-Timestamp`, as signed: the payload is `<timestamp>.<raw body>`. */
  timestamp: string;
  /** The secret of the signature's `kid`. */
  secret: string;
  /** The `v1` hex signature. */
  signature: string;
  /** The signature's `kid`. */
  keyId: string;
  /** `X-Service-Event-ID`. */
  eventId: string;
}

/**
 * Runs every check that comes before the HMAC: body form, headers, signature header,
 * `toleranceSeconds` (unless a handler checked it), timestamp and key ID, in that order.
 * @throws {WebhookVerificationError}
 * @throws {InvalidOptionError} when `toleranceSeconds` is not a whole number of 0 or more, as
 * the handlers refuse it.
 */
export function prepareVerification(options: CheckedVerifyOptions): PreparedVerification {
  // Called with no options at all (plain JavaScript), every check reads as absent.
  options = Object(options);
  const bytes = bodyBytes(options.body);
  const names = [WEBHOOK_HEADERS.eventId, WEBHOOK_HEADERS.timestamp, WEBHOOK_HEADERS.signature];
  // No headers at all (a serverless event's `headers: null`) reads as every header missing.
  const values = names.map((name) => readHeader(Object(options.headers), name));
  const [eventId, timestamp, header] = values;
  if (!eventId || !timestamp || !header) {
    throw new WebhookVerificationError(
      'missing_header',
      `${names.filter((_, i) => !values[i]).join(', ')} missing`,
    );
  }
  const parsed = parseSignatureHeader(header);
  checkTimestamp(
    timestamp,
    options[CHECKED_TOLERANCE] ?? checkCount('toleranceSeconds', options.toleranceSeconds, 0),
    options.now,
  );
  const secret = secretFor(options.secrets, parsed.keyId);
  if (secret === undefined) {
    throw new WebhookVerificationError(
      'unknown_key',
      `no secret for kid ${quote(parsed.keyId)}; in a rotation give both`,
    );
  }
  return { bytes, timestamp, secret, eventId, ...parsed };
}

/** The `signature_mismatch` error, with a hint when the body looks re-serialized. */
export function signatureMismatch(prepared: PreparedVerification): WebhookVerificationError {
  const indented =
    parseJson(prepared.bytes) !== undefined && /\n\s/.test(strictDecoder.decode(prepared.bytes));
  return new WebhookVerificationError(
    'signature_mismatch',
    `${indented ? 'the body was parsed and re-serialized' : `wrong secret for kid ${quote(prepared.keyId)}, or the body changed`}; pass the raw body`,
  );
}

/**
 * Parses the verified body and checks that `X-Service-Event-ID` equals its `id`.
 * @throws {WebhookVerificationError} `invalid_body` or `event_id_mismatch`
 */
export function parseEvent(prepared: Pick<PreparedVerification, 'bytes' | 'eventId'>): WebhookEvent {
  const value = parseJson(prepared.bytes) as { id?: unknown; type?: unknown } | null | undefined;
  // Of a JSON value, only an object has an `id` (null and `undefined`, read with `?.`, have none).
  if (typeof value?.id !== 'string' || typeof value.type !== 'string') {
    throw new WebhookVerificationError(
      'invalid_body',
      'the body is not a JSON object with string id and type',
    );
  }
  if (value.id !== prepared.eventId) {
    throw new WebhookVerificationError(
      'event_id_mismatch',
      `X-Service-Event-ID ${quote(prepared.eventId)} is not the body's id ${quote(value.id)}`,
    );
  }
  return value as WebhookEvent;
}
