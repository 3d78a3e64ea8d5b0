// Covers: src/webhooks/events.ts
import { describe, expect, expectTypeOf, test } from 'vitest';
import { TaskEventHub } from '../../src/core/events-hub.js';
import {
  createWebhookHandler,
  signWebhook,
  TERMINAL_TASK_EVENT_TYPES,
  WEBHOOK_API_VERSION,
  type WebhookEvent,
  type WebhookEventType,
} from '../../src/webhooks/index.js';
import { completedEvent, KEY_ID, NOW, SECRET, SECRETS } from './fixtures.js';

/** What a receiver typically does with each event type; the switch must narrow every member. */
function summarize(event: WebhookEvent): string {
  switch (event.type) {
    case 'task.completed':
      return `done ${event.data.task_id}: ${event.data.result.outputs.map((o) => o.url).join(',')}`;
    case 'task.failed':
      return `failed ${event.data.task_id}: ${event.data.error.code}`;
    case 'batch.completed':
      return `batch ${event.data.batch_id} ${event.data.status} ${JSON.stringify(event.data.summary)}`;
    case 'webhook.endpoint_verification':
      return `challenge ${event.data.challenge}`;
    default:
      return `unknown ${(event as { type: string }).type}`;
  }
}

describe('webhook event types', () => {
  test('constants follow the spec', () => {
    expect(WEBHOOK_API_VERSION).toBe('2026-10-03');
    expect([...TERMINAL_TASK_EVENT_TYPES]).toEqual(['task.completed', 'task.failed']);
    expectTypeOf<WebhookEventType>().toEqualTypeOf<
      'task.completed' | 'task.failed' | 'batch.completed' | 'webhook.endpoint_verification'
    >();
  });

  test('the union narrows on type, and an unknown type reaches the default branch', () => {
    expect(summarize(completedEvent())).toBe('done task_abc: https://gw.example/v1/videos/task_abc/content');
    const failed = completedEvent({
      type: 'task.failed',
      data: {
        ...completedEvent().data,
        status: 'failed',
        result: null,
        error: { code: 'generation_failed', message: 'x' },
      },
    });
    expect(summarize(failed)).toBe('failed task_abc: generation_failed');
    const batch = {
      id: 'evt_b',
      type: 'batch.completed',
      api_version: WEBHOOK_API_VERSION,
      created_at: NOW,
      data: { batch_id: 'b_1', status: 'partial_failure', summary: { succeeded: 3, failed: 1 } },
    } satisfies WebhookEvent;
    expect(summarize(batch)).toBe('batch b_1 partial_failure {"succeeded":3,"failed":1}');
    expect(summarize({ id: 'evt_n', type: 'task.progress' } as unknown as WebhookEvent)).toBe(
      'unknown task.progress',
    );
  });

  test('a handler can pass events straight to TaskEventHub.publish', async () => {
    const hub = new TaskEventHub();
    const handler = createWebhookHandler({ secrets: SECRETS, onEvent: hub.publish, clock: () => NOW });
    const body = JSON.stringify(completedEvent());
    const headers = signWebhook({ body, secret: SECRET, keyId: KEY_ID, timestamp: NOW });
    const res = await handler(new Request('http://127.0.0.1/webhooks', { method: 'POST', body, headers }));
    expect(res.status).toBe(200);
    const event = await hub.waitFor('task_abc', new AbortController().signal);
    expect(event.id).toBe('evt_0001');
  });
});
