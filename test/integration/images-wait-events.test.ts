// Covers: the client against the mock gateway: image waits ended by events
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { TaskFailedError } from '../../src/core/errors.js';
import { TaskEventHub } from '../../src/core/events-hub.js';
import type { HandledWebhookEvent } from '../../src/webhooks/index.js';
import { startRig, type WebhookRig } from './webhooks-setup.js';

// images.waitForTask({ events }) against the mock gateway, whose webhook deliveries reach a
// real handler on 127.0.0.1 that feeds a TaskEventHub.

let rig: WebhookRig;
const hub = new TaskEventHub();
/** Task queries already made when each event reached `onEvent`. */
const queriesAtEvent = new Map<string, number>();

const taskQueries = (taskId: string) =>
  rig.gateway.requests.filter(
    (r) => r.origin === 'api' && r.method === 'GET' && r.path === `/v1/tasks/${taskId}`,
  );

beforeAll(async () => {
  rig = await startRig(
    {},
    {
      onEvent: (event: HandledWebhookEvent) => {
        const taskId = (event.data as { task_id?: string }).task_id ?? '';
        queriesAtEvent.set(taskId, taskQueries(taskId).length);
        hub.publish(event);
      },
    },
  );
});
afterAll(() => rig.close());

async function submit(prompt: string) {
  const { task_id } = await rig.client.images.generateAsync({
    model: 'imgmodel-2',
    prompt,
    notifications: rig.notifications(),
  });
  return task_id;
}

describe('images.waitForTask({ events }) with the mock delivering to a real handler', () => {
  test('ends on task.completed: no task query before it, exactly one after (the confirmation)', async () => {
    const taskId = await submit('a paper crane');
    const wait = rig.client.images.waitForTask(taskId, { model: 'imgmodel-2', events: hub });
    await vi.waitFor(() => expect(hub.size.waiting).toBe(1));
    expect(taskQueries(taskId)).toHaveLength(0);

    await rig.gateway.clock.advance(10_000); // the task ends; the mock delivers its event
    const task = await wait;
    expect(task.state).toBe('succeeded');
    expect(queriesAtEvent.get(taskId)).toBe(0);
    const queries = taskQueries(taskId);
    expect(queries).toHaveLength(1);
    expect(queries[0]?.query.model).toBe('imgmodel-2');
    expect(rig.receiver.events.find((e) => (e.data as { task_id?: string }).task_id === taskId)?.type).toBe(
      'task.completed',
    );
    expect(hub.size).toEqual({ waiting: 0, buffered: 0 });
  });

  test('ends on task.failed with TaskFailedError after one confirming query', async () => {
    const taskId = await submit('mock:fail a paper crane');
    const wait = rig.client.images
      .waitForTask(taskId, { model: 'imgmodel-2', events: hub })
      .catch((e: unknown) => e);
    await vi.waitFor(() => expect(hub.size.waiting).toBe(1));
    await rig.gateway.clock.advance(10_000);
    const error = await wait;
    expect(error).toBeInstanceOf(TaskFailedError);
    expect(error).toMatchObject({ taskId });
    expect(queriesAtEvent.get(taskId)).toBe(0);
    expect(taskQueries(taskId)).toHaveLength(1);
  });
});
