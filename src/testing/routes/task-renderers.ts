import type { GatewayState } from '../state/gateway-state.js';
import type { MockTask } from '../state/tasks.js';
import type { RequestContext } from '../types.js';

/**
 * Renders a task of one kind as `GET /v1/tasks/:id` answers it. It may answer by itself through
 * `ctx` (or throw a `MockHttpError`), in which case its return value is ignored; otherwise the
 * route answers 200 with the returned value as JSON.
 */
export type TaskRenderer = (task: MockTask<unknown>, ctx: RequestContext<{ id: string }>) => unknown;

/**
 * The per-gateway registry of task renderers used by `GET /v1/tasks/:id`, keyed by task kind
 * (`image`, `review`, ...). A resource registers its kind's renderer when its routes are
 * registered; a kind without a renderer answers 404 as if the task did not exist.
 *
 * @example
 * taskRenderers(gateway).set('review', (task, ctx) => ({ id: task.id, status: gateway.tasks.state(task).status }));
 */
export function taskRenderers(gateway: GatewayState): Map<string, TaskRenderer> {
  return gateway.store('task-renderers', () => new Map<string, TaskRenderer>());
}
