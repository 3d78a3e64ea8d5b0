// Covers: the client against the mock gateway: async image tasks
import { describe, expect, test } from 'vitest';
import {
  APIUserAbortError,
  type ImageTask,
  NotFoundError,
  RequestValidationError,
  TaskFailedError,
  WaitTimeoutError,
} from '../../src/index.js';
import { pngImage } from '../../src/testing/index.js';
import { testClient } from '../helpers/client.js';
import { rejection } from '../helpers/rejection.js';
import { apiRequests, PNG_MAGIC, partSummary } from './images-helpers.js';
import { mockGatewayClient } from './mock-client.js';

const { gateway, client, agent } = await mockGatewayClient();

/** Every poll moves the manual clock on by `stepMs`, so a wait sees the task go through its states. */
function advancing(stepMs: number, seen: string[] = []) {
  return (task: ImageTask) => {
    seen.push(task.status);
    void gateway.clock.advance(stepMs);
  };
}

describe('asynchronous generation and edits', () => {
  test('generateAsync + waitForTask: one POST, polls through the states, every image listed', async () => {
    const submission = await client.images.generateAsync({ model: 'imgmodel-2', prompt: 'a fox', n: 2 });
    expect(submission.task_id).toMatch(/^task_/);
    expect(submission.status).toBe('submitted');
    const seen: string[] = [];
    const task = await client.images.waitForTask(submission.task_id, {
      model: 'imgmodel-2',
      interval: 5,
      onProgress: advancing(2_000, seen),
    });
    expect(task.state).toBe('succeeded');
    expect(task.images).toHaveLength(2);
    expect(seen).toEqual(['pending', 'processing', 'processing', 'succeeded']);
    expect(apiRequests(gateway, 'POST', '/v1/images/generations/async')).toHaveLength(1);
    const polls = apiRequests(gateway, 'GET', `/v1/tasks/${submission.task_id}`);
    expect(polls.every((r) => r.query.model === 'imgmodel-2')).toBe(true);
    const bytes = Buffer.from(await (await client.images.download(task.images[1]!)).arrayBuffer());
    expect(bytes.subarray(0, 8)).toEqual(PNG_MAGIC);
  });

  test('legacy answers (bare URL strings, success/in_progress words) are normalised', async () => {
    const { task_id } = await client.images.generateAsync({
      model: 'imgmodel-2',
      prompt: 'mock:legacy owl',
      n: 3,
    });
    const seen: string[] = [];
    const task = await client.images.waitForTask(task_id, {
      model: 'imgmodel-2',
      interval: 5,
      onProgress: advancing(2_000, seen),
    });
    expect(seen).toEqual(['submitted', 'in_progress', 'in_progress', 'success']);
    expect(task.state).toBe('succeeded');
    const wire = task.raw.data?.result?.images ?? [];
    expect(wire.every((entry) => typeof entry === 'string')).toBe(true);
    expect(task.images).toEqual(wire.map((url) => ({ url })));
    expect(task.images).toHaveLength(3);
  });

  test('editAsync sends client_reference_id as its own part; the task keeps it', async () => {
    const { task_id } = await client.images.editAsync({
      model: 'imgmodel-2.5-flare',
      prompt: 'add snow',
      image: [pngImage({ seed: 1 }), pngImage({ seed: 2 })],
      client_reference_id: 'order-42',
    });
    const [sent] = apiRequests(gateway, 'POST', '/v1/images/edits/async');
    expect(partSummary(sent).map((p) => p.name)).toEqual([
      'model',
      'prompt',
      'client_reference_id',
      'image[]',
      'image[]',
    ]);
    expect(gateway.tasks.get(task_id)?.data).toMatchObject({
      client_reference_id: 'order-42',
      route: 'edits',
    });
    const task = await client.images.waitForTask(task_id, {
      model: 'imgmodel-2.5-flare',
      interval: 5,
      onProgress: advancing(3_000),
    });
    expect(task.images).toHaveLength(1);
  });

  test('a notifications reference to an unknown endpoint is refused by the gateway, no task', async () => {
    const before = gateway.tasks.list().length;
    const error = await rejection(
      client.images.editAsync({
        model: 'imgmodel-2',
        prompt: 'x',
        image: pngImage(),
        notifications: { webhook: { endpoint_id: 'whep_unknown', events: ['task.completed'] } },
      }),
    );
    expect((error as { status?: number }).status).toBe(400);
    expect((error as Error).message).toMatch(/notifications\.webhook\.endpoint_id/);
    const [sent] = apiRequests(gateway, 'POST', '/v1/images/edits/async');
    const notifications = sent?.parts?.find((p) => p.name === 'notifications');
    expect(JSON.parse(notifications?.value ?? '')).toEqual({
      webhook: { endpoint_id: 'whep_unknown', events: ['task.completed'] },
    });
    expect(gateway.tasks.list()).toHaveLength(before);
  });

  test('a failed task throws TaskFailedError with its code and message', async () => {
    const { task_id } = await client.images.generateAsync({ model: 'imgmodel-2', prompt: 'mock:fail' });
    const error = await rejection(
      client.images.waitForTask(task_id, { model: 'imgmodel-2', interval: 5, onProgress: advancing(3_000) }),
    );
    expect(error).toBeInstanceOf(TaskFailedError);
    expect(error).toMatchObject({
      taskId: task_id,
      kind: 'image',
      code: 'task_failed',
      message: expect.stringContaining('mock: generation failed'),
    });
    // An image wait's error holds the image task: its normalised state and images.
    expect((error as unknown as TaskFailedError).task).toMatchObject({
      task_id,
      state: 'failed',
      images: [],
    });
  });

  test('the deadline throws WaitTimeoutError with the task ID; nothing is resubmitted', async () => {
    const { task_id } = await client.images.generateAsync({ model: 'imgmodel-2', prompt: 'a slow one' });
    const error = await rejection(
      client.images.waitForTask(task_id, { model: 'imgmodel-2', interval: 10, timeout: 60 }),
    );
    expect(error).toBeInstanceOf(WaitTimeoutError);
    const timedOut = error as unknown as WaitTimeoutError;
    expect(timedOut.taskId).toBe(task_id);
    expect(timedOut.kind).toBe('image');
    expect((timedOut.lastTask as ImageTask).state).toBe('pending');
    expect(apiRequests(gateway, 'POST', '/v1/images/generations/async')).toHaveLength(1);
    expect(apiRequests(gateway, 'GET', `/v1/tasks/${task_id}`).length).toBeGreaterThanOrEqual(2);
  });

  test('a signal aborts the wait at once', async () => {
    const { task_id } = await client.images.generateAsync({
      model: 'imgmodel-2',
      prompt: 'never waited for',
    });
    const controller = new AbortController();
    const wait = client.images.waitForTask(task_id, {
      model: 'imgmodel-2',
      interval: 60_000,
      signal: controller.signal,
      onProgress: () => controller.abort(),
    });
    await expect(wait).rejects.toBeInstanceOf(APIUserAbortError);
    expect(apiRequests(gateway, 'GET', `/v1/tasks/${task_id}`)).toHaveLength(1);
  });

  test('getTask needs the submission model: none is refused locally, another is 404', async () => {
    const { task_id } = await client.images.generateAsync({ model: 'imgmodel-2', prompt: 'x' });
    gateway.resetRequests();
    await expect(client.images.getTask(task_id, {} as { model: string })).rejects.toBeInstanceOf(
      RequestValidationError,
    );
    expect(gateway.requests).toHaveLength(0);
    await expect(client.images.getTask(task_id, { model: 'imgmodel-2.5-flare' })).rejects.toBeInstanceOf(
      NotFoundError,
    );
    const other = testClient({
      apiKey: gateway.account('acct_2').apiKey,
      baseURL: gateway.url,
      dispatcher: agent,
    });
    await expect(other.images.getTask(task_id, { model: 'imgmodel-2' })).rejects.toBeInstanceOf(
      NotFoundError,
    );
  });
});
