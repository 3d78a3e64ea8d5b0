import {
  webhookEndpointCreateSchema,
  webhookEndpointUpdateSchema,
} from '../../schemas/webhook-endpoints/index.js';
import { MockHttpError } from '../http-error.js';
import type { GatewayState } from '../state/gateway-state.js';
import { webhookState } from '../state/webhooks/state.js';
import type { RouteRegistry } from '../types.js';
import { registerWebhookEventRoutes } from './webhooks-events.js';
import { renderEndpoint } from './webhooks-render.js';

/**
 * Registers the webhook management routes and starts the delivery engine (it listens for
 * finished tasks). Every route is scoped to the caller's account: another account's endpoint
 * or event answers 404. spec: Webhook management.
 *
 * - `POST /v1/webhook-endpoints` `{url}`: HTTPS, port 443, no credentials (the SDK's schema),
 *   a public host; 20 per account (409 `endpoint_limit_reached` past that). Answers
 *   `{endpoint, signing_secret}`; the secret is never shown again.
 * - `POST /v1/webhook-endpoints/:id/verify`: sends the challenge and answers 200
 *   `{endpoint, verified: true}`, or 400 `endpoint_verification_failed` saying why.
 * - `PATCH /v1/webhook-endpoints/:id` `{enabled}`: pauses or resumes.
 * - `POST /v1/webhook-endpoints/:id/rotate-secret`: `{endpoint, signing_secret, key_id,
 *   previous_key_id, previous_key_expires_at}`.
 */
export function registerWebhookRoutes(router: RouteRegistry, gateway: GatewayState): void {
  const webhooks = webhookState(gateway);

  router.add('POST', '/v1/webhook-endpoints', (ctx) => {
    const { url } = ctx.validate(webhookEndpointCreateSchema);
    const { endpoint, secret } = webhooks.createEndpoint(ctx.account.id, url);
    return ctx.json(200, { endpoint: renderEndpoint(webhooks, endpoint), signing_secret: secret });
  });

  router.add(
    'POST',
    '/v1/webhook-endpoints/:id/verify',
    async (ctx) => {
      const endpoint = webhooks.endpointFor(ctx.account.id, ctx.params.id);
      const result = await webhooks.verify(endpoint);
      if (!result.verified) {
        throw MockHttpError.spec(
          400,
          'endpoint_verification_failed',
          `verification of ${endpoint.id} failed: ${result.reason}. The receiver must answer 200 ` +
            '{"challenge": <value>} within 10 seconds.',
        );
      }
      return ctx.json(200, { endpoint: renderEndpoint(webhooks, endpoint), verified: true });
    },
    { body: 'none' },
  );

  router.add('PATCH', '/v1/webhook-endpoints/:id', (ctx) => {
    const endpoint = webhooks.endpointFor(ctx.account.id, ctx.params.id);
    const { enabled } = ctx.validate(webhookEndpointUpdateSchema);
    webhooks.setEnabled(endpoint, enabled);
    return ctx.json(200, { endpoint: renderEndpoint(webhooks, endpoint) });
  });

  router.add(
    'POST',
    '/v1/webhook-endpoints/:id/rotate-secret',
    (ctx) => {
      const endpoint = webhooks.endpointFor(ctx.account.id, ctx.params.id);
      const secret = webhooks.rotateSecret(endpoint);
      const rendered = renderEndpoint(webhooks, endpoint);
      return ctx.json(200, {
        endpoint: rendered,
        signing_secret: secret,
        key_id: rendered.key_id,
        previous_key_id: rendered.previous_key_id,
        previous_key_expires_at: rendered.previous_key_expires_at,
      });
    },
    { body: 'none' },
  );

  registerWebhookEventRoutes(router, gateway);
}
