/**
 * The payloads the gateway delivers to a webhook endpoint.
 * spec: Resources — Webhook event envelope; Events.
 */

/** The `api_version` that webhook payloads carry. spec: Versioning — item 2. */
export const WEBHOOK_API_VERSION = '2026-10-03';

/** Event types that end a task: a wait or a job queue can stop at either. */
export const TERMINAL_TASK_EVENT_TYPES = ['task.completed', 'task.failed'] as const;

/** Fields every event carries. */
interface EventEnvelope {
  /** Event ID, prefix `evt_`. Retries and replays keep it: drop duplicates by it. */
  id: string;
  /** Payload version, {@link WEBHOOK_API_VERSION} today. */
  api_version: string;
  /** Unix time (seconds) the event was created. */
  created_at: number;
}

/** One result file of a completed task. Downloading it needs an API key of the task's account. */
export interface WebhookTaskOutput {
  output_id: string;
  type: 'video' | 'image' | (string & {});
  url: string;
  /** How to authenticate the download: `bearer` (the API key). */
  authentication: 'bearer' | (string & {});
  /**
   * When the URL may stop working. `null` means no guaranteed expiry, not permanent storage:
   * download promptly. The wire type is not fixed by the API, so both forms are allowed.
   */
  expires_at: number | string | null;
}

/** Fields of `data` shared by `task.completed` and `task.failed`. */
interface TaskEventDataBase {
  /** Public task ID. */
  task_id: string;
  /** Model ID, e.g. `vidmodel-2.5`. */
  model: string;
  kind: 'video' | 'image' | (string & {});
  /** The request's `client_reference_id`, echoed when one was sent. */
  client_reference_id?: string;
  /** Unix time (seconds) the task finished. */
  completed_at: number;
  /** URL of the task query; the task API stays authoritative. */
  task_url: string;
  /** Present on Midjourney-family child events. */
  batch_id?: string;
}

/** `data` of a `task.completed` event. Image events carry every available output. */
export interface TaskCompletedData extends TaskEventDataBase {
  status: 'completed';
  result: { outputs: WebhookTaskOutput[] };
  error: null;
}

/** `data` of a `task.failed` event (provider-confirmed failure or gateway task timeout). */
export interface TaskFailedData extends TaskEventDataBase {
  status: 'failed';
  result: null;
  error: { code: 'generation_failed' | (string & {}); message: string };
}

/** A tracked task completed. */
export interface TaskCompletedEvent extends EventEnvelope {
  type: 'task.completed';
  data: TaskCompletedData;
}

/** A tracked task failed. The charge is refunded; events do not show that settlement is finished. */
export interface TaskFailedEvent extends EventEnvelope {
  type: 'task.failed';
  data: TaskFailedData;
}

/** All child tasks of a Midjourney-family batch are finished (sent only when subscribed). */
export interface BatchCompletedEvent extends EventEnvelope {
  type: 'batch.completed';
  data: {
    batch_id: string;
    status: 'completed' | 'partial_failure' | 'failed';
    /** Counts by name. The API does not fix the counter names, so the record is open. */
    summary: Record<string, number | unknown>;
    model?: string;
    client_reference_id?: string;
    completed_at?: number;
  };
}

/**
 * Sent when an endpoint's verify operation is called. The handlers answer it with
 * `{"challenge": <value>}` themselves and do not pass it to `onEvent`.
 */
export interface EndpointVerificationEvent extends EventEnvelope {
  type: 'webhook.endpoint_verification';
  data: { challenge: string };
}

/** A `task.completed` or `task.failed` event. */
export type TaskEvent = TaskCompletedEvent | TaskFailedEvent;

/**
 * A verified webhook event, discriminated on `type`.
 *
 * Verification checks the signature and that the body is a JSON object with a string `id`
 * and `type`; it does not check the rest of the shape, so an event type added by a later API
 * version is passed through as it came. Keep a `default` branch when switching on `type`.
 *
 * @example
 * switch (event.type) {
 *   case 'task.completed': save(event.data.task_id, event.data.result.outputs); break;
 *   case 'task.failed': markFailed(event.data.task_id, event.data.error.message); break;
 *   default: break; // batch.completed, or a type this SDK version does not know
 * }
 */
export type WebhookEvent =
  | TaskCompletedEvent
  | TaskFailedEvent
  | BatchCompletedEvent
  | EndpointVerificationEvent;

/**
 * The events a request handler passes to `onEvent`: every event but the endpoint
 * verification, which the handler answers itself.
 */
export type HandledWebhookEvent = Exclude<WebhookEvent, EndpointVerificationEvent>;

/** The `type` values this SDK version knows. */
export type WebhookEventType = WebhookEvent['type'];
