// Covers: the client against the mock gateway: video waits
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import type { MediaGatewayError } from '../../src/core/base-error.js';
import {
  AmbiguousSubmissionError,
  APIUserAbortError,
  BadRequestError,
  ContentModerationError,
  InternalServerError,
  PermissionDeniedError,
  TaskFailedError,
  WaitTimeoutError,
} from '../../src/core/errors.js';
import { InvalidOptionError } from '../../src/core/options.js';
import { mockWebhooks } from '../../src/testing/index.js';
import { testClient } from '../helpers/client.js';
import { rejection } from '../helpers/rejection.js';
import { startVideoRig, type VideoRig, videoSubmissions } from './videos-helpers.js';

let rig: VideoRig;
beforeAll(async () => {
  rig = await startVideoRig();
});
afterAll(() => rig.gateway.close());
afterEach(() => {
  rig.gateway.clearFaults();
  rig.gateway.resetRequests();
});

const kite = { model: 'vidmodel-2.0-mini', prompt: 'a red kite', duration: 5 } as const;

describe('createAndWait', () => {
  test('submits once, reports the task ID first, and reports rising progress', async () => {
    const { client, gateway } = rig;
    const events: string[] = [];
    const progress: string[] = [];
    const task = await client.videos.createAndWait(kite, {
      interval: 1,
      onSubmitted: (id) => events.push(`submitted ${id}`),
      onProgress: (t) => {
        if (events.length === 1) events.push('first poll');
        progress.push(String(t.progress));
        // Each poll moves the mock clock 2 s: the task is seen queued, running, then completed.
        void gateway.clock.advance(2_000);
      },
    });
    expect(task.status).toBe('completed');
    expect(events).toEqual([`submitted ${task.id}`, 'first poll']);
    expect(progress).toEqual(['0%', '0%', '25%', '50%', '75%', '100%']);
    const percents = progress.map((p) => Number.parseInt(p, 10));
    expect(percents).toEqual([...percents].sort((a, b) => a - b));
    expect(videoSubmissions(gateway)).toHaveLength(1);
    expect(
      gateway.requests.filter((r) => r.method === 'GET').every((r) => r.path === `/v1/videos/${task.id}`),
    ).toBe(true);
  });

  test.each([
    ['mock:fail', 'task_failed'],
    ['mock:format', 'FormatUnsupported'],
    ['mock:mismatch', 'InvalidParameter.TaskTypeMismatch'],
  ])('a task failed by %s raises TaskFailedError with code %s', async (marker, code) => {
    const { client, gateway } = rig;
    const submitted: string[] = [];
    const error = await rejection(
      client.videos.createAndWait(
        { model: 'vidmodel-2.5', prompt: `${marker} a glacier`, omni_reference_task_type: 'auto' },
        {
          interval: 1,
          onSubmitted: (id) => submitted.push(id),
          onProgress: () => void gateway.clock.advance(5_000),
        },
      ),
    );
    expect(error).toBeInstanceOf(TaskFailedError);
    expect(error.code).toBe(code);
    const failed = error as unknown as TaskFailedError;
    expect(failed.taskId).toBe(submitted[0]);
    expect((failed.task as { status: string }).status).toBe('failed');
    expect(videoSubmissions(gateway)).toHaveLength(1);
    expect(gateway.ledger.entriesFor(failed.taskId).map((e) => e.kind)).toEqual(['reserve', 'refund']);
  });

  test('a submission that hangs is ambiguous and the wait never starts', async () => {
    const { gateway } = rig;
    gateway.inject({ match: { method: 'POST', path: '/v1/videos/generations' }, fault: { hang: true } });
    const client = testClient({ gateway, maxRetries: 2, timeout: 200 });
    const submitted: string[] = [];
    const error = await rejection(
      client.videos.createAndWait(kite, { interval: 1, onSubmitted: (id) => submitted.push(id) }),
    );
    expect(error).toBeInstanceOf(AmbiguousSubmissionError);
    expect(submitted).toEqual([]);
    // Never retried despite maxRetries: 2, and never polled.
    expect(gateway.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /v1/videos/generations']);
  });

  test('a connection reset after the body is ambiguous; the gateway holds exactly one reservation', async () => {
    const { gateway } = rig;
    const client = testClient({ gateway, maxRetries: 2 });
    const before = gateway.ledger.entries.length;
    const tasksBefore = gateway.tasks.list({ kind: 'video' }).length;
    gateway.inject({
      match: { method: 'POST', path: '/v1/videos/generations' },
      fault: { reset: 'after-body', runHandler: true },
    });
    const error = await rejection(client.videos.createAndWait(kite, { interval: 1 }));
    expect(error).toBeInstanceOf(AmbiguousSubmissionError);
    expect(videoSubmissions(gateway)).toHaveLength(1);
    const added = gateway.ledger.entries.slice(before);
    expect(added.map((e) => [e.kind, e.seconds, e.tier])).toEqual([['reserve', 5, '720P']]);
    // The task exists although the caller never saw its ID: exactly the case the error warns about.
    expect(gateway.tasks.list({ kind: 'video' })).toHaveLength(tasksBefore + 1);
  });
});

/** What a call rejected with, as the SDK error it must be. */
const sdkRejection = async (promise: PromiseLike<unknown>) =>
  (await rejection(promise)) as unknown as MediaGatewayError;

describe('createAndWait keeps the billed task ID on whatever ends its wait', () => {
  test('a caller abort during the wait: APIUserAbortError with taskId, in its JSON too', async () => {
    const { client, gateway } = rig;
    const controller = new AbortController();
    const submitted: string[] = [];
    const error = await sdkRejection(
      client.videos.createAndWait(kite, {
        interval: 1,
        signal: controller.signal,
        onSubmitted: (id) => submitted.push(id),
        onProgress: () => controller.abort(new Error('shutting down')),
      }),
    );
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect(submitted).toHaveLength(1);
    expect(error.taskId).toBe(submitted[0]);
    expect(error.toJSON()).toMatchObject({ name: 'APIUserAbortError', taskId: submitted[0] });
    expect(videoSubmissions(gateway)).toHaveLength(1);
  });

  test('polls that fail for good: the status error with taskId, submitted once', async () => {
    const { gateway } = rig;
    const client = testClient({ ...gateway.clientOptions(), maxRetries: 1 });
    gateway.inject({ match: { method: 'GET', path: /^\/v1\/videos\// }, times: 10, fault: { status: 503 } });
    const error = await sdkRejection(client.videos.createAndWait(kite, { interval: 1 }));
    expect(error).toBeInstanceOf(InternalServerError);
    const [submission] = videoSubmissions(gateway);
    expect(videoSubmissions(gateway)).toHaveLength(1);
    expect(error.taskId).toMatch(/^cgt-/);
    expect(gateway.tasks.list({ kind: 'video' }).map((t) => t.id)).toContain(error.taskId);
    expect(submission).toBeDefined();
  });

  test('a wait error that has its own taskId keeps it', async () => {
    const { client } = rig;
    const submitted: string[] = [];
    const error = await sdkRejection(
      client.videos.createAndWait(kite, {
        interval: 5,
        timeout: 60,
        onSubmitted: (id) => submitted.push(id),
      }),
    );
    expect(error).toBeInstanceOf(WaitTimeoutError);
    expect(error.taskId).toBe(submitted[0]);
  });

  test.each([
    ['onSubmitted that is not a function', { onSubmitted: 'save' }, 'onSubmitted'],
    ['events without waitFor', { events: {} }, 'events'],
    ['events that is a string', { events: 'redis' }, 'events'],
  ])('%s is refused before the submission', async (_, options, option) => {
    const { client, gateway } = rig;
    const error = await sdkRejection(client.videos.createAndWait(kite, options as never));
    expect(error).toBeInstanceOf(InvalidOptionError);
    expect((error as InvalidOptionError).option).toBe(option);
    expect(gateway.requests).toHaveLength(0);
  });

  test('an event source that throws rather than rejects does not end the wait: it polls on', async () => {
    const { client, gateway } = rig;
    const events = {
      waitFor: () => {
        throw new Error('event bus not connected');
      },
    };
    // The request subscribes task.completed, so the wait listens on `events` (without a
    // subscription it would poll at its normal pace and never ask the source).
    const webhooks = mockWebhooks(gateway);
    webhooks.route('https://hooks.example.com/kite', 'http://127.0.0.1:9/hook');
    const { endpoint } = webhooks.createEndpoint('acct_1', 'https://hooks.example.com/kite');
    endpoint.verified = true;
    const notifications = { webhook: { endpoint_id: endpoint.id, events: ['task.completed' as const] } };
    const task = await client.videos.createAndWait(
      { ...kite, notifications },
      {
        events: events as never,
        fallbackInterval: 1,
        onProgress: () => void gateway.clock.advance(2_000),
      },
    );
    expect(task.status).toBe('completed');
    expect(videoSubmissions(gateway)).toHaveLength(1);
  });
});

describe('waitForTask', () => {
  test('times out with the task ID, having submitted exactly once', async () => {
    const { client, gateway } = rig;
    const { task_id } = await client.videos.create(kite);
    const error = await rejection(client.videos.waitForTask(task_id, { interval: 5, timeout: 60 }));
    expect(error).toBeInstanceOf(WaitTimeoutError);
    const timeout = error as unknown as WaitTimeoutError;
    expect(timeout.taskId).toBe(task_id);
    expect((timeout.lastTask as { status: string }).status).toBe('queued');
    expect(videoSubmissions(gateway)).toHaveLength(1);
  });

  test('an aborted signal stops the wait', async () => {
    const { client } = rig;
    const { task_id } = await client.videos.create(kite);
    const controller = new AbortController();
    const wait = client.videos.waitForTask(task_id, { interval: 5, signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    await expect(wait).rejects.toMatchObject({ name: 'APIUserAbortError' });
  });
});

describe('refusals create no task and no reservation', () => {
  test.each([
    ['a rule the schema checks', { model: 'vidmodel-2.0-mini', prompt: 'x', duration: 20 }, 'duration'],
    [
      'a too long reference video the gateway detects',
      { model: 'vidmodel-2.0-mini', prompt: 'x', video_urls: ['https://e.example/a.mp4?mock_seconds=16'] },
      'video_urls',
    ],
    ['an unknown preview', { model: 'vidmodel-2.5', draft_task_id: 'cgt-missing' }, 'draft_task_id'],
  ])('400 for %s', async (_name, body, field) => {
    const { gateway } = rig;
    const before = gateway.ledger.entries.length;
    const tasks = gateway.tasks.list().length;
    const response = await fetch(`${gateway.url}/v1/videos/generations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gateway.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(response.status).toBe(400);
    const answer = (await response.json()) as { code: string; message: string; data: null };
    expect(answer).toMatchObject({ code: 'invalid_request', data: null });
    expect(answer.message).toContain(field);
    expect(gateway.ledger.entries).toHaveLength(before);
    expect(gateway.tasks.list()).toHaveLength(tasks);
  });

  test('the SDK refuses what the gateway would, before sending', async () => {
    const { client, gateway } = rig;
    const error = await rejection(client.videos.create({ ...kite, duration: 20 }));
    expect(error.name).toBe('RequestValidationError');
    expect(gateway.requests).toHaveLength(0);
  });

  test('a gateway 400 reaches the caller as BadRequestError', async () => {
    const { client, gateway } = rig;
    const before = gateway.ledger.entries.length;
    const error = await rejection(client.videos.create({ model: 'vidmodel-2.5', draft_task_id: 'cgt-none' }));
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error.code).toBe('invalid_request');
    expect(gateway.ledger.entries).toHaveLength(before);
  });

  test('moderation: nsfw_content_detected with its categories', async () => {
    const { client, gateway } = rig;
    const before = gateway.ledger.entries.length;
    const error = await rejection(
      client.videos.create({ model: 'vidmodel-2.5', prompt: 'mock:moderation', nsfw_check: true }),
    );
    expect(error).toBeInstanceOf(ContentModerationError);
    expect((error as unknown as ContentModerationError).categories).toEqual(['sexual', 'violence']);
    expect(gateway.ledger.entries).toHaveLength(before);
    // Without nsfw_check the same prompt is accepted.
    await expect(
      client.videos.create({ model: 'vidmodel-2.5', prompt: 'mock:moderation' }),
    ).resolves.toBeTruthy();
  });

  test('a key restricted to other models gets 403 and nothing is reserved', async () => {
    const { gateway } = rig;
    const restricted = testClient({ apiKey: gateway.account('acct_1').restrictedKey!, baseURL: gateway.url });
    const before = gateway.ledger.entries.length;
    const error = await rejection(restricted.videos.create({ model: 'vidmodel-2.5', prompt: 'a cat' }));
    expect(error).toBeInstanceOf(PermissionDeniedError);
    expect(gateway.ledger.entries).toHaveLength(before);
    await expect(restricted.videos.create(kite)).resolves.toMatchObject({ status: 'submitted' });
  });
});

describe('the submission envelope', () => {
  test('vidmodel-2.5 carries error: null; other models have no error key; the alias path works', async () => {
    const { gateway } = rig;
    const post = async (path: string, body: unknown) => {
      const response = await fetch(`${gateway.url}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${gateway.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return (await response.json()) as Record<string, unknown>;
    };
    const v25 = await post('/v1/videos/generations', { model: 'vidmodel-2.5', prompt: 'a whale' });
    expect(v25).toEqual({
      code: 200,
      data: [{ status: 'submitted', task_id: expect.stringMatching(/^cgt-/) }],
      error: null,
    });
    const mini = await post('/v1/video/generations', kite);
    expect(mini).toEqual({
      code: 200,
      data: [{ status: 'submitted', task_id: expect.stringMatching(/^cgt-/) }],
    });
  });
});
