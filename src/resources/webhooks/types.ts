/** A registered endpoint, as `endpoints.create` returns it. */
export interface EndpointCreated {
  endpoint: { id: string; key_id: string; [key: string]: unknown };
  /** Shown once: store it now (for example in your secret manager); it cannot be read again. */
  signing_secret: string;
  _requestId?: string | undefined;
  [key: string]: unknown;
}

/**
 * An answer whose body the gateway's document does not show (verify, update, rotate-secret,
 * capabilities, events, deliveries, redeliver): kept as received.
 */
export interface WebhookManagementResponse {
  _requestId?: string | undefined;
  [key: string]: unknown;
}
