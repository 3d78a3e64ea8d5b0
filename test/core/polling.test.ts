// Covers: src/core/polling.ts
import { describe, expect, test, vi } from 'vitest';
import {
  APIUserAbortError,
  ProgressCallbackError,
  TaskFailedError,
  WaitTimeoutError,
} from '../../src/core/errors.js';
import { TaskEventHub } from '../../src/core/events-hub.js';
import { InvalidOptionError } from '../../src/core/options.js';
import { type PollSpec, pollTask } from '../../src/core/polling.js';

type Task = { status: string; error?: { code: string; message: string } };

function spec(statuses: string[], overrides: Partial<PollSpec<Task>> = {}) {
  const calls: number[] = [];
  const poll: PollSpec<Task> = {
    taskId: 'task_1',
    kind: 'video',
    fetch: async () => {
      calls.push(Date.now());
      const status = statuses[Math.min(calls.length - 1, statuses.length - 1)] ?? 'queued';
      return status === 'failed' ? { status, error: { code: 'task_failed', message: 'boom' } } : { status };
    },
    outcome: (t) => (t.status === 'completed' ? 'succeeded' : t.status === 'failed' ? 'failed' : 'pending'),
    failure: (t) => ({ code: t.error?.code, message: t.error?.message }),
    defaultInterval: [1, 2],
    ...overrides,
  };
  return { poll, calls };
}

describe('pollTask', () => {
  test('polls until success and reports progress on every poll', async () => {
    const { poll, calls } = spec(['queued', 'in_progress', 'completed']);
    const seen: string[] = [];
    const task = await pollTask(poll, { onProgress: (t) => seen.push(t.status) });
    expect(task.status).toBe('completed');
    expect(calls).toHaveLength(3);
    expect(seen).toEqual(['queued', 'in_progress', 'completed']);
  });

  test('a failed task throws TaskFailedError with its code', async () => {
    const { poll } = spec(['queued', 'failed']);
    const error = await pollTask(poll).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TaskFailedError);
    expect(error).toMatchObject({ taskId: 'task_1', kind: 'video', code: 'task_failed' });
  });

  test('resolveOnFailure returns the failed task instead', async () => {
    const { poll } = spec(['failed'], { resolveOnFailure: true });
    await expect(pollTask(poll)).resolves.toMatchObject({ status: 'failed' });
  });

  test('the deadline throws WaitTimeoutError with the task ID and last task, never more polls', async () => {
    const { poll, calls } = spec(['queued']);
    const error = await pollTask(poll, { timeout: 60, interval: 20 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WaitTimeoutError);
    expect(error).toMatchObject({ taskId: 'task_1', kind: 'video', lastTask: { status: 'queued' } });
    expect(calls.length).toBeGreaterThanOrEqual(2);
    expect(calls.length).toBeLessThanOrEqual(6);
  });

  test('the signal ends a sleep at once', async () => {
    const { poll, calls } = spec(['queued']);
    const controller = new AbortController();
    const pending = pollTask(poll, { interval: 60_000, signal: controller.signal });
    setTimeout(() => controller.abort(), 30);
    await expect(pending).rejects.toBeInstanceOf(APIUserAbortError);
    expect(calls).toHaveLength(1);
  });

  test('a defaultInterval function is asked before every sleep with the last task read', async () => {
    const seen: Array<string | undefined> = [];
    const { poll, calls } = spec(['queued', 'in_progress', 'completed'], {
      defaultInterval: (task) => {
        seen.push(task?.status);
        return [1, 2];
      },
    });
    await pollTask(poll);
    expect(calls).toHaveLength(3);
    expect(seen).toEqual(['queued', 'in_progress']);
  });

  test('an explicit interval is used without asking the defaultInterval function', async () => {
    const asked: unknown[] = [];
    const { poll } = spec(['queued', 'completed'], {
      defaultInterval: (task) => {
        asked.push(task);
        return [1, 2];
      },
    });
    await pollTask(poll, { interval: 1 });
    expect(asked).toEqual([]);
  });

  test('an interval range is jittered inside its bounds', async () => {
    const { poll, calls } = spec(['queued', 'queued', 'queued', 'completed']);
    await pollTask(poll, { interval: [20, 40] });
    for (let i = 1; i < calls.length; i++) expect(calls[i]! - calls[i - 1]!).toBeGreaterThanOrEqual(19);
  });
});

/** A read that answers only by rejecting with its signal's reason, like a request that never gets an answer. */
function hanging(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) =>
    signal.addEventListener('abort', () => reject(signal.reason), { once: true }),
  );
}

