import type { TaskOutcome } from '../core/polling.js';

/** An image task's status, normalised from the spec's status table. */
export type ImageTaskState = 'pending' | 'running' | 'succeeded' | 'failed';

// spec: States and transitions — Image task statuses.
const STATES: ReadonlyMap<string, ImageTaskState> = new Map([
  ['pending', 'pending'],
  ['submitted', 'pending'],
  ['processing', 'running'],
  ['in_progress', 'running'],
  ['succeeded', 'succeeded'],
  ['success', 'succeeded'],
  ['completed', 'succeeded'],
  ['failed', 'failed'],
  ['error', 'failed'],
  ['cancelled', 'failed'],
]);

/**
 * The image task as the gateway sends it from `GET /v1/tasks/{id}?model=` (`data` of the answer).
 *
 * @inline
 */
export interface ImageTaskData {
  /** The wire status; see {@link ImageTaskState} for how it maps. */
  status: string;
  /** `result.images`: tracked tasks list `{ url }` objects, legacy upstreams a URL array. */
  result?: {
    /** Every generated image: `{ url }` objects, or bare URL strings from legacy upstreams. */
    images?:
      | Array<
          | {
              /** The image's URL. */
              url: string;
              [key: string]: unknown;
            }
          | string
        >
      | undefined;
    [key: string]: unknown;
  };
  /** The failure reason, as the upstream gave it. */
  error?: unknown;
  /** Any other field, kept as sent. */
  [key: string]: unknown;
}

/** An image task, with its status normalised as `state` and every image as a `{ url }` entry. */
export interface ImageTask {
  /** The task ID queried. */
  task_id: string;
  /** The wire object (`code`, `data`, ...). */
  raw: {
    /** The task's `data` object. */
    data?: ImageTaskData;
    [key: string]: unknown;
  };
  /** The wire status (`pending`, `processing`, `succeeded`, `error`, ...). */
  status: string;
  /** `pending`, `running`, `succeeded` or `failed`. An unknown status counts as `running`. */
  state: ImageTaskState;
  /** Every generated image, whether the upstream listed objects or bare URLs. */
  images: Array<{
    /** The image's URL; download it with `images.download`. */
    url: string;
  }>;
  /** The failure reason, when the task failed and the gateway said. */
  error:
    | {
        /** The upstream's error code, when it gave one. */
        code?: string | undefined;
        /** The upstream's message, when it gave one. */
        message?: string | undefined;
      }
    | undefined;
  /** `X-Service-Request-Id` of the answer (not enumerable). */
  _requestId?: string | undefined;
}

/** Maps a wire status to its normalised state. */
export function imageTaskState(status: unknown): ImageTaskState {
  return (typeof status === 'string' && STATES.get(status.toLowerCase())) || 'running';
}

function readError(value: unknown): ImageTask['error'] {
  if (!value) return undefined;
  if (typeof value === 'string') return { message: value };
  if (typeof value === 'object') {
    const e = value as Record<string, unknown>;
    return {
      code: typeof e.code === 'string' ? e.code : undefined,
      message: typeof e.message === 'string' ? e.message : undefined,
    };
  }
  return { message: String(value) };
}

/** Normalises a task query answer; never throws on any JSON the gateway may send. */
export function toImageTask(taskId: string, raw: unknown): ImageTask {
  const body = (raw && typeof raw === 'object' ? raw : {}) as ImageTask['raw'];
  const data = (body.data && typeof body.data === 'object' ? body.data : {}) as Partial<ImageTaskData>;
  const list = Array.isArray(data.result?.images) ? data.result.images : [];
  const images = list
    .map((entry) =>
      typeof entry === 'string' ? entry : entry && typeof entry.url === 'string' ? entry.url : undefined,
    )
    .filter((url): url is string => typeof url === 'string' && url.length > 0)
    .map((url) => ({ url }));
  const status = typeof data.status === 'string' ? data.status : 'unknown';
  const state = imageTaskState(status);
  const task: ImageTask = {
    task_id: taskId,
    raw: body,
    status,
    state,
    images,
    error: state === 'failed' ? (readError(data.error) ?? readError(data.fail_reason)) : undefined,
  };
  Object.defineProperty(task, '_requestId', {
    value: (raw as { _requestId?: string })?._requestId,
    enumerable: false,
  });
  return task;
}

/** What a wait needs to know about an image task. */
export function imageTaskOutcome(task: ImageTask): TaskOutcome {
  return task.state === 'succeeded' ? 'succeeded' : task.state === 'failed' ? 'failed' : 'pending';
}
