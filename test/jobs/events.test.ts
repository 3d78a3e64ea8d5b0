// Covers: src/jobs/events.ts
import { describe, expect, test } from 'vitest';
import { JobEvents } from '../../src/jobs/index.js';

const signal = () => new AbortController().signal;
const event = (id: string, taskId: string, reference?: string, type = 'task.created') => ({
  id,
  type,
  data: { task_id: taskId, ...(reference === undefined ? {} : { client_reference_id: reference }) },
});

describe('JobEvents', () => {
  test('gives the task ID of a reference from an event that came first, or one that comes later', async () => {
    const events = new JobEvents();
    events.publish(event('evt_1', 'task_a', 'ref-a'));
    await expect(events.taskFor('ref-a', signal())).resolves.toBe('task_a');
    const later = events.taskFor('ref-b', signal());
    events.publish(event('evt_2', 'task_b', 'ref-b'));
    await expect(later).resolves.toBe('task_b');
  });

  test('ignores events without a reference or without a task ID for references', async () => {
    const events = new JobEvents();
    const controller = new AbortController();
    const asked = events.taskFor('ref-a', controller.signal);
    events.publish(event('evt_1', 'task_x'));
    events.publish(event('evt_2', '', 'ref-a'));
    controller.abort(new Error('stopped'));
    await expect(asked).rejects.toThrow('stopped');
  });

  test('keeps at most maxBuffered early references, the newest, and none older than maxAgeMs', async () => {
    let now = 0;
    const events = new JobEvents({ maxBuffered: 1, maxAgeMs: 1_000, now: () => now });
    events.publish(event('evt_1', 'task_a', 'ref-a'));
    events.publish(event('evt_2', 'task_b', 'ref-b'));
    await expect(events.taskFor('ref-b', signal())).resolves.toBe('task_b');
    const dropped = new AbortController();
    const asked = events.taskFor('ref-a', dropped.signal);
    dropped.abort(new Error('not kept'));
    await expect(asked).rejects.toThrow('not kept');

    events.publish(event('evt_3', 'task_c', 'ref-c'));
    now = 1_001;
    const old = new AbortController();
    const stale = events.taskFor('ref-c', old.signal);
    old.abort(new Error('too old'));
    await expect(stale).rejects.toThrow('too old');
  });

  test('ends waits on terminal events, as a TaskEventHub does', async () => {
    const events = new JobEvents();
    const waiting = events.waitFor('task_a', signal());
    events.publish(event('evt_1', 'task_a', 'ref-a', 'task.completed'));
    await expect(waiting).resolves.toMatchObject({ id: 'evt_1' });
    await expect(events.taskFor('ref-a', signal())).resolves.toBe('task_a');
  });
});
