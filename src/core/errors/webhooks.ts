// A webhook delivery that failed verification.
import { ERROR_BRAND, MediaGatewayError } from '../base-error.js';

/**
 * Why a delivery failed verification.
 * - `missing_header`: one of `X-Service-Event-ID`, `X-Service-Timestamp`, `X-Service-Signature` is absent or empty.
 * - `malformed_signature`: `X-Service-Signature` is not `v1=<64 lowercase hex>,kid=<key_id>`.
 * - `timestamp_out_of_tolerance`: `X-Service-Timestamp` is not integer Unix seconds, or too far from now,
 *   or the clock gave no usable time (`NaN`, an invalid `Date`).
 * - `unknown_key`: no secret was given for the signature's `kid`.
 * - `signature_mismatch`: wrong secret, or the body is not the raw bytes as sent.
 * - `event_id_mismatch`: `X-Service-Event-ID` differs from the body's `id`.
 * - `invalid_body`: the body is not raw text or bytes (for example a parsed object), not UTF-8,
 *   or not a JSON object with a string `id` and `type`.
 *
 * The request handlers refuse a delivery for three more reasons, told to `onError` only:
 * - `method_not_allowed`: a method other than POST (answered 405);
 * - `body_too_large`: a body over `maxBodyBytes` (answered 413);
 * - `body_timeout`: a body not received within `bodyTimeoutMs` (Node handler, answered 408).
 */
export type WebhookVerificationReason =
  | 'missing_header'
  | 'malformed_signature'
  | 'timestamp_out_of_tolerance'
  | 'unknown_key'
  | 'signature_mismatch'
  | 'event_id_mismatch'
  | 'invalid_body'
  | 'method_not_allowed'
  | 'body_too_large'
  | 'body_timeout';

/**
 * A webhook delivery failed verification: do not trust its content. The request handlers
 * answer it with HTTP 400. `reason` says which check failed; the message says what to do.
 *
 * @example
 * try { verifyWebhook({ body, headers, secrets }) }
 * catch (e) { if (e instanceof WebhookVerificationError) console.warn(e.reason, e.message) }
 */
export class WebhookVerificationError extends MediaGatewayError {
  /** @internal Its brand, a static field: this class is in the small entries (see `brand`). */
  static override readonly [ERROR_BRAND]: string = 'WebhookVerificationError';
  /** Always `'WebhookVerificationError'`. */
  declare readonly name: 'WebhookVerificationError';
  /** Which check failed. */
  declare readonly reason: WebhookVerificationReason;

  /**
   * @param reason - which check failed.
   * @param message - what was wrong and what to do; prefixed with the reason.
   */
  constructor(reason: WebhookVerificationReason, message: string) {
    super(`webhook verification failed (${reason}): ${message}`);
    this.reason = reason;
  }
}
