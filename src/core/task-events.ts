/**
 * The part of a webhook event that waits read. The full, discriminated event types live in
 * `mediagw/webhooks`; this structural type keeps the client free of that entry.
 */
export interface WebhookEventLike {
  id?: string | undefined;
  type: string;
  data?: { task_id?: string | undefined; status?: string | undefined } | undefined;
}
