// Covers: the client against the mock gateway: the other video models
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { TaskEventHub } from '../../src/core/events-hub.js';
import type { VideoTask } from '../../src/resources/video-task.js';
import type { VideoTaskData } from '../../src/testing/routes/videos-shared.js';
import type { TaskEvent } from '../../src/webhooks/events.js';
import { startRig, type WebhookRig } from './webhooks-setup.js';

let rig: WebhookRig;
beforeAll(async () => {
  rig = await startRig();
});
afterAll(() => rig.close());

// spec: Events 1 — producers include "several other video models including the motion-control
// model", whose IDs the spec does not list. The SDK cannot submit to a model it does not know, so
// the task is put in the mock's state directly, as another client's submission would.
function otherModelTask(model: string, outcome: 'succeeded' | { failed: { code: string; message: string } }) {
  return rig.gateway.tasks.create<VideoTaskData>({
    account: 'acct_1',
    kind: 'video',
    model,
    plan: { outcome },
    data: {
      request: { model, prompt: 'a dancer' },
      return_last_frame: false,
      output_format: 'mp4',
      draft: false,
      duration: 5,
      output_seconds: 5,
      resolution: '720p',
      prompt: 'a dancer',
      notifications: rig.notifications(),
    },
  });
}

describe('a task of a video model the SDK does not know', () => {
  test('is looked up in both formats, waited for, and notified like any video task', async () => {
    const { client, gateway, webhooks, receiver } = rig;
    const task = otherModelTask('motion-v4-dance', 'succeeded');
    const queued: VideoTask = await client.videos.retrieve(task.id);
    expect(queued).toMatchObject({ id: task.id, object: 'video', status: 'queued' });
    expect((await client.videos.retrieveCompat(task.id)).data.status).toBe('queued');

    const hub = new TaskEventHub();
    const wait = client.videos.waitForTask(task.id, { events: hub });
    await gateway.clock.advance(20_000);
    await webhooks.flush();
    const event = receiver.events.find((e) => (e as TaskEvent).data?.task_id === task.id) as TaskEvent;
    expect(event).toMatchObject({
      type: 'task.completed',
      data: { model: 'motion-v4-dance', kind: 'video', status: 'completed' },
    });
    hub.publish(event);
    expect(await wait).toMatchObject({ id: task.id, status: 'completed', url: expect.any(String) });
    const listed = await client.webhooks.events.list({ task_id: task.id });
    expect(JSON.stringify(listed)).toContain(event.id);
  });

  test('a failure raises TaskFailedError with its code, not a validation error', async () => {
    const { client, gateway } = rig;
    const task = otherModelTask('motion-v4-dance', { failed: { code: 'task_failed', message: 'no motion' } });
    await gateway.clock.advance(20_000);
    const error = await client.videos.waitForTask(task.id).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'TaskFailedError', code: 'task_failed' });
  });
});
