import { MockHttpError } from '../http-error.js';
import type { GatewayState } from '../state/gateway-state.js';
import { webhookState } from '../state/webhooks/state.js';
import type { MockAccount } from '../types.js';

function refuse(why: string): MockHttpError {
  return MockHttpError.spec(400, 'invalid_request', `notifications.webhook.endpoint_id: ${why}`);
}

/**
 * Checks the endpoint a task request names in `notifications.webhook.endpoint_id`: it must exist,
 * belong to the caller's account, be verified and be enabled. Returns when the request names no
 * endpoint (`notifications` absent) or the endpoint is usable; routes call it before creating a
 * task. `notifications` may be the object or, from a multipart form, its JSON text.
 *
 * spec: Webhook management — "The endpoint must be verified, enabled and owned by the caller, else
 * the request is rejected before submission." Events 2 — a rejected request produces no event.
 *
 * @throws MockHttpError 400 `invalid_request` naming `notifications.webhook.endpoint_id` and why.
 * @example
 * webhookEndpointCheck(gateway, ctx.account, body.notifications);
 */
export function webhookEndpointCheck(
  gateway: GatewayState,
  account: string | MockAccount,
  notifications: unknown,
): void {
  if (notifications === undefined || notifications === null) return;
  let value = notifications;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      throw MockHttpError.spec(400, 'invalid_request', 'notifications: must be a JSON object');
    }
  }
  const accountId = typeof account === 'string' ? account : account.id;
  const webhook = (value as { webhook?: unknown } | null)?.webhook;
  const id = (webhook as { endpoint_id?: unknown } | undefined)?.endpoint_id;
  if (typeof id !== 'string' || id === '') throw refuse('is required: the ID of a verified endpoint');
  const endpoint = webhookState(gateway).endpoints.get(id);
  // A foreign endpoint is reported exactly like an unknown one: its existence is not disclosed.
  if (!endpoint || endpoint.account !== accountId) throw refuse(`endpoint ${id} was not found`);
  if (!endpoint.verified) throw refuse(`endpoint ${id} is not verified; call verify first`);
  if (!endpoint.enabled) throw refuse(`endpoint ${id} is paused; resume it with enabled: true`);
}
