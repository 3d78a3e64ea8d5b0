/**
 * Realistic webhook events for testing a receiver: the envelopes the gateway sends, with fresh
 * IDs and the current time. spec: Resources — Webhook event envelope; Events 3-4.
 */
import { randomBytes } from 'node:crypto';
import { WEBHOOK_API_VERSION } from '../webhooks/index.js';
import { CliError } from './exit-codes.js';

/** The event types the gateway delivers. */
export const EVENT_TYPES = [
  'task.completed',
  'task.failed',
  'batch.completed',
  'webhook.endpoint_verification',
] as const;

/** The task kinds an event can report. */
export const EVENT_KINDS = ['video', 'image'] as const;

/** What to put in the event. */
export interface SampleEventOptions {
  type?: string | undefined;
  kind?: string | undefined;
  model?: string | undefined;
  taskId?: string | undefined;
  clientReferenceId?: string | undefined;
  /** The gateway's base URL the task and output URLs point at. */
  baseUrl?: string | undefined;
}

const hex = (bytes: number) => randomBytes(bytes).toString('hex');

/**
 * Builds an event envelope as the gateway would deliver it.
 * @throws CliError for an unknown type or kind.
 */
export function sampleEvent(options: SampleEventOptions = {}): Record<string, unknown> {
  const type = options.type ?? 'task.completed';
  if (!(EVENT_TYPES as readonly string[]).includes(type))
    throw new CliError(`--type must be one of ${EVENT_TYPES.join(', ')}; got ${type}`);
  const kind = options.kind ?? 'video';
  if (!(EVENT_KINDS as readonly string[]).includes(kind))
    throw new CliError(`--kind must be one of ${EVENT_KINDS.join(', ')}; got ${kind}`);
  const now = Math.floor(Date.now() / 1000);
  const base = (options.baseUrl ?? 'https://api.example.com').replace(/\/+$/, '');
  const envelope = { id: `evt_${hex(12)}`, type, api_version: WEBHOOK_API_VERSION, created_at: now };
  if (type === 'webhook.endpoint_verification') return { ...envelope, data: { challenge: `chl_${hex(16)}` } };

  const model = options.model ?? (kind === 'image' ? 'imgmodel-2' : 'vidmodel-2.0-mini');
  const reference =
    options.clientReferenceId === undefined ? {} : { client_reference_id: options.clientReferenceId };
  if (type === 'batch.completed') {
    const ids = [1, 2, 3, 4].map(() => options.taskId ?? `task_${hex(8)}`);
    return {
      ...envelope,
      data: {
        batch_id: `batch_${hex(8)}`,
        status: 'completed',
        summary: { total: ids.length, succeeded: ids.length, failed: 0 },
        model,
        task_ids: ids,
        ...reference,
        completed_at: now - 1,
      },
    };
  }
  const taskId = options.taskId ?? (kind === 'image' ? `task_${hex(8)}` : `cgt-${hex(8)}`);
  const id = encodeURIComponent(taskId);
  const taskUrl =
    kind === 'image'
      ? `${base}/v1/tasks/${id}?model=${encodeURIComponent(model)}`
      : `${base}/v1/videos/${id}`;
  const succeeded = type === 'task.completed';
  const outputs =
    kind === 'image'
      ? [{ output_id: `${taskId}-1`, type: 'image', url: `${base}/v1/images/${id}/1.png` }]
      : [{ output_id: `${taskId}-1`, type: 'video', url: `${base}/v1/videos/${id}/content` }];
  return {
    ...envelope,
    data: {
      task_id: taskId,
      model,
      kind,
      status: succeeded ? 'completed' : 'failed',
      ...reference,
      completed_at: now - 1,
      task_url: taskUrl,
      result: succeeded
        ? { outputs: outputs.map((o) => ({ ...o, authentication: 'bearer', expires_at: now + 86_400 })) }
        : null,
      error: succeeded
        ? null
        : { code: 'generation_failed', message: 'the upstream model could not render the prompt' },
    },
  };
}
