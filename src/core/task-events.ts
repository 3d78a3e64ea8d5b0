/**
 * The part of a webhook event that waits read. The full, discriminated event types live in
 * `mediagw/webhooks`; this structural type keeps the client free of that entry.
 */
export interface WebhookEventLike {
  /** The event ID (`evt_...`). */
  id?: string | undefined;
  /** The event type; waits act on `task.completed` and `task.failed` only. */
  type: string;
  /** The event's data: the task it is about and its status. */
  data?:
    | {
        /** Public task ID. */
        task_id?: string | undefined;
        /** `completed` or `failed`. */
        status?: string | undefined;
      }
    | undefined;
}