describe('pollTask deadline', () => {
  test('interrupts a read in flight, with the last task seen, within the deadline', async () => {
    let reads = 0;
    const { poll } = spec([], {
      fetch: (signal) => (++reads === 1 ? Promise.resolve({ status: 'queued' }) : hanging(signal)),
    });
    const started = Date.now();
    const error = await pollTask(poll, { timeout: 300, interval: 10 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WaitTimeoutError);
    expect(error).toMatchObject({ taskId: 'task_1', kind: 'video', lastTask: { status: 'queued' } });
    expect((error as Error).message).toContain('after 300 ms');
    expect(Date.now() - started).toBeLessThan(300 + 1_000);
    expect(reads).toBe(2);
  });

  test('the last read before the deadline is bounded by it too', async () => {
    let reads = 0;
    const { poll } = spec([], {
      fetch: (signal) => (++reads === 1 ? Promise.resolve({ status: 'in_progress' }) : hanging(signal)),
    });
    const error = await pollTask(poll, { timeout: 300, interval: 60_000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WaitTimeoutError);
    expect(error).toMatchObject({ lastTask: { status: 'in_progress' } });
    expect(reads).toBe(2);
  });

  test('the last read catches a task that ended before the deadline', async () => {
    const { poll, calls } = spec(['queued', 'completed']);
    await expect(pollTask(poll, { timeout: 300, interval: 60_000 })).resolves.toMatchObject({
      status: 'completed',
    });
    expect(calls).toHaveLength(2);
  });

  test("the caller's abort during a read is APIUserAbortError with the caller's reason", async () => {
    const { poll } = spec([], { fetch: hanging });
    const controller = new AbortController();
    const pending = pollTask(poll, { signal: controller.signal });
    const reason = new Error('shutting down');
    setTimeout(() => controller.abort(reason), 10);
    const error = await pending.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect((error as Error).cause).toBe(reason);
  });
});

describe('pollTask callbacks and options', () => {
  test('an async onProgress is awaited before the next read', async () => {
    const { poll, calls } = spec(['queued', 'queued', 'completed']);
    const seen: number[] = [];
    await pollTask(poll, {
      interval: 1,
      onProgress: async () => {
        const before = calls.length;
        await new Promise((r) => setTimeout(r, 20));
        seen.push(calls.length - before);
      },
    });
    expect(seen).toEqual([0, 0, 0]);
  });

  test('a throwing onProgress ends the wait with ProgressCallbackError, task ID and cause kept', async () => {
    const { poll, calls } = spec(['queued']);
    const cause = new Error('boom');
    const error = await pollTask(poll, {
      interval: 1,
      onProgress: () => {
        throw cause;
      },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProgressCallbackError);
    expect(error).toMatchObject({ taskId: 'task_1', kind: 'video', task: { status: 'queued' }, cause });
    expect(calls).toHaveLength(1);
  });

  test.each([
    ['timeout', { timeout: Number.NaN }],
    ['timeout', { timeout: 0 }],
    ['interval', { interval: -1 }],
    ['interval[0]', { interval: [Number.NaN, 5] as const }],
    ['fallbackInterval', { fallbackInterval: 0 }],
  ])('%s refused before any read: %o', async (option, options) => {
    const { poll, calls } = spec(['completed']);
    const error = await pollTask(poll, options).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidOptionError);
    expect(error).toMatchObject({ option });
    expect(calls).toHaveLength(0);
  });
});

describe('pollTask with events', () => {
  test('makes no poll before the event, then confirms with one query', async () => {
    const hub = new TaskEventHub();
    const { poll, calls } = spec(['completed']);
    const pending = pollTask(poll, { events: hub });
    await new Promise((r) => setTimeout(r, 50));
    expect(calls).toHaveLength(0);
    hub.publish({ type: 'task.completed', data: { task_id: 'task_1' } });
    await expect(pending).resolves.toMatchObject({ status: 'completed' });
    expect(calls).toHaveLength(1);
    expect(hub.size).toEqual({ waiting: 0, buffered: 0 });
  });

  test('an event that arrived before the wait started ends it at once', async () => {
    const hub = new TaskEventHub();
    hub.publish({ type: 'task.failed', data: { task_id: 'task_1' } });
    const { poll, calls } = spec(['failed']);
    await expect(pollTask(poll, { events: hub })).rejects.toBeInstanceOf(TaskFailedError);
    expect(calls).toHaveLength(1);
  });

  test('after the last look, a sleep that ends a moment before the deadline starts no other poll', async () => {
    // Timers run on the event loop's cached time, so a sleep can end a little before Date.now()
    // reaches the deadline. Here Date.now() runs 20 ms ahead while the last look is read, so the
    // sleep that waits out the deadline ends 20 ms early, as a busy loop can make it.
    const realNow = Date.now.bind(Date);
    let ahead = 0;
    const clock = vi.spyOn(Date, 'now').mockImplementation(() => realNow() + ahead);
    try {
      const { poll, calls } = spec(['queued'], {
        fetch: async () => {
          calls.push(realNow());
          ahead = 20;
          setImmediate(() => {
            ahead = 0;
          });
          return { status: 'queued' };
        },
      });
      const error = await pollTask(poll, { events: new TaskEventHub(), timeout: 400 }).catch(
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(WaitTimeoutError);
      expect(error).toMatchObject({ lastTask: { status: 'queued' } });
      expect(calls).toHaveLength(1);
    } finally {
      clock.mockRestore();
    }
  });

  test('events of other tasks and non-terminal events do not wake the wait', async () => {
    const hub = new TaskEventHub();
    const { poll, calls } = spec(['completed']);
    const controller = new AbortController();
    const pending = pollTask(poll, { events: hub, signal: controller.signal });
    hub.publish({ type: 'task.completed', data: { task_id: 'other' } });
    hub.publish({ type: 'webhook.endpoint_verification', data: { task_id: 'task_1' } });
    await new Promise((r) => setTimeout(r, 30));
    controller.abort();
    await expect(pending).rejects.toBeInstanceOf(APIUserAbortError);
    expect(calls).toHaveLength(0);
    expect(hub.size.waiting).toBe(0);
  });
});

test('a failing event source falls back to polling instead of ending the wait', async () => {
  const { poll, calls } = spec(['queued', 'completed']);
  const broken = { waitFor: () => Promise.reject(new Error('connection lost')) };
  const task = await pollTask(poll, { events: broken, fallbackInterval: 5 });
  expect(task.status).toBe('completed');
  expect(calls).toHaveLength(2);
});

describe('TaskEventHub', () => {
  test('keeps early events bounded in count', () => {
    const hub = new TaskEventHub({ maxBuffered: 2 });
    for (const id of ['a', 'b', 'c']) hub.publish({ type: 'task.completed', data: { task_id: id } });
    expect(hub.size.buffered).toBe(2);
  });

  test('drops early events older than maxAgeMs', async () => {
    let now = 0;
    const hub = new TaskEventHub({ maxAgeMs: 100, now: () => now });
    hub.publish({ type: 'task.completed', data: { task_id: 'a' } });
    now = 500;
    const controller = new AbortController();
    const waiting = hub.waitFor('a', controller.signal);
    controller.abort(new Error('stop'));
    await expect(waiting).rejects.toThrow('stop');
  });
});

describe('an event source that resolves with something other than a new event of the task', () => {
  const completed = (taskId: string) => ({
    id: `evt_${taskId}`,
    type: 'task.completed',
    data: { task_id: taskId, status: 'completed' },
  });
  test.each([
    ['nothing', () => undefined],
    ['the event it was handed last time, again and again', (seen?: unknown) => seen ?? completed('task_1')],
    ["another task's terminal event", () => completed('task_other')],
    [
      'an event that is not terminal',
      () => ({ id: 'evt_p', type: 'task.progress', data: { task_id: 'task_1' } }),
    ],
  ])('(%s) is not taken as one: the wait does not query in a loop', async (_, answer) => {
    let polls = 0;
    const spec: PollSpec<{ status: string }> = {
      taskId: 'task_1',
      kind: 'video',
      fetch: async () => {
        polls++;
        return { status: 'queued' };
      },
      outcome: () => 'pending',
      failure: () => ({}),
      defaultInterval: [1, 2],
    };
    const events = {
      waitFor: async (_taskId: string, _signal: AbortSignal, seen?: unknown) => answer(seen) as never,
    };
    const error = await pollTask(spec, { events, timeout: 300 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WaitTimeoutError);
    // The default fallback interval is 60-120 s: within 300 ms a wait makes its confirming query
    // of a real event and its last looks before the deadline, a few at most on a slow machine;
    // taken as events, these answers made it query hundreds of times.
    expect(polls).toBeLessThanOrEqual(5);
  });
});
