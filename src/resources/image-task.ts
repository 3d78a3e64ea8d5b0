import { describeArgument } from '../core/arguments.js';
import type { TaskOutcome } from '../core/polling.js';
import type { ImageTask, ImageTaskData, ImageTaskState } from '../core/task-types.js';
import { keepRequestId } from '../internal/response-body.js';
import { EMBEDDING_MODELS, IMAGE_MODELS, VIDEO_MODELS } from '../schemas/shared/constants.js';

export type { ImageTask, ImageTaskData, ImageTaskState } from '../core/task-types.js';

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
  return keepRequestId(task, (raw as { _requestId?: string })?._requestId);
}

/** What a wait needs to know about an image task. */
export function imageTaskOutcome(task: ImageTask): TaskOutcome {
  return task.state === 'succeeded' ? 'succeeded' : task.state === 'failed' ? 'failed' : 'pending';
}

/**
 * Why `model` cannot name an image task, or `undefined` when it may. spec: GET /v1/tasks/{id} —
 * `model` is "the same model ID used at submission". The image models are known; a
 * Midjourney-family task runs under a model the spec does not list, so any other ID passes,
 * except a video or embedding model ("image-task endpoints are not used to poll videos") and an
 * `imgmodel-` ID that is not one of the image models.
 */
export function imageTaskModelIssue(model: unknown): string | undefined {
  const known = `${IMAGE_MODELS.join(', ')}, or the model of a Midjourney-family task`;
  if (model === undefined) return `is required: the model ID used at submission (${known})`;
  if (typeof model !== 'string' || model === '') {
    return `must be the model ID used at submission (${known}); got ${model === '' ? 'an empty string' : describeArgument(model)}`;
  }
  if ((VIDEO_MODELS as readonly string[]).includes(model) || model.startsWith('vidmodel-')) {
    return `${model} is a video model: read video tasks with videos.retrieve or videos.waitForTask, not the image-task query`;
  }
  if ((EMBEDDING_MODELS as readonly string[]).includes(model)) {
    return `${model} is an embedding model: embeddings answer at once and have no tasks`;
  }
  if (model.startsWith('imgmodel-') && !(IMAGE_MODELS as readonly string[]).includes(model)) {
    return `unknown image model ${model} (known: ${IMAGE_MODELS.join(', ')})`;
  }
  return undefined;
}
