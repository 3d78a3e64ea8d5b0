// Covers: src/core/polling.ts
import { expect, test, vi } from 'vitest';
import { APIPromise } from '../../src/core/api-promise.js';
import { TaskEventHub } from '../../src/core/events-hub.js';
import { EVENT_FALLBACK_INTERVAL, type PollSpec, pollTask } from '../../src/core/polling.js';
import type { Transport } from '../../src/internal/transport.js';
import { Images } from '../../src/resources/images.js';
import { Videos } from '../../src/resources/videos.js';
import { useVirtualClock, virtualClock } from '../helpers/virtual-clock.js';

// Sleeps move a fake clock instead of real time, and their lengths are recorded.
vi.mock('../../src/core/sleep.js', async () => ({
  sleep: (await import('../helpers/virtual-clock.js')).virtualClock.sleep,
}));
const { slept } = virtualClock;

useVirtualClock();

const [MIN, MAX] = EVENT_FALLBACK_INTERVAL;
// Long enough that the deadline never shortens a sleep: every one is a fallback interval.
const timeout = 24 * 3_600_000;

function expectFallbackSleeps(count: number) {
  expect(slept).toHaveLength(count);
  for (const ms of slept) {
    expect(ms).toBeGreaterThanOrEqual(60_000);
    expect(ms).toBeLessThanOrEqual(120_000);
  }
  expect(new Set(slept).size).toBeGreaterThan(1);
}

test('spec: Events 10 — the default fallback interval is 60-120 s', () => {
  expect([MIN, MAX]).toEqual([60_000, 120_000]);
});

test('with events and no event, the wait sleeps a jittered 60-120 s before every fallback poll', async () => {
  const hub = new TaskEventHub();
  let polls = 0;
  const spec: PollSpec<{ status: string }> = {
    taskId: 'task_1',
    kind: 'video',
    fetch: async () => ({ status: ++polls < 8 ? 'queued' : 'completed' }),
    outcome: (t) => (t.status === 'completed' ? 'succeeded' : 'pending'),
    failure: () => ({}),
    defaultInterval: [1, 2],
  };
  const task = await pollTask(spec, { events: hub, timeout });
  expect(task.status).toBe('completed');
  expect(polls).toBe(8);
  // The first sleep comes before the first poll: with events nothing is queried at once.
  expectFallbackSleeps(8);
  expect(hub.size).toEqual({ waiting: 0, buffered: 0 });
});

test('the fallback replaces the task kind interval in images.waitForTask and videos.waitForTask', async () => {
  const answers = <T>(pending: T, done: T, polls: number) => {
    let calls = 0;
    const answer = () => {
      const body = ++calls < polls ? pending : done;
      return { body, status: 200, headers: {}, requestId: undefined, text: JSON.stringify(body) };
    };
    return {
      json: () => new APIPromise(Promise.resolve().then(answer), (a) => a.body),
    } as unknown as Transport;
  };
  const hub = new TaskEventHub();
  await new Images(
    answers({ data: { status: 'processing' } }, { data: { status: 'succeeded' } }, 6),
  ).waitForTask('task_1', { model: 'imgmodel-2', events: hub, timeout });
  expectFallbackSleeps(6);

  slept.length = 0;
  const video = (status: string) => ({ id: 'cgt-1', object: 'video', model: 'vidmodel-2.5', status });
  await new Videos(answers(video('in_progress'), video('completed'), 6)).waitForTask('cgt-1', {
    events: hub,
    timeout,
  });
  expectFallbackSleeps(6);
});
