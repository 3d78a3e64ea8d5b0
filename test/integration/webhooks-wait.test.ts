// Covers: the client against the mock gateway: waits ended by webhooks
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { TaskFailedError } from '../../src/core/errors.js';
import { TaskEventHub } from '../../src/core/events-hub.js';
import type { HandledWebhookEvent } from '../../src/webhooks/index.js';
import { startRig, type WebhookRig } from './webhooks-setup.js';

let rig: WebhookRig;
const hub = new TaskEventHub();
/** Task GETs already made when each event reached `onEvent`. */
const getsAtEvent = new Map<string, number>();

const taskGets = (taskId: string) =>
  rig.gateway.requests.filter((r) => r.method === 'GET' && r.path === `/v1/videos/${taskId}`).length;

beforeAll(async () => {
  rig = await startRig(
    {},
    {
      onEvent: (event: HandledWebhookEvent) => {
        const taskId = (event.data as { task_id?: string }).task_id ?? '';
        getsAtEvent.set(taskId, taskGets(taskId));
        hub.publish(event);
      },
    },
  );
});
afterAll(() => rig.close());

async function submit(prompt = 'a lighthouse at dusk', subscribe = true) {
  const submission = await rig.client.videos.create({
    model: 'vidmodel-2.5',
    prompt,
    ...(subscribe ? { notifications: rig.notifications() } : {}),
  });
  return submission.task_id;
}

describe('waitForTask({ events }) with the mock delivering to a real handler', () => {
  test('ends on the terminal event: no task query before it, exactly one after (the confirmation)', async () => {
    const taskId = await submit();
    const wait = rig.client.videos.waitForTask(taskId, { events: hub });
    await delay(200); // a wait without events queries at once
    expect(hub.size.waiting).toBe(1);
    expect(taskGets(taskId)).toBe(0);

    await rig.gateway.clock.advance(60_000); // the task ends; the mock delivers its event
    const task = await wait;
    expect(task.status).toBe('completed');
    expect(getsAtEvent.get(taskId)).toBe(0);
    expect(taskGets(taskId)).toBe(1);
    expect(rig.receiver.events.find((e) => (e.data as { task_id?: string }).task_id === taskId)?.type).toBe(
      'task.completed',
    );
  });

  test('an event that arrives before the wait starts is kept', async () => {
    const taskId = await submit();
    await rig.gateway.clock.advance(60_000);
    await rig.webhooks.flush();
    expect(getsAtEvent.get(taskId)).toBe(0);
    expect(hub.size.buffered).toBe(1);

    const task = await rig.client.videos.waitForTask(taskId, { events: hub });
    expect(task.status).toBe('completed');
    expect(taskGets(taskId)).toBe(1);
    expect(hub.size.buffered).toBe(0);
  });

  test('a task.failed event ends the wait with TaskFailedError after one confirming query', async () => {
    const taskId = await submit('mock:fail a storm');
    const wait = rig.client.videos.waitForTask(taskId, { events: hub }).catch((e: unknown) => e);
    await rig.gateway.clock.advance(60_000);
    const error = await wait;
    expect(error).toBeInstanceOf(TaskFailedError);
    expect(getsAtEvent.get(taskId)).toBe(0);
    expect(taskGets(taskId)).toBe(1);
  });

  test('without an event the wait makes no query before the fallback interval', async () => {
    const taskId = await submit('no webhook', false);
    const controller = new AbortController();
    const wait = rig.client.videos
      .waitForTask(taskId, { events: hub, signal: controller.signal })
      .catch((e: unknown) => e);
    // A wait without events queries at once; with events the first query is due after 60-120 s.
    await delay(500);
    expect(taskGets(taskId)).toBe(0);
    controller.abort();
    await wait;
    expect(taskGets(taskId)).toBe(0);
  });

  test('the fallback polls when no event comes (fallbackInterval shortened for the test)', async () => {
    const taskId = await submit('no webhook either', false);
    const wait = rig.client.videos.waitForTask(taskId, { events: hub, fallbackInterval: 30 });
    await delay(150);
    expect(taskGets(taskId)).toBeGreaterThanOrEqual(2); // polling, since no event will come
    await rig.gateway.clock.advance(60_000);
    const task = await wait;
    expect(task.status).toBe('completed');
    expect(rig.webhooks.events({ taskId })).toEqual([]);
  });
});
