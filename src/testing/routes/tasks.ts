import { MockHttpError } from '../http-error.js';
import type { GatewayState } from '../state/gateway-state.js';
import type { RouteRegistry } from '../types.js';
import { taskRenderers } from './task-renderers.js';

/**
 * Registers `GET /v1/tasks/:id`, the query shared by image tasks (`?model=`) and library review
 * tasks (no `model`). The caller's task is found by ID, whatever its kind, and answered by the
 * renderer its kind registered in {@link taskRenderers}. Another account's task, an unknown ID
 * and a kind without a renderer all answer 404. spec: Endpoints — GET /v1/tasks/{task_id}.
 */
export function registerTaskRoutes(router: RouteRegistry, gateway: GatewayState): void {
  router.add(
    'GET',
    '/v1/tasks/:id',
    async (ctx) => {
      const task = gateway.tasks.getFor(ctx.account.id, ctx.params.id);
      const render = task && taskRenderers(gateway).get(task.kind);
      if (!task || !render) throw MockHttpError.notFound(`task ${ctx.params.id}`);
      const answer = await render(task, ctx);
      if (!ctx.answered) await ctx.json(200, answer);
    },
    { body: 'none' },
  );
}
