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
  /** ID of this output within the task. */
  output_id: string;
  /** `video` or `image`. */
  type: 'video' | 'image' | (string & {});
  /** Download URL; send `Authorization: Bearer <API key>` of the task's account. It may answer 410 once expired. */
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
  /** `video` or `image`. */
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
  /** Always `completed`. */
  status: 'completed';
  /** The task's results. */
  result: {
    /** Every available output (image events list every image). */
    outputs: WebhookTaskOutput[];
  };
  /** Always `null` on success. */
  error: null;
}

/** `data` of a `task.failed` event (provider-confirmed failure or gateway task timeout). */
export interface TaskFailedData extends TaskEventDataBase {
  /** Always `failed`. */
  status: 'failed';
  /** Always `null`: a failed task has no outputs. */
  result: null;
  /** Why it failed. */
  error: {
    /** `generation_failed`. */
    code: 'generation_failed' | (string & {});
    /** A description of the failure. */
    message: string;
  };
}

/** A tracked task completed. */
export interface TaskCompletedEvent extends EventEnvelope {
  /** `task.completed`. */
  type: 'task.completed';
  /** The task and its outputs. */
  data: TaskCompletedData;
}

/** A tracked task failed. The charge is refunded; events do not show that settlement is finished. */
export interface TaskFailedEvent extends EventEnvelope {
  /** `task.failed`. */
  type: 'task.failed';
  /** The task and its error. */
  data: TaskFailedData;
}

/** All child tasks of a Midjourney-family batch are finished (sent only when subscribed). */
export interface BatchCompletedEvent extends EventEnvelope {
  /** `batch.completed`. */
  type: 'batch.completed';
  /** The batch and its outcome. */
  data: {
    /** The batch ID that its child task events carry as `batch_id`. */
    batch_id: string;
    /** `completed`, `partial_failure` or `failed`. */
    status: 'completed' | 'partial_failure' | 'failed';
    /** Counts by name. The API does not fix the counter names, so the record is open. */
    summary: Record<string, number | unknown>;
    /** Model ID of the batch. */
    model?: string;
    /** The request's `client_reference_id`, echoed when one was sent. */
    client_reference_id?: string;
    /** Unix time (seconds) the last child task finished. */
    completed_at?: number;
  };
}

/**
 * Sent when an endpoint's verify operation is called. The handlers answer it with
 * `{"challenge": <value>}` themselves and do not pass it to `onEvent`.
 */
export interface EndpointVerificationEvent extends EventEnvelope {
  /** `webhook.endpoint_verification`. */
  type: 'webhook.endpoint_verification';
  /** The challenge to echo. */
  data: {
    /** Return it as `{"challenge": <value>}` with HTTP 200 within 10 seconds. */
    challenge: string;
  };
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
