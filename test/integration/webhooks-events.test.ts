// Covers: the client against the mock gateway: webhook events
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { MediaGateway } from '../../src/client.js';
import {
  ConflictError,
  NotFoundError,
  RateLimitError,
  RequestValidationError,
} from '../../src/core/errors.js';
import { signWebhook, verifyWebhook } from '../../src/webhooks/index.js';
import { testClient } from '../helpers/client.js';
import { startRig, videoTask, type WebhookRig } from './webhooks-setup.js';

let rig: WebhookRig;
let other: MediaGateway;

beforeAll(async () => {
  rig = await startRig();
  other = testClient({ apiKey: rig.gateway.account('acct_2').apiKey, baseURL: rig.gateway.url });
});
afterAll(() => rig.close());

const sent = (method: string, path: string) =>
  rig.gateway.requests.filter((r) => r.method === method && r.path.startsWith(path));

describe('endpoints.rotateSecret', () => {
  test('new secret and kid; deliveries use them; the previous pair is valid for 24 hours', async () => {
    const rotated = await rig.client.webhooks.endpoints.rotateSecret(rig.endpointId);
    const secret = rotated.signing_secret as string;
    const keyId = rotated.key_id as string;
    expect(secret).not.toBe(rig.secret);
    expect(keyId).not.toBe(rig.keyId);
    expect(rotated.previous_key_id).toBe(rig.keyId);
    expect(rotated.previous_key_expires_at).toBe(rig.gateway.clock.nowSeconds() + 86_400);
    expect(rig.webhooks.secrets(rig.endpointId)).toEqual({ [keyId]: secret, [rig.keyId]: rig.secret });

    // A receiver still holding only the old pair refuses the new signature: unknown_key.
    const task = videoTask(rig);
    rig.gateway.tasks.finishNow(task.id);
    await rig.webhooks.flush();
    const [event] = rig.webhooks.events({ taskId: task.id });
    expect(event?.attempts[0]).toMatchObject({ keyId, statusCode: 400 });
    expect(JSON.parse(rig.receiver.requests.at(-1)?.body ?? '{}')).toMatchObject({ id: event?.id });
    expect(rig.receiver.requests.at(-1)?.headers['x-service-signature']).toContain(`kid=${keyId}`);

    // Holding both pairs, the receiver accepts the retry (and would accept the old signature).
    rig.receiver.setSecrets(rig.webhooks.secrets(rig.endpointId));
    await rig.gateway.clock.advance(60_000);
    await rig.webhooks.flush();
    expect(event?.status).toBe('delivered');
    const old = verifyWebhook({
      body: rig.webhooks.bodyOf(event!),
      headers: signWebhook({
        body: rig.webhooks.bodyOf(event!),
        secret: rig.secret,
        keyId: rig.keyId,
        timestamp: rig.gateway.clock.nowSeconds(),
      }),
      secrets: rig.webhooks.secrets(rig.endpointId),
      now: rig.gateway.clock.nowSeconds(),
    });
    expect(old.id).toBe(event?.id);

    // After 24 hours only the new pair remains.
    await rig.gateway.clock.advance(86_400_000);
    expect(rig.webhooks.secrets(rig.endpointId)).toEqual({ [keyId]: secret });
    rig.receiver.setSecrets({ [keyId]: secret });
  });
});

describe('capabilities', () => {
  test.each([
    ['vidmodel-2.5', true, 'video', ['task.completed', 'task.failed']],
    ['vidmodel-2.0-mini', true, 'video', ['task.completed', 'task.failed']],
    ['motion-v3-motion-control', true, 'video', ['task.completed', 'task.failed']],
    ['imgmodel-2', true, 'image', ['task.completed', 'task.failed']],
    ['midjourney', true, 'image', ['task.completed', 'task.failed', 'batch.completed']],
    ['text-embedding-3-small', false, null, []],
  ])('%s: eligible %s', async (model, eligible, kind, events) => {
    const answer = await rig.client.webhooks.capabilities({ model });
    expect(answer).toMatchObject({ model, eligible, kind, events });
    const wire = sent('GET', '/v1/webhook-capabilities').at(-1);
    expect(wire?.query).toEqual({ model });
  });

  test('image models notify through the asynchronous routes only', async () => {
    const answer = await rig.client.webhooks.capabilities({ model: 'imgmodel-2.5-flare' });
    expect(answer.routes).toEqual(['POST /v1/images/generations/async', 'POST /v1/images/edits/async']);
    expect(answer.synchronous_requests_notify).toBe(false);
  });

  test('a missing model is refused before sending', async () => {
    await expect(rig.client.webhooks.capabilities({ model: '' })).rejects.toBeInstanceOf(
      RequestValidationError,
    );
  });
});

