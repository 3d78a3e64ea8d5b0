import { midjourneyGenerateSchema } from '../../schemas/images/midjourney.js';
import type { GatewayState } from '../state/gateway-state.js';
import { newId } from '../state/ids.js';
import type { RouteRegistry } from '../types.js';
import { checkModeration, imageCount } from './images-shared.js';
import { answerSubmission, createImageTask } from './images-tasks.js';

/** The model of a Midjourney-family task whose request names none. */
export const MIDJOURNEY_DEFAULT_MODEL = 'midjourney';

/** Images of a Midjourney-family task whose request has no integer `n` (a grid of four). */
export const MIDJOURNEY_DEFAULT_IMAGES = 4;

/**
 * Registers `POST /v1/midjourney/generations`. The document lists the route but not its fields,
 * so the mock passes them through: it checks only `notifications` and `client_reference_id`
 * (with the SDK's schema) and the key's model permission. Each submission is a batch
 * (`batch_id`, prefix `mjb_`) of one `image` task, queried like any image task with
 * `?model=<model or "midjourney">`. spec: Other asynchronous image family; Events.
 */
export function registerMidjourneyRoutes(router: RouteRegistry, gateway: GatewayState): void {
  router.add('POST', '/v1/midjourney/generations', (ctx) => {
    const body = ctx.validate(midjourneyGenerateSchema, ctx.body) as Record<string, unknown>;
    const model = typeof body.model === 'string' && body.model ? body.model : MIDJOURNEY_DEFAULT_MODEL;
    ctx.requireModel(model);
    checkModeration(body);
    const n = body.n;
    const count =
      typeof n === 'number' && Number.isInteger(n) && n > 0 ? imageCount(n) : MIDJOURNEY_DEFAULT_IMAGES;
    const task = createImageTask(gateway, ctx, {
      model,
      prompt: typeof body.prompt === 'string' ? body.prompt : undefined,
      count,
      route: 'midjourney',
      fields: body,
      batchId: newId('mjb_'),
    });
    return answerSubmission(ctx, [task]);
  });
}
