// Covers: the client against the mock gateway: Midjourney
import { describe, expect, test } from 'vitest';
import {
  BadRequestError,
  type MidjourneyGenerateParams,
  PermissionDeniedError,
  RequestValidationError,
} from '../../src/index.js';
import { testClient } from '../helpers/client.js';
import { rejection } from '../helpers/rejection.js';
import { apiRequests } from './images-helpers.js';
import { mockGatewayClient } from './mock-client.js';

const { gateway, client, agent } = await mockGatewayClient({ maxRetries: 2 });

const submissions = () => apiRequests(gateway, 'POST', '/v1/midjourney/generations');
const advance = () => void gateway.clock.advance(3_000);

describe('midjourney.generate', () => {
  test('fields pass through unchanged; the task is a batch child queried like an image task', async () => {
    const params = {
      prompt: 'a lighthouse, woodcut style',
      aspect_ratio: '16:9',
      options: { chaos: 10, stylize: [1, 2] },
      client_reference_id: 'mj-1',
    };
    const submission = await client.midjourney.generate(params);
    expect(submission.task_id).toMatch(/^task_/);
    expect(submissions().map((r) => r.body)).toEqual([params]);
    const stored = gateway.tasks.get(submission.task_id);
    expect(stored).toMatchObject({ kind: 'image', model: 'midjourney' });
    expect(stored?.data).toMatchObject({
      client_reference_id: 'mj-1',
      batch_id: expect.stringMatching(/^mjb_/),
    });
    const task = await client.images.waitForTask(submission.task_id, {
      model: 'midjourney',
      interval: 5,
      onProgress: advance,
    });
    expect(task.state).toBe('succeeded');
    expect(task.images).toHaveLength(4);
    expect(task.raw.data?.batch_id).toBe((stored!.data as { batch_id: string }).batch_id);
  });

  test('a model and n are honoured', async () => {
    const { task_id } = await client.midjourney.generate({ model: 'mj-v7', prompt: 'a moth', n: 2 });
    const task = await client.images.waitForTask(task_id, {
      model: 'mj-v7',
      interval: 5,
      onProgress: advance,
    });
    expect(task.images).toHaveLength(2);
  });

  test.each<[string, MidjourneyGenerateParams, string]>([
    ['notifications without webhook', { prompt: 'x', notifications: {} as never }, 'notifications.webhook'],
    [
      'events not a list',
      {
        prompt: 'x',
        notifications: { webhook: { endpoint_id: 'whep_1', events: 'task.completed' as never } },
      },
      'notifications.webhook.events',
    ],
    [
      'notifications with the legacy webhook',
      {
        prompt: 'x',
        webhook: 'https://example.com/hook',
        notifications: { webhook: { endpoint_id: 'whep_1', events: ['batch.completed'] } },
      },
      'notifications',
    ],
    [
      'client_reference_id over 128 bytes',
      { prompt: 'x', client_reference_id: 'é'.repeat(65) },
      'client_reference_id',
    ],
  ])('refused before sending: %s', async (_name, params, path) => {
    const error = await rejection(client.midjourney.generate(params));
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(error.issues?.map((i) => i.path)).toContain(path);
    expect(gateway.requests).toHaveLength(0);
  });

  test('a 128-byte client_reference_id is accepted', async () => {
    await client.midjourney.generate({ prompt: 'x', client_reference_id: 'é'.repeat(64) });
    expect(submissions()).toHaveLength(1);
  });

  test('an endpoint that is not the caller’s verified endpoint is refused by the gateway, no task', async () => {
    const before = gateway.tasks.list().length;
    const error = await rejection(
      client.midjourney.generate({
        prompt: 'x',
        notifications: {
          webhook: { endpoint_id: 'whep_missing', events: ['task.completed', 'batch.completed'] },
        },
      }),
    );
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error.message).toMatch(/notifications\.webhook\.endpoint_id/);
    expect(gateway.tasks.list()).toHaveLength(before);
    expect(submissions()).toHaveLength(1); // a 400 is never retried
  });

  test('a key restricted to other models is refused (403)', async () => {
    const restricted = testClient({
      apiKey: gateway.account('acct_1').restrictedKey!,
      baseURL: gateway.url,
      dispatcher: agent,
    });
    await expect(restricted.midjourney.generate({ prompt: 'x' })).rejects.toBeInstanceOf(
      PermissionDeniedError,
    );
  });
});