describe('events.list, events.deliveries, events.redeliver', () => {
  let taskId: string;
  let eventId: string;

  beforeAll(async () => {
    const submission = await rig.client.videos.create({
      model: 'vidmodel-2.5',
      prompt: 'a harbour at night',
      notifications: rig.notifications(['task.completed']),
      client_reference_id: 'order-42',
    });
    taskId = submission.task_id;
    await rig.gateway.clock.advance(60_000);
    await rig.webhooks.flush();
    eventId = rig.webhooks.events({ taskId })[0]?.id ?? '';
  });

  test("lists a task's events with the delivered envelope", async () => {
    const list = await rig.client.webhooks.events.list({ task_id: taskId });
    const data = list.data as Array<Record<string, unknown>>;
    expect(data).toHaveLength(1);
    expect(data[0]).toMatchObject({
      id: eventId,
      type: 'task.completed',
      task_id: taskId,
      endpoint_id: rig.endpointId,
      status: 'delivered',
      attempts: 1,
      payload: {
        id: eventId,
        type: 'task.completed',
        api_version: '2026-10-03',
        data: {
          task_id: taskId,
          model: 'vidmodel-2.5',
          kind: 'video',
          status: 'completed',
          client_reference_id: 'order-42',
          task_url: `${rig.gateway.url}/v1/videos/${taskId}`,
          result: {
            outputs: [
              {
                output_id: expect.any(String),
                type: 'video',
                url: `${rig.gateway.url}/v1/videos/${taskId}/content`,
                authentication: 'bearer',
                expires_at: null,
              },
            ],
          },
          error: null,
        },
      },
    });
    expect(rig.receiver.events.find((e) => e.id === eventId)).toEqual(data[0]?.payload);
  });

  test('lists delivery attempts; foreign or unknown events and tasks answer 404', async () => {
    const deliveries = await rig.client.webhooks.events.deliveries(eventId);
    expect(deliveries).toMatchObject({ event_id: eventId, status: 'delivered' });
    expect(deliveries.data).toEqual([
      expect.objectContaining({
        id: expect.stringMatching(/^dlv_/),
        attempt: 1,
        status: 'delivered',
        status_code: 200,
      }),
    ]);
    await expect(other.webhooks.events.deliveries(eventId)).rejects.toBeInstanceOf(NotFoundError);
    await expect(other.webhooks.events.list({ task_id: taskId })).rejects.toBeInstanceOf(NotFoundError);
    await expect(other.webhooks.events.redeliver(eventId)).rejects.toBeInstanceOf(NotFoundError);
    await expect(rig.client.webhooks.events.deliveries('evt_missing')).rejects.toBeInstanceOf(NotFoundError);
  });

  test('redeliver keeps the event ID and body, opens a new window, 5 per UTC day', async () => {
    const event = rig.webhooks.event(eventId)!;
    const body = rig.webhooks.bodyOf(event);
    // Start the day fresh so five replays fit before midnight.
    const now = rig.gateway.clock.now();
    const midnight = Date.UTC(
      new Date(now).getUTCFullYear(),
      new Date(now).getUTCMonth(),
      new Date(now).getUTCDate() + 1,
    );
    await rig.gateway.clock.advance(midnight - now + 60_000);
    const before = rig.receiver.requests.length;
    for (let i = 1; i <= 5; i++) {
      const answer = await rig.client.webhooks.events.redeliver(eventId);
      expect(answer.event).toMatchObject({ id: eventId, redeliveries_today: i });
      await rig.webhooks.flush();
    }
    const replays = rig.receiver.requests.slice(before);
    expect(replays).toHaveLength(5);
    expect(new Set(replays.map((r) => r.headers['x-service-delivery-id'])).size).toBe(5);
    for (const replay of replays) {
      expect(replay.headers['x-service-event-id']).toBe(eventId);
      expect(replay.body).toBe(body);
      expect(replay.status).toBe(200); // a duplicate to the handler: acknowledged, onEvent not called again
    }
    expect(rig.receiver.events.filter((e) => e.id === eventId)).toHaveLength(1);
    expect(event.deadline).toBe(rig.gateway.clock.now() + 72 * 3_600_000);

    const limited = await rig.client.webhooks.events.redeliver(eventId).catch((e: unknown) => e);
    expect(limited).toBeInstanceOf(RateLimitError);
    expect((limited as RateLimitError).code).toBe('redeliver_limit_reached');
    expect(rig.receiver.requests.length).toBe(before + 5);

    // The next UTC day allows replays again.
    await rig.gateway.clock.advance(24 * 3_600_000);
    await expect(rig.client.webhooks.events.redeliver(eventId)).resolves.toMatchObject({
      event: { redeliveries_today: 1 },
    });
    await rig.webhooks.flush();
  });

  test('redeliver is refused with 409 while a delivery is in flight', async () => {
    rig.receiver.script.push({ status: 200, delayMs: 300 });
    const first = await rig.client.webhooks.events.redeliver(eventId);
    expect(first.event).toMatchObject({ id: eventId });
    const refused = await rig.client.webhooks.events.redeliver(eventId).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ConflictError);
    expect((refused as ConflictError).code).toBe('delivery_in_flight');
    await rig.webhooks.flush();
    expect(rig.webhooks.event(eventId)?.status).toBe('delivered');
  });
});
