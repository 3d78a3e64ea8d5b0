import type { MediaGateway } from '../../src/client.js';
import type { Notifications } from '../../src/schemas/shared/common.js';
import { type MockGateway, type MockGatewayOptions, startMockGateway } from '../../src/testing/index.js';
import { type MockWebhooks, mockWebhooks } from '../../src/testing/state/webhooks/index.js';
import { testClient } from '../helpers/client.js';
import { type ReceiverOptions, startReceiver, type TestReceiver } from './webhooks-receiver.js';

/** A gateway, a client, and a verified endpoint routed to a local receiver. */
export interface WebhookRig {
  gateway: MockGateway;
  client: MediaGateway;
  webhooks: MockWebhooks;
  receiver: TestReceiver;
  endpointId: string;
  keyId: string;
  secret: string;
  notifications: (events?: Notifications['webhook']['events']) => Notifications;
  close(): Promise<void>;
}

let counter = 0;

/**
 * Starts a manual-clock gateway (no jitter, signed on the mock clock), registers `https://hooks.example.com/<n>`, routes it
 * to a fresh receiver that checks timestamps against the mock clock, and verifies it.
 */
export async function startRig(
  options: MockGatewayOptions = {},
  receiverOptions: Pick<ReceiverOptions, 'onEvent'> = {},
): Promise<WebhookRig> {
  const gateway = await startMockGateway({ clock: 'manual', ...options });
  const webhooks = mockWebhooks(gateway).configure({ jitter: false, signingClock: 'mock' });
  const client = testClient({ gateway });
  const url = `https://hooks.example.com/rig-${++counter}`;
  const created = await client.webhooks.endpoints.create({ url });
  const receiver = await startReceiver({
    secrets: { [created.endpoint.key_id]: created.signing_secret },
    clock: () => gateway.clock.nowSeconds(),
    ...receiverOptions,
  });
  webhooks.route(url, receiver.url);
  await client.webhooks.endpoints.verify(created.endpoint.id);
  return {
    gateway,
    client,
    webhooks,
    receiver,
    endpointId: created.endpoint.id,
    keyId: created.endpoint.key_id,
    secret: created.signing_secret,
    notifications: (events = ['task.completed', 'task.failed']) => ({
      webhook: { endpoint_id: created.endpoint.id, events: [...events] },
    }),
    async close() {
      await gateway.close();
      await receiver.close();
    },
  };
}

/** Creates a video task that uses the rig's endpoint, straight in the task engine. */
export function videoTask(rig: WebhookRig, data: Record<string, unknown> = {}, failed = false) {
  return rig.gateway.tasks.create({
    account: 'acct_1',
    kind: 'video',
    model: 'vidmodel-2.5',
    plan: failed ? { outcome: { failed: { code: 'task_failed', message: 'mock: generation failed' } } } : {},
    data: { notifications: rig.notifications(), ...data },
  });
}
