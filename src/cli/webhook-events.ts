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

/** What the gateway makes of a receiver's answer. spec: Events 5 and 7; Webhook endpoint states. */
export interface DeliveryVerdict {
  /** The gateway counts the delivery as done. */
  acknowledged: boolean;
  /** The gateway sends the event again later. */
  retried: boolean;
  /** The endpoint is paused (410): nothing more is sent until it is enabled again. */
  pausesEndpoint: boolean;
  /** In words. */
  explanation: string;
}

/**
 * Parses `Retry-After`: seconds or an HTTP date; `undefined` when it is not valid. A date is
 * counted from the answer's own `Date` when it has a readable one, as the gateway does: both
 * come from the receiver's clock, so a receiver minutes ahead or behind changes nothing.
 * Without `Date`, a date is counted from `now`.
 */
function retryAfterSeconds(
  value: string | undefined,
  date: string | undefined,
  now = Date.now(),
): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  if (Number.isNaN(at)) return undefined;
  const from = date === undefined ? undefined : httpDate(date);
  return Math.max(0, Math.ceil((at - (from ?? now)) / 1000));
}

/** A `Date` header in ms since the epoch; `undefined` when it is not an HTTP date. */
function httpDate(text: string): number | undefined {
  // Each form of HTTP date names a month and a time of day; Date.parse alone reads `5` as 2001.
  if (!/[a-z]{3}/i.test(text) || !/\d\d:\d\d:\d\d/.test(text)) return undefined;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? undefined : ms;
}

/**
 * Reads a receiver's answer as the gateway does: any 2xx within 10 s (headers within 8 s, and
 * the whole answer, body included, within the 10 s; `error` says when it was not) acknowledges; 410 pauses the endpoint; everything else, redirects included, is retried on
 * the schedule (1, 2, 5, 15, 30 min, 1, 2, 4, 8 h, then every 12 h, up to 72 h), and a valid
 * `Retry-After` on 429 or 503 is honoured inside that window (a date counted from the answer's
 * `Date`, when it has one).
 */
export function deliveryVerdict(answer: {
  status?: number | undefined;
  error?: string | undefined;
  headersMs?: number | undefined;
  retryAfter?: string | undefined;
  /** The answer's `Date` header. */
  date?: string | undefined;
}): DeliveryVerdict {
  const schedule =
    'the first retry comes after about 1 minute, then 2, 5, 15, 30 min, 1, 2, 4, 8 h and every 12 h, for up to 72 h';
  const retry = (why: string): DeliveryVerdict => ({
    acknowledged: false,
    retried: true,
    pausesEndpoint: false,
    explanation: `${why}: the gateway retries (${schedule})`,
  });
  const { status } = answer;
  if (status === undefined) return retry(`no answer (${answer.error ?? 'network error'})`);
  // Headers in time but a body that broke off or did not end within 10 s: the request failed.
  if (answer.error !== undefined) return retry(`no complete answer (${answer.error})`);
  if (answer.headersMs !== undefined && answer.headersMs > 8_000)
    return retry(`the headers came after ${(answer.headersMs / 1000).toFixed(1)} s, past the 8 s limit`);
  if (status >= 200 && status < 300)
    return {
      acknowledged: true,
      retried: false,
      pausesEndpoint: false,
      explanation: `${status} acknowledges the delivery: no retry`,
    };
  if (status === 410)
    return {
      acknowledged: false,
      retried: false,
      pausesEndpoint: true,
      explanation: '410 pauses the endpoint: no retries, and no further deliveries until it is enabled again',
    };
  if (status >= 300 && status < 400)
    return retry(`${status} is a redirect, which the gateway does not follow`);
  if (status === 429 || status === 503) {
    const seconds = retryAfterSeconds(answer.retryAfter, answer.date);
    if (seconds !== undefined && seconds <= 72 * 3600)
      return {
        acknowledged: false,
        retried: true,
        pausesEndpoint: false,
        explanation: `${status} with Retry-After ${answer.retryAfter}: the gateway retries after ${seconds} s (honoured inside the 72 h window)`,
      };
  }
  return retry(`${status} is not a 2xx`);
}
