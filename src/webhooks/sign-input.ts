/**
 * The parts of signing shared by `signWebhook` and `signWebhookAsync`: everything but the HMAC.
 * spec: Authentication — items 5-6.
 */
import { MediaGatewayError } from '../core/base-error.js';
import { InvalidOptionError } from '../core/options.js';
import { bodyBytes, bytesToHex, parseJson, signedPayload, type WebhookBody } from './signature.js';

/** Options of `signWebhook` and `signWebhookAsync`. */
export interface SignWebhookOptions {
  /** The exact body that will be sent: a string (sent as UTF-8) or bytes. */
  body: string | Uint8Array | ArrayBuffer;
  /** The signing secret. */
  secret: string;
  /** The key ID of `secret`, sent as `kid`. */
  keyId: string;
  /** Unix seconds (0 or more) or a valid `Date`; fractions are dropped. @default now */
  timestamp?: number | Date | undefined;
  /** `X-Service-Event-ID`. @default the body's `id` */
  eventId?: string | undefined;
  /** `X-Service-Delivery-ID`. @default `dlv_` followed by 24 random hex digits */
  deliveryId?: string | undefined;
}

/** The headers the gateway sends with each delivery; usable as `HeadersInit` and as Node headers. */
export type WebhookSignatureHeaders = {
  /** The event ID; equals the body's `id`. */
  'X-Service-Event-ID': string;
  /** New per attempt, prefix `dlv_`. */
  'X-Service-Delivery-ID': string;
  /** Unix seconds, new per attempt; part of the signed payload. */
  'X-Service-Timestamp': string;
  /** `v1=<hex HMAC-SHA256 of "<timestamp>.<body>">,kid=<key_id>`. */
  'X-Service-Signature': string;
};

/** A signing request with its payload resolved; `headers(hex)` builds the final headers. */
export interface PreparedSigning {
  /** The signed payload: `<timestamp>.<raw body>`. */
  payload: Uint8Array<ArrayBuffer>;
  /** The secret. */
  secret: string;
  /** Builds the four delivery headers from the hex signature. */
  headers(signatureHex: string): WebhookSignatureHeaders;
}

/**
 * Resolves the defaults of a signing request.
 * @throws {MediaGatewayError} when the body is not text or bytes, the secret or key ID is
 * empty, or no `eventId` is given and the body has no string `id`.
 * @throws {InvalidOptionError} when `timestamp` is not Unix seconds of 0 or more (a number in
 * milliseconds, NaN, an invalid Date).
 */
export function prepareSigning(options: SignWebhookOptions): PreparedSigning {
  // Called with no options at all (plain JavaScript), the body is what is refused first.
  options = Object(options);
  const { body, secret, keyId } = options;
  let bytes: Uint8Array;
  try {
    bytes = bodyBytes(body as WebhookBody);
  } catch {
    throw new MediaGatewayError('signWebhook: body must be the string or bytes to send');
  }
  if (!secret || !keyId) throw new MediaGatewayError('signWebhook: secret and keyId are required');
  let eventId = options.eventId;
  if (eventId === undefined) {
    eventId = (parseJson(bytes) as { id?: string } | null | undefined)?.id;
    if (typeof eventId !== 'string')
      throw new MediaGatewayError('signWebhook: give eventId; the body has no "id"');
  }
  const time = options.timestamp ?? new Date();
  const seconds = Math.floor(time instanceof Date ? time.getTime() / 1000 : time);
  // Below 1e11: a time in milliseconds is refused rather than signed as a date in the year 5000.
  if (!(seconds >= 0 && seconds < 1e11))
    throw new InvalidOptionError('signWebhook: timestamp', time, 'Unix seconds (not ms) or a valid Date');
  const timestamp = String(seconds);
  const deliveryId = options.deliveryId ?? `dlv_${bytesToHex(crypto.getRandomValues(new Uint8Array(12)))}`;
  return {
    payload: signedPayload(timestamp, bytes),
    secret,
    headers: (hex) => ({
      'X-Service-Event-ID': eventId,
      'X-Service-Delivery-ID': deliveryId,
      'X-Service-Timestamp': timestamp,
      'X-Service-Signature': `v1=${hex},kid=${keyId}`,
    }),
  };
}
