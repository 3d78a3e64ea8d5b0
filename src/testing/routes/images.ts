import { imageGenerateAsyncSchema, imageGenerateSchema } from '../../schemas/images/requests.js';
import { MockHttpError } from '../http-error.js';
import type { GatewayState } from '../state/gateway-state.js';
import type { RequestContext, RouteRegistry } from '../types.js';
import { readEditRequest } from './images-edits.js';
import { registerMidjourneyRoutes } from './images-midjourney.js';
import {
  answerImages,
  checkModeration,
  imageCount,
  readGenerationBody,
  wantsBase64,
} from './images-shared.js';
import { answerSubmission, createImageTask, registerImageTasks } from './images-tasks.js';
import { registerUploadRoutes } from './images-uploads.js';

type Fields = Record<string, unknown>;

function promptOf(fields: Fields): string | undefined {
  return typeof fields.prompt === 'string' ? fields.prompt : undefined;
}

/**
 * Answers a checked generation or edit: the model and moderation first, then the images
 * themselves, or, for a task route, a task that renders them.
 */
function answer(
  gateway: GatewayState,
  ctx: RequestContext<unknown>,
  fields: Fields,
  taskRoute?: 'generations' | 'edits',
) {
  ctx.requireModel(fields.model);
  checkModeration(fields);
  if (!taskRoute) return answerImages(gateway, ctx, imageCount(fields.n), wantsBase64(fields));
  const task = createImageTask(gateway, ctx, {
    model: String(fields.model),
    prompt: promptOf(fields),
    count: imageCount(fields.n),
    route: taskRoute,
    fields,
  });
  return answerSubmission(ctx, [task]);
}

/**
 * Registers the image routes: generation and edits (synchronous and asynchronous), the
 * authenticated result URLs, image uploads, the Midjourney-family route and the image task
 * query's renderer. Requests are checked with the SDK's own schemas.
 */
export function registerImageRoutes(router: RouteRegistry, gateway: GatewayState): void {
  registerImageTasks(gateway);

  // spec: Images — POST /v1/images/generations (JSON, synchronous).
  router.add(
    'POST',
    '/v1/images/generations',
    (ctx) => {
      const body = ctx.validate(imageGenerateSchema, readGenerationBody(ctx, '/v1/images/edits')) as Fields;
      return answer(gateway, ctx, body);
    },
    { body: 'raw' },
  );

  // spec: Images — POST /v1/images/generations/async: the same body, answered with a task ID.
  router.add(
    'POST',
    '/v1/images/generations/async',
    (ctx) => {
      const raw = readGenerationBody(ctx, '/v1/images/edits/async');
      return answer(gateway, ctx, ctx.validate(imageGenerateAsyncSchema, raw) as Fields, 'generations');
    },
    { body: 'raw' },
  );

  // spec: Images — POST /v1/images/edits (multipart, synchronous).
  router.add(
    'POST',
    '/v1/images/edits',
    async (ctx) => {
      return answer(gateway, ctx, (await readEditRequest(ctx, false)).fields);
    },
    { body: 'multipart' },
  );

  // spec: Images — POST /v1/images/edits/async (multipart), with `notifications` as a JSON-string field.
  router.add(
    'POST',
    '/v1/images/edits/async',
    async (ctx) => {
      return answer(gateway, ctx, (await readEditRequest(ctx, true)).fields, 'edits');
    },
    { body: 'multipart' },
  );

  // Result URLs are on the gateway's origin and need the key of the image's account.
  // spec: Authentication 2 — downloading a result URL without authentication fails (401).
  router.add(
    'GET',
    '/v1/images/results/:token',
    (ctx) => {
      const record = gateway.media.get(ctx.params.token);
      if (!record || record.account !== ctx.account.id) throw MockHttpError.notFound('image');
      return gateway.media.serve(ctx as RequestContext<unknown>, record);
    },
    { body: 'none' },
  );

  registerUploadRoutes(router, gateway);
  registerMidjourneyRoutes(router, gateway);
}
