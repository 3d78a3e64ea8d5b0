// Covers: src/testing/state/webhooks/engine.ts
// A mock running faster than real time still signs its deliveries so that an ordinary receiver
// (the default tolerance, the system clock) accepts them.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { MediaGateway } from '../../src/index.js';
import { type MockGateway, mockWebhooks, startMockGateway } from '../../src/testing/index.js';
import { createNodeWebhookHandler, verifyWebhook } from '../../src/webhooks/index.js';
import { testClient } from '../helpers/client.js';

let gateway: MockGateway;
let client: MediaGateway;
let server: Server;
const answers: Array<{ type: string; status: number; verified: boolean }> = [];
const handled: string[] = [];
let secrets: Record<string, string> = {};
let endpointId = '';

beforeAll(async () => {
  // What docs/testing.md recommends for fast tests; an hour ahead besides, so the mock clock is
  // far outside the 300 s tolerance however fast this machine runs the test.
  gateway = await startMockGateway({ speed: 1000 });
  await gateway.clock.advance(3_600_000);
  client = testClient({ ...gateway.clientOptions(), maxRetries: 2 });
  let handler: ReturnType<typeof createNodeWebhookHandler> | undefined;
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      let verified = true;
      try {
        verifyWebhook({ body, headers: req.headers, secrets });
      } catch {
        verified = false;
      }
      const type = (JSON.parse(body.toString('utf8')) as { type: string }).type;
      res.on('finish', () => answers.push({ type, status: res.statusCode, verified }));
      handler?.(Object.assign(req, { body }), res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = 'https://hooks.example.com/fast';
  const created = await client.webhooks.endpoints.create({ url });
  secrets = { [created.endpoint.key_id]: created.signing_secret };
  endpointId = created.endpoint.id;
  handler = createNodeWebhookHandler({ secrets, onEvent: (event) => void handled.push(event.type) });
  mockWebhooks(gateway).route(url, `http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
});

afterAll(async () => {
  await gateway.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('a mock at speed 1000 and a receiver with the default tolerance', () => {
  test('the verification challenge and the task events are accepted and verify', async () => {
    await client.webhooks.endpoints.verify(endpointId);
    const task = await client.videos.createAndWait(
      {
        model: 'vidmodel-2.5',
        prompt: 'a kite over the dunes',
        notifications: { webhook: { endpoint_id: endpointId, events: ['task.completed'] } },
      },
      { timeout: 60_000 },
    );
    await mockWebhooks(gateway).flush();
    const event = mockWebhooks(gateway).events({ taskId: task.id })[0];
    expect(event?.status).toBe('delivered');
    expect(answers).toEqual([
      { type: 'webhook.endpoint_verification', status: 200, verified: true },
      { type: 'task.completed', status: 200, verified: true },
    ]);
    expect(handled).toEqual(['task.completed']);
  });

  test("signingClock: 'mock' still signs with the mock clock, which this receiver refuses", async () => {
    const webhooks = mockWebhooks(gateway).configure({ signingClock: 'mock', jitter: false });
    try {
      const task = await client.videos.create({
        model: 'vidmodel-2.5',
        prompt: 'a kite at night',
        notifications: { webhook: { endpoint_id: endpointId, events: ['task.completed'] } },
      });
      gateway.tasks.finishNow(task.task_id);
      await webhooks.flush();
      const attempt = webhooks.events({ taskId: task.task_id })[0]?.attempts[0];
      expect(attempt?.statusCode).toBe(400);
      expect(attempt?.timestamp).toBeGreaterThanOrEqual(Math.floor(Date.now() / 1000) + 3000);
    } finally {
      webhooks.configure({ signingClock: 'wall' });
    }
  });
});
