// Covers: the client against the mock gateway: image task events
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { MediaGateway } from '../../src/index.js';
import { type MockGateway, pngImage, startMockGateway } from '../../src/testing/index.js';
import { type MockWebhooks, mockWebhooks } from '../../src/testing/state/webhooks/index.js';
import { testClient } from '../helpers/client.js';

// The image routes as task-event producers: what they keep in the task (notifications,
// client_reference_id, batch_id) and the images they publish, as the delivery engine reads them.

let gateway: MockGateway;
let client: MediaGateway;
let webhooks: MockWebhooks;
let receiver: Server;
let endpointId: string;
const agent = new Agent({ keepAliveTimeout: 1_000 });

beforeAll(async () => {
  gateway = await startMockGateway({ clock: 'manual' });
  client = testClient({ gateway, dispatcher: agent });
  receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const { port } = receiver.address() as AddressInfo;
  webhooks = mockWebhooks(gateway).configure({ jitter: false });
  webhooks.route('https://hooks.example.com/mediagw', `http://127.0.0.1:${port}/hook`);
  const { endpoint } = webhooks.createEndpoint('acct_1', 'https://hooks.example.com/mediagw');
  endpoint.verified = true;
  endpointId = endpoint.id;
});
afterAll(async () => {
  await gateway.close();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
  await agent.close();
});

function payloadOf(taskId: string, type: string) {
  const [event] = webhooks.events({ taskId, type });
  return event ? (JSON.parse(webhooks.bodyOf(event)) as { data: Record<string, unknown> }) : undefined;
}

describe('image tasks as event producers', () => {
  test('editAsync: notifications (a JSON-string part) and client_reference_id reach the task', async () => {
    const notifications = { webhook: { endpoint_id: endpointId, events: ['task.completed' as const] } };
    const { task_id } = await client.images.editAsync({
      model: 'imgmodel-2',
      prompt: 'add a moon',
      n: 2,
      image: pngImage(),
      notifications,
      client_reference_id: 'ref-edit-1',
    });
    expect(gateway.tasks.get(task_id)?.data).toMatchObject({
      notifications,
      client_reference_id: 'ref-edit-1',
    });
    await gateway.clock.advance(10_000);
    await webhooks.flush();
    const payload = payloadOf(task_id, 'task.completed');
    expect(payload?.data).toMatchObject({
      task_id,
      kind: 'image',
      model: 'imgmodel-2',
      client_reference_id: 'ref-edit-1',
    });
    const outputs = (payload!.data.result as { outputs: Array<{ url: string }> }).outputs;
    const task = await client.images.getTask(task_id, { model: 'imgmodel-2' });
    // Every image is in the event, with the same URLs the task query lists.
    expect(outputs.map((o) => o.url)).toEqual(task.images.map((i) => i.url));
    expect(outputs).toHaveLength(2);
  });

  test('midjourney: the child event carries batch_id and the batch completes', async () => {
    const { task_id } = await client.midjourney.generate({
      prompt: 'a harbour at night',
      notifications: { webhook: { endpoint_id: endpointId, events: ['task.completed', 'batch.completed'] } },
    });
    const batchId = (gateway.tasks.get(task_id)!.data as { batch_id: string }).batch_id;
    await gateway.clock.advance(10_000);
    await webhooks.flush();
    expect(payloadOf(task_id, 'task.completed')?.data).toMatchObject({ task_id, batch_id: batchId });
    expect(webhooks.events({ taskId: task_id, type: 'batch.completed' })).toHaveLength(1);
  });

  test('a failed task produces task.failed only when subscribed; a refused request none', async () => {
    const { task_id } = await client.images.generateAsync({
      model: 'imgmodel-2',
      prompt: 'mock:fail',
      notifications: { webhook: { endpoint_id: endpointId, events: ['task.failed'] } },
    });
    await gateway.clock.advance(10_000);
    await webhooks.flush();
    expect(payloadOf(task_id, 'task.failed')?.data).toMatchObject({ status: 'failed', result: null });
    const before = webhooks.events().length;
    await expect(
      client.images.generateAsync({
        model: 'imgmodel-2',
        prompt: 'mock:moderation',
        nsfw_check: true,
        notifications: { webhook: { endpoint_id: endpointId, events: ['task.failed'] } },
      } as Parameters<typeof client.images.generateAsync>[0]),
    ).rejects.toThrow(/nsfw_content_detected/);
    await gateway.clock.advance(10_000);
    expect(webhooks.events()).toHaveLength(before);
  });
});
