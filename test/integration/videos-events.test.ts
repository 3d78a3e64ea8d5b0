// Covers: the client against the mock gateway: video task events
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BadRequestError } from '../../src/core/errors.js';
import { TaskEventHub } from '../../src/core/events-hub.js';
import { mockWebhooks } from '../../src/testing/state/webhooks/index.js';
import { createNodeWebhookHandler, type HandledWebhookEvent } from '../../src/webhooks/index.js';
import { rejection } from '../helpers/rejection.js';
import { startVideoRig, VIDEO_DONE_MS, type VideoRig } from './videos-helpers.js';

const HOOK_URL = 'https://hooks.videos.example/mediagw';
let rig: VideoRig;
let receiver: Server;
let endpointId: string;
const hub = new TaskEventHub();
const received: HandledWebhookEvent[] = [];

beforeAll(async () => {
  rig = await startVideoRig();
  const created = await rig.client.webhooks.endpoints.create({ url: HOOK_URL });
  endpointId = created.endpoint.id;
  receiver = createServer(
    createNodeWebhookHandler({
      secrets: { [created.endpoint.key_id]: created.signing_secret },
      onEvent: (event) => {
        received.push(event);
        hub.publish(event);
      },
    }),
  );
  await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done));
  const { port } = receiver.address() as AddressInfo;
  mockWebhooks(rig.gateway).route(HOOK_URL, `http://127.0.0.1:${port}/`);
  await rig.client.webhooks.endpoints.verify(endpointId);
});
afterAll(async () => {
  await rig.gateway.close();
  await new Promise((done) => receiver.close(done));
});

describe('video tasks and webhook events', () => {
  test('a completed task notifies its endpoint, and a wait on the hub ends on the event', async () => {
    const { client, gateway } = rig;
    const { task_id } = await client.videos.create({
      model: 'vidmodel-2.5',
      prompt: 'fireworks over a harbour',
      duration: 5,
      notifications: { webhook: { endpoint_id: endpointId, events: ['task.completed', 'task.failed'] } },
      client_reference_id: 'harbour-42',
    });
    const wait = client.videos.waitForTask(task_id, { events: hub });
    await gateway.clock.advance(VIDEO_DONE_MS);
    await mockWebhooks(gateway).flush();
    const task = await wait;
    expect(task.status).toBe('completed');
    const event = received.find((e) => e.type === 'task.completed' && e.data.task_id === task_id);
    expect(event).toMatchObject({
      type: 'task.completed',
      data: { kind: 'video', model: 'vidmodel-2.5', status: 'completed', client_reference_id: 'harbour-42' },
    });
    const outputs = event?.type === 'task.completed' ? event.data.result?.outputs : undefined;
    expect(outputs).toEqual([expect.objectContaining({ type: 'video', url: task.url })]);
    // One confirming query, no polling.
    expect(
      gateway.requests.filter((r) => r.method === 'GET' && r.path === `/v1/videos/${task_id}`),
    ).toHaveLength(1);
  });

  test('an unknown endpoint is refused before a task or a reservation exists', async () => {
    const { client, gateway } = rig;
    const entries = gateway.ledger.entries.length;
    const error = await rejection(
      client.videos.create({
        model: 'vidmodel-2.0-mini',
        prompt: 'a kite',
        notifications: { webhook: { endpoint_id: 'whep_unknown', events: ['task.completed'] } },
      }),
    );
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error.message).toContain('notifications.webhook.endpoint_id');
    expect(gateway.ledger.entries).toHaveLength(entries);
  });
});
