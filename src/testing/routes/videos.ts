import { MockHttpError } from '../http-error.js';
import type { GatewayState } from '../state/gateway-state.js';
import type { MockTask } from '../state/tasks.js';
import type { RequestContext, RouteRegistry } from '../types.js';
import { publishVideoResults, renderVideoCompat, renderVideoObject } from './videos-render.js';
import type { VideoTaskData } from './videos-shared.js';
import { submitVideo } from './videos-submit.js';

/**
 * The caller's video task, or a 404. spec: Authentication — a key manages only its account's
 * tasks; another account's task is answered exactly like an unknown one.
 */
function ownVideoTask(gateway: GatewayState, ctx: RequestContext<{ id: string }>): MockTask<VideoTaskData> {
  const task = gateway.tasks.getFor<VideoTaskData>(ctx.account.id, ctx.params.id, 'video');
  if (!task) throw MockHttpError.notFound(`video task ${ctx.params.id}`);
  return task;
}

/**
 * Registers the video routes: submission (`POST /v1/videos/generations` and its alias
 * `/v1/video/generations`), the task in both formats, and the authenticated content and
 * last-frame downloads. Requests are checked with the SDK's own schemas; the ledger reserves
 * at submission, settles on success and refunds on failure.
 */
export function registerVideoRoutes(router: RouteRegistry, gateway: GatewayState): void {
  publishVideoResults(gateway);

  // spec: Video — POST /v1/videos/generations; compatible alias POST /v1/video/generations.
  router.add('POST', '/v1/videos/generations', (ctx) => submitVideo(gateway, ctx));
  router.add('POST', '/v1/video/generations', (ctx) => submitVideo(gateway, ctx));

  // spec: Video — GET /v1/videos/{task_id}: object style.
  router.add(
    'GET',
    '/v1/videos/:id',
    (ctx) => ctx.json(200, renderVideoObject(gateway, ownVideoTask(gateway, ctx))),
    {
      body: 'none',
    },
  );

  // spec: Video — GET /v1/video/generations/{task_id}: compatibility format.
  router.add(
    'GET',
    '/v1/video/generations/:id',
    (ctx) => ctx.json(200, renderVideoCompat(gateway, ownVideoTask(gateway, ctx))),
    { body: 'none' },
  );

  // spec: Video — GET /v1/videos/{task_id}/content: needs a key of the task's account; 302 to
  // the media origin (or the bytes with `redirectContent: false`); 410 once the media expired.
  router.add(
    'GET',
    '/v1/videos/:id/content',
    (ctx) => {
      const task = ownVideoTask(gateway, ctx);
      const state = gateway.tasks.state(task);
      if (state.phase === 'failed') throw MockHttpError.notFound(`the video of failed task ${task.id}`);
      if (state.phase !== 'succeeded') {
        throw MockHttpError.spec(
          404,
          'not_found',
          `the video of task ${task.id} is not ready (status ${state.status})`,
        );
      }
      const record = task.data.video_token ? gateway.media.get(task.data.video_token) : undefined;
      if (!record) throw MockHttpError.notFound(`the video of task ${task.id}`);
      return gateway.media.serve(ctx as RequestContext<unknown>, record);
    },
    { body: 'none' },
  );

  // spec: Errors — last frame unavailable or not requested: 404.
  router.add(
    'GET',
    '/v1/videos/:id/last-frame',
    (ctx) => {
      const task = ownVideoTask(gateway, ctx);
      const state = gateway.tasks.state(task);
      const token = state.phase === 'succeeded' ? task.data.last_frame_token : undefined;
      const record = token ? gateway.media.get(token) : undefined;
      if (!record) {
        throw MockHttpError.spec(
          404,
          'not_found',
          task.data.return_last_frame
            ? `the last frame of task ${task.id} is unavailable (status ${state.status})`
            : `task ${task.id} did not request a last frame (return_last_frame: true)`,
        );
      }
      return gateway.media.serve(ctx as RequestContext<unknown>, record);
    },
    { body: 'none' },
  );
}
