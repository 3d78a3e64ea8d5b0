/**
 * The dashboard's actions. Each is a thin call to the mock's public API, so a test can do the
 * same thing: `gateway.clock.advance`, `gateway.tasks.finishNow`, `reviewLibraryAsset`,
 * `mockWebhooks(gateway).redeliver / setEnabled / rotateSecret`, `gateway.inject`.
 */

import { MockHttpError } from '../http-error.js';
import type { FaultTable } from '../state/faults.js';
import type { GatewayState } from '../state/gateway-state.js';
import { reviewLibraryAsset } from '../state/library-store.js';
import { mockWebhooks } from '../state/webhooks/index.js';

/** What an action answers: a sentence for the page to announce. */
export interface ActionResult {
  /** Said to the user, e.g. `Task cgt-1 failed with task_failed`. */
  message: string;
}

type Body = Record<string, unknown>;
type Action = (
  gateway: GatewayState,
  body: Body,
  faults: Pick<FaultTable, 'add'>,
) => Promise<ActionResult> | ActionResult;

/** The longest text an action takes: a failure code of megabytes went into every view. */
const MAX_TEXT = 200;

function text(body: Body, name: string): string {
  const value = body[name];
  if (typeof value !== 'string' || value === '' || value.length > MAX_TEXT)
    throw MockHttpError.spec(
      400,
      'invalid_request',
      `${name}: must be a string of 1 to ${MAX_TEXT} characters`,
    );
  return value;
}

function count(body: Body, name: string, min: number, max: number): number {
  const value = body[name];
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max)
    throw MockHttpError.spec(400, 'invalid_request', `${name}: must be a whole number from ${min} to ${max}`);
  return value;
}

function endpointOf(gateway: GatewayState, body: Body) {
  const id = text(body, 'endpointId');
  const endpoint = mockWebhooks(gateway).endpoints.get(id);
  if (!endpoint) throw MockHttpError.notFound(`webhook endpoint ${id}`);
  return endpoint;
}

/** The actions by the name the page posts to, `/_dashboard/actions/<name>`. */
export const ACTIONS: Record<string, Action> = {
  'advance-clock': async (gateway, body) => {
    const ms = count(body, 'ms', 1, 30 * 86_400_000);
    await gateway.clock.advance(ms);
    return { message: `Clock advanced by ${ms} ms` };
  },
  'finish-task': (gateway, body) => {
    const id = text(body, 'taskId');
    const task = gateway.tasks.get(id);
    if (!task) throw MockHttpError.notFound(`task ${id}`);
    if (gateway.tasks.state(task).terminal)
      throw MockHttpError.spec(409, 'conflict', `task ${id} has already ended`);
    const code = body.failureCode === undefined ? undefined : text(body, 'failureCode');
    if (code === undefined) {
      gateway.tasks.finishNow(id, 'succeeded');
      return { message: `Task ${id} succeeded` };
    }
    gateway.tasks.finishNow(id, { failed: { code, message: `failed from the dashboard with ${code}` } });
    return { message: `Task ${id} failed with ${code}` };
  },
  'review-asset': (gateway, body) => {
    const id = text(body, 'assetId');
    const decision = body.decision;
    if (decision !== 'approve' && decision !== 'reject')
      throw MockHttpError.spec(400, 'invalid_request', 'decision: must be approve or reject');
    try {
      const asset = reviewLibraryAsset(gateway, id, decision);
      return { message: `Asset ${id} is ${asset.status}` };
    } catch {
      throw MockHttpError.notFound(`asset ${id}`);
    }
  },
  'replay-event': (gateway, body) => {
    const id = text(body, 'eventId');
    const webhooks = mockWebhooks(gateway);
    const event = webhooks.event(id);
    if (!event) throw MockHttpError.notFound(`event ${id}`);
    webhooks.redeliver(event);
    return { message: `Event ${id} replayed` };
  },
  'set-endpoint': (gateway, body) => {
    const endpoint = endpointOf(gateway, body);
    if (typeof body.enabled !== 'boolean')
      throw MockHttpError.spec(400, 'invalid_request', 'enabled: must be true or false');
    mockWebhooks(gateway).setEnabled(endpoint, body.enabled);
    return { message: `Endpoint ${endpoint.id} ${body.enabled ? 'resumed' : 'paused'}` };
  },
  'rotate-secret': (gateway, body) => {
    const endpoint = endpointOf(gateway, body);
    // The new secret is not shown: read it in a test with mockWebhooks(gateway).secrets(id).
    mockWebhooks(gateway).rotateSecret(endpoint);
    return { message: `Endpoint ${endpoint.id} now signs with ${endpoint.keyId}` };
  },
  'inject-fault': (_gateway, body, faults) => {
    const path = text(body, 'path');
    if (!path.startsWith('/')) throw MockHttpError.spec(400, 'invalid_request', 'path: must start with /');
    const method = body.method === undefined || body.method === '' ? undefined : text(body, 'method');
    const times = count(body, 'times', 1, 1000);
    const status = count(body, 'status', 400, 599);
    faults.add({ match: { method, path, origin: 'api' }, times, fault: { status } });
    return { message: `The next ${times} ${method ?? 'any'} request(s) to ${path} answer ${status}` };
  },
};
