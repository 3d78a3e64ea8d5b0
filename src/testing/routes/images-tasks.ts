import { MockHttpError } from '../http-error.js';
import { type GatewayState, imageResultUrl } from '../state/gateway-state.js';
import type { TaskPhase } from '../state/task-kinds.js';
import { type MockTask, outcomeFor } from '../state/tasks.js';
import type { RequestContext } from '../types.js';
import { IMAGE_TRIGGERS, type ImageTaskData, publishImages } from './images-shared.js';
import { taskRenderers } from './task-renderers.js';
import { webhookEndpointCheck } from './webhook-endpoint-check.js';

/** The alternative status words of the legacy form. spec: States — Image task statuses. */
const LEGACY_STATUS: Readonly<Record<TaskPhase, string>> = {
  queued: 'submitted',
  running: 'in_progress',
  succeeded: 'success',
  failed: 'error',
};

/** What an accepted image task request is turned into. */
export interface ImageTaskRequest {
  /** The request's model. */
  model: string;
  /** The prompt, read for the outcome markers. */
  prompt: string | undefined;
  /** How many images the task produces. */
  count: number;
  /** The route that accepted it. */
  route: ImageTaskData['route'];
  /** The request's fields; `notifications` and `client_reference_id` are read from here. */
  fields: Record<string, unknown>;
  /** The Midjourney-family batch, for its child tasks. */
  batchId?: string | undefined;
}

/**
 * Creates an `image` task for an accepted request, after checking the webhook endpoint the
 * request names. The task keeps `notifications` and `client_reference_id` for the delivery
 * engine; its images are published when it succeeds. Image tasks reserve no billable seconds.
 */
export function createImageTask(
  gateway: GatewayState,
  ctx: RequestContext<unknown>,
  request: ImageTaskRequest,
): MockTask<ImageTaskData> {
  const { notifications, client_reference_id } = request.fields;
  // spec: Webhook management — the endpoint must be verified, enabled and owned by the caller.
  webhookEndpointCheck(gateway, ctx.account, notifications);
  const data: ImageTaskData = {
    count: request.count,
    legacy: request.prompt?.includes(IMAGE_TRIGGERS.legacy) ?? false,
    route: request.route,
    request: request.fields,
  };
  if (notifications !== undefined) data.notifications = notifications;
  if (typeof client_reference_id === 'string') data.client_reference_id = client_reference_id;
  if (request.batchId) data.batch_id = request.batchId;
  return gateway.tasks.create<ImageTaskData>({
    account: ctx.account.id,
    kind: 'image',
    model: request.model,
    plan: outcomeFor(request.prompt),
    data,
  });
}

/** Answers the asynchronous submission envelope. spec: Asynchronous submission envelope. */
export function answerSubmission(
  ctx: RequestContext<unknown>,
  tasks: readonly MockTask<unknown>[],
): Promise<void> {
  return ctx.json(200, { code: 200, data: tasks.map((t) => ({ status: 'submitted', task_id: t.id })) });
}

/**
 * The image task as `GET /v1/tasks/:id?model=` answers it: `{code: 200, data: {task_id, status,
 * result: {images}, error?}}`. `model` must be the submission's: missing is 400, another model 404
 * (the query goes to that model's upstream, which does not know the task).
 */
function renderImageTask(
  gateway: GatewayState,
  task: MockTask<unknown>,
  ctx: RequestContext<{ id: string }>,
) {
  const model = ctx.query.get('model');
  if (!model) {
    throw MockHttpError.spec(
      400,
      'invalid_request',
      'model: is required to query an image task: the model ID used at submission',
    );
  }
  if (model !== task.model) throw MockHttpError.notFound(`task ${task.id} for model ${model}`);
  const data = task.data as ImageTaskData;
  const state = gateway.tasks.state(task);
  const urls =
    state.phase === 'succeeded' ? gateway.media.forTask(task.id).map((r) => imageResultUrl(gateway, r)) : [];
  const body: Record<string, unknown> = {
    task_id: task.id,
    status: data.legacy ? LEGACY_STATUS[state.phase] : state.status,
    progress: state.progress,
    // spec: Image task — tracked tasks list `{url}` entries; legacy upstreams a URL array.
    result: { images: data.legacy ? urls : urls.map((url) => ({ url })) },
  };
  if (data.batch_id) body.batch_id = data.batch_id;
  if (state.error) body.error = state.error;
  return { code: 200, data: body };
}

/**
 * Registers the image task renderer and the listener that publishes a succeeded task's images
 * at its terminal transition (before any event about it is delivered).
 */
export function registerImageTasks(gateway: GatewayState): void {
  taskRenderers(gateway).set('image', (task, ctx) => renderImageTask(gateway, task, ctx));
  gateway.tasks.on('terminal', (task) => {
    if (task.kind !== 'image' || task.outcome !== 'succeeded') return;
    if (gateway.media.forTask(task.id).length > 0) return;
    const count = (task.data as Partial<ImageTaskData>).count ?? 1;
    publishImages(gateway, task.account, count, task.id);
  });
}
