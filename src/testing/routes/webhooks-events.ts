import { IMAGE_MODELS, VIDEO_MODELS } from '../../schemas/shared/constants.js';
import { webhookCapabilitiesSchema, webhookEventListSchema } from '../../schemas/webhook-endpoints/index.js';
import { MockHttpError } from '../http-error.js';
import type { GatewayState } from '../state/gateway-state.js';
import { webhookState } from '../state/webhooks/state.js';
import type { RouteRegistry } from '../types.js';
import { renderAttempt, renderEvent } from './webhooks-render.js';

const TASK_EVENTS = ['task.completed', 'task.failed'];

/**
 * Which requests of a model can produce events. spec: Events 1 — the video models through the
 * video routes, image models through the two asynchronous image routes only (synchronous
 * generation produces no event), and the Midjourney-family route.
 */
const CAPABILITIES: ReadonlyArray<[(model: string) => boolean, Record<string, unknown>]> = [
  [
    (model) => (VIDEO_MODELS as readonly string[]).includes(model),
    {
      kind: 'video',
      routes: ['POST /v1/videos/generations', 'POST /v1/video/generations'],
      events: TASK_EVENTS,
    },
  ],
  [
    (model) => (IMAGE_MODELS as readonly string[]).includes(model),
    {
      kind: 'image',
      routes: ['POST /v1/images/generations/async', 'POST /v1/images/edits/async'],
      events: TASK_EVENTS,
      synchronous_requests_notify: false,
    },
  ],
  [
    (model) => /^(midjourney|mj)([-_.]|$)/i.test(model),
    {
      kind: 'image',
      routes: ['POST /v1/midjourney/generations'],
      events: [...TASK_EVENTS, 'batch.completed'],
    },
  ],
];

/** The capability answer for `model`: the first family of {@link CAPABILITIES} it belongs to. */
export function webhookCapability(model: string) {
  const found = CAPABILITIES.find(([belongs]) => belongs(model));
  return found
    ? { model, eligible: true, ...found[1] }
    : { model, eligible: false, kind: null, routes: [], events: [] };
}

/**
 * Registers the capability and event routes. spec: Webhook management; Events 8.
 * - `GET /v1/webhook-capabilities?model=`: {@link webhookCapability}.
 * - `GET /v1/webhook-events?task_id=`: `{task_id, data: [event]}`; 404 for an unknown or foreign task.
 * - `GET /v1/webhook-events/:id/deliveries`: `{event_id, status, data: [attempt]}`.
 * - `POST /v1/webhook-events/:id/redeliver`: 202 `{event}`; 409 `delivery_in_flight` while an
 *   attempt is under way; 429 `redeliver_limit_reached` (with `Retry-After`) after 5 replays
 *   of the event in the current UTC day.
 */
export function registerWebhookEventRoutes(router: RouteRegistry, gateway: GatewayState): void {
  const webhooks = webhookState(gateway);
  const eventFor = (account: string, id: string) => {
    const event = webhooks.event(id);
    if (!event || event.account !== account) throw MockHttpError.notFound(`webhook event ${id}`);
    return event;
  };

  router.add('GET', '/v1/webhook-capabilities', (ctx) => {
    const { model } = ctx.validate(webhookCapabilitiesSchema, Object.fromEntries(ctx.query));
    return ctx.json(200, webhookCapability(model));
  });

  router.add('GET', '/v1/webhook-events', (ctx) => {
    const { task_id } = ctx.validate(webhookEventListSchema, Object.fromEntries(ctx.query));
    if (!gateway.tasks.getFor(ctx.account.id, task_id)) throw MockHttpError.notFound(`task ${task_id}`);
    const events = webhooks.events({ taskId: task_id, account: ctx.account.id });
    return ctx.json(200, { task_id, data: events.map((e) => renderEvent(webhooks, e)) });
  });

  router.add('GET', '/v1/webhook-events/:id/deliveries', (ctx) => {
    const event = eventFor(ctx.account.id, ctx.params.id);
    return ctx.json(200, {
      event_id: event.id,
      status: event.status,
      data: event.attempts.map(renderAttempt),
    });
  });

  router.add(
    'POST',
    '/v1/webhook-events/:id/redeliver',
    (ctx) => {
      const event = eventFor(ctx.account.id, ctx.params.id);
      webhooks.redeliver(event);
      return ctx.json(202, { event: renderEvent(webhooks, event) });
    },
    { body: 'none' },
  );
}
