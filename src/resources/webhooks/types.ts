/** A registered endpoint, as `endpoints.create` returns it. */
export interface EndpointCreated {
  /** The endpoint record; its other fields are not fixed by the document. */
  endpoint: {
    /** Endpoint ID, prefix `whep_`: name it in `notifications.webhook.endpoint_id`. */
    id: string;
    /** Key ID of the signing secret: the `kid` in `X-Service-Signature`. */
    key_id: string;
    [key: string]: unknown;
  };
  /** Shown once: store it now (for example in your secret manager); it cannot be read again. */
  signing_secret: string;
  /** `X-Service-Request-Id` of the answer (not enumerable). */
  _requestId?: string | undefined;
  /** Any other field, kept as sent. */
  [key: string]: unknown;
}

/**
 * An answer whose body the gateway's document does not show (verify, update, rotate-secret,
 * capabilities, events, deliveries, redeliver): kept as received.
 */
export interface WebhookManagementResponse {
  /** `X-Service-Request-Id` of the answer (not enumerable). */
  _requestId?: string | undefined;
  /** The body's fields, as received. */
  [key: string]: unknown;
}

/**
 * The answer of `endpoints.rotateSecret`. The gateway's document promises a new secret and key
 * ID but does not show the body, so both are optional here: check them before storing.
 */
export interface SecretRotation extends WebhookManagementResponse {
  /** The new signing secret, shown once. */
  signing_secret?: string | undefined;
  /** The new key ID (`kid`). The previous pair stays valid for 24 hours. */
  key_id?: string | undefined;
}
