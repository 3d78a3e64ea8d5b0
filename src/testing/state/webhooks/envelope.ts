/**
 * The event bodies the mock gateway delivers. spec: Resources — Webhook event envelope; Events 3.
 */
import { WEBHOOK_API_VERSION } from '../../../webhooks/events.js';
import type { GatewayState } from '../gateway-state.js';
import { imageResultUrl } from '../gateway-state.js';
import type { MediaRecord } from '../media-origin.js';
import type { MockTask } from '../tasks.js';

/** The subscription a task request carried, as the producers store it in `task.data`. */
export interface TaskSubscription {
  /** The endpoint named in `notifications.webhook.endpoint_id`. */
  endpointId: string;
  /** The event types subscribed to. */
  events: readonly string[];
}

/** What the delivery engine reads from a task's `data`. */
interface SubscribedTaskData {
  notifications?: unknown;
  client_reference_id?: unknown;
  batch_id?: unknown;
}

/**
 * The `notifications.webhook` of a task's data (a JSON string from a multipart form is parsed),
 * or `undefined` when the task has none.
 */
export function subscriptionOf(task: MockTask<unknown>): TaskSubscription | undefined {
  let value = (task.data as SubscribedTaskData | undefined)?.notifications;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return undefined;
    }
  }
  const webhook = (value as { webhook?: { endpoint_id?: unknown; events?: unknown } } | undefined)?.webhook;
  if (typeof webhook?.endpoint_id !== 'string') return undefined;
  const events = Array.isArray(webhook.events) ? webhook.events.filter((e) => typeof e === 'string') : [];
  return { endpointId: webhook.endpoint_id, events };
}

/** The task's `batch_id` (Midjourney-family children), if any. */
export function batchIdOf(task: MockTask<unknown>): string | undefined {
  const id = (task.data as SubscribedTaskData | undefined)?.batch_id;
  return typeof id === 'string' && id !== '' ? id : undefined;
}

function clientReferenceOf(task: MockTask<unknown>): string | undefined {
  const ref = (task.data as SubscribedTaskData | undefined)?.client_reference_id;
  return typeof ref === 'string' ? ref : undefined;
}

const seconds = (ms: number) => Math.floor(ms / 1000);

/** The kind an event reports: image tasks are `image`, every other producer makes video. */
export function eventKind(task: MockTask<unknown>): 'video' | 'image' {
  return task.kind === 'image' ? 'image' : 'video';
}

/** The task query URL: `/v1/videos/{id}` or the image task query with its model. spec: Events 10. */
export function taskUrl(gateway: GatewayState, task: MockTask<unknown>): string {
  const id = encodeURIComponent(task.id);
  if (eventKind(task) === 'video') return `${gateway.url}/v1/videos/${id}`;
  return `${gateway.url}/v1/tasks/${id}?model=${encodeURIComponent(task.model)}`;
}

/** One output entry. Its URL is on the gateway's origin and needs a key. spec: Events 9. */
function output(id: string, type: 'video' | 'image', url: string, record: MediaRecord | undefined) {
  const expiresAt = record?.expiresAt;
  return {
    output_id: id,
    type,
    url,
    authentication: 'bearer',
    // spec: Webhook event envelope — null means no guaranteed expiry, not permanent storage.
    expires_at: expiresAt === undefined ? null : seconds(expiresAt),
  };
}

/** The outputs of a succeeded task: every published image, or the video behind the content route. */
function outputsOf(gateway: GatewayState, task: MockTask<unknown>) {
  const media = gateway.media.forTask(task.id);
  if (eventKind(task) === 'image') {
    return media
      .filter((r) => r.contentType.startsWith('image/'))
      .map((record, i) => output(`${task.id}-${i + 1}`, 'image', imageResultUrl(gateway, record), record));
  }
  const video = media.find((r) => r.contentType.startsWith('video/'));
  const url = `${gateway.url}/v1/videos/${encodeURIComponent(task.id)}/content`;
  return [output(`${task.id}-1`, 'video', url, video)];
}

/**
 * The body of a delivery as the mock gateway and `mediagw webhooks send` send it: JSON with a
 * space after each `:` and `,`. A receiver that verifies a re-serialized body
 * (`JSON.stringify(req.body)` after `express.json()`) fails here as it would against any sender
 * whose bytes differ from `JSON.stringify`'s, rather than passing locally because they agree.
 */
export function webhookDeliveryBody(payload: unknown): string {
  // As JSON.stringify reads it first (toJSON, undefined fields left out), then spaced.
  return spaced(JSON.parse(JSON.stringify(payload)));
}

function spaced(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(spaced).join(', ')}]`;
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  return `{${Object.entries(value)
    .map(([key, field]) => `${JSON.stringify(key)}: ${spaced(field)}`)
    .join(', ')}}`;
}

/**
 * The `task.completed` or `task.failed` envelope of a finished task. Failures carry
 * `result: null` and `error: {code: 'generation_failed', message}`. spec: Events 3.
 */
export function taskEventPayload(
  gateway: GatewayState,
  task: MockTask<unknown>,
  eventId: string,
  createdAt: number,
) {
  const succeeded = task.outcome === 'succeeded';
  const data: Record<string, unknown> = {
    task_id: task.id,
    model: task.model,
    kind: eventKind(task),
    status: succeeded ? 'completed' : 'failed',
  };
  const reference = clientReferenceOf(task);
  if (reference !== undefined) data.client_reference_id = reference;
  data.completed_at = seconds(task.endsAt);
  data.task_url = taskUrl(gateway, task);
  const batchId = batchIdOf(task);
  if (batchId !== undefined) data.batch_id = batchId;
  data.result = succeeded ? { outputs: outputsOf(gateway, task) } : null;
  data.error =
    task.outcome === 'succeeded'
      ? null
      : { code: 'generation_failed', message: task.outcome.failed.message || 'generation failed' };
  return {
    id: eventId,
    type: succeeded ? 'task.completed' : 'task.failed',
    api_version: WEBHOOK_API_VERSION,
    created_at: seconds(createdAt),
    data,
  };
}

/**
 * The `batch.completed` envelope: `status` `completed`, `partial_failure` or `failed`, and the
 * counts in `summary` (`total`, `succeeded`, `failed`: the API does not fix these names).
 */
export function batchEventPayload(
  batchId: string,
  children: readonly MockTask<unknown>[],
  eventId: string,
  createdAt: number,
) {
  const failed = children.filter((t) => t.outcome !== 'succeeded').length;
  const total = children.length;
  const status = failed === 0 ? 'completed' : failed === total ? 'failed' : 'partial_failure';
  const last = children.reduce((a, b) => (b.endsAt > a.endsAt ? b : a));
  const data: Record<string, unknown> = {
    batch_id: batchId,
    status,
    summary: { total, succeeded: total - failed, failed },
    model: last.model,
    task_ids: children.map((t) => t.id),
  };
  const reference = clientReferenceOf(last);
  if (reference !== undefined) data.client_reference_id = reference;
  data.completed_at = seconds(last.endsAt);
  return {
    id: eventId,
    type: 'batch.completed',
    api_version: WEBHOOK_API_VERSION,
    created_at: seconds(createdAt),
    data,
  };
}

/** The `webhook.endpoint_verification` envelope with its challenge. spec: Events 4. */
export function verificationPayload(eventId: string, challenge: string, createdAt: number) {
  return {
    id: eventId,
    type: 'webhook.endpoint_verification',
    api_version: WEBHOOK_API_VERSION,
    created_at: seconds(createdAt),
    data: { challenge },
  };
}
