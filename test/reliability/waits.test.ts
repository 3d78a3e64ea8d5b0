// Covers: waits under faults, through the whole client
import { setTimeout as delay } from 'node:timers/promises';
import { Agent } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import type { MediaGateway } from '../../src/client.js';
import {
  APIUserAbortError,
  ProgressCallbackError,
  SubmittedCallbackError,
  WaitTimeoutError,
} from '../../src/core/errors.js';
import { TaskEventHub } from '../../src/core/events-hub.js';
import { InvalidOptionError } from '../../src/core/options.js';
import type { WaitOptions } from '../../src/core/polling.js';
import { type MockGateway, startMockGateway } from '../../src/testing/index.js';
import type { Fault } from '../../src/testing/state/faults.js';
import { testClient } from '../helpers/client.js';
import { rejection } from '../helpers/rejection.js';

/**
 * Waits under faults, against the mock gateway over loopback (manual clock: a task stays
 * queued until the test moves the clock). Timing is asserted only as "ended within the
 * deadline plus generous slack".
 */

/** Slack over a deadline for a loaded machine; a wait that misses its deadline takes 20 s or more. */
const SLACK_MS = 1_500;
const kite = { model: 'vidmodel-2.0-mini', prompt: 'a red kite', duration: 5 } as const;

let gateway: MockGateway;
let agent: Agent;
let client: MediaGateway;
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);

beforeAll(async () => {
  process.on('unhandledRejection', onUnhandled);
  gateway = await startMockGateway({ clock: 'manual' });
  agent = new Agent({ keepAliveTimeout: 1_000 });
  // Retries on, so that a poll answered 503 sleeps for its Retry-After inside the transport.
  client = testClient({ gateway, maxRetries: 2, dispatcher: agent });
});
afterEach(() => {
  gateway.clearFaults();
  gateway.resetRequests();
});
afterAll(async () => {
  process.off('unhandledRejection', onUnhandled);
  await gateway.close();
  await agent.close();
});

const submissions = () =>
  gateway.requests.filter((r) => r.method === 'POST' && r.path === '/v1/videos/generations');
const polls = (taskId?: string) =>
  gateway.requests.filter(
    (r) =>
      r.method === 'GET' && (taskId ? r.path === `/v1/videos/${taskId}` : r.path.startsWith('/v1/videos/')),
  );

/** Lets pending rejections surface: Node reports an unhandled one after the microtask queue drains. */
async function settleRejections() {
  for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
}

describe('the deadline ends a wait during a poll, with the last task seen', () => {
  const polling = { method: 'GET', path: '/v1/videos/' } as const;
  test.each<[string, Fault, number]>([
    // [row, fault on every poll after the first, interval]
    [
      'a poll answered 503 with Retry-After: 20 (retried after 20 s)',
      { status: 503, headers: { 'Retry-After': '20' } },
      100,
    ],
    ['a poll answered 429 with Retry-After: 20', { status: 429, headers: { 'Retry-After': '20' } }, 100],
    ['a poll that never answers', { hang: true }, 100],
    ['the last poll before the deadline never answers', { hang: true }, 60_000],
  ])('%s: WaitTimeoutError at 1 s, submitted once', { timeout: 10_000 }, async (_row, fault, interval) => {
    let waitStarted = 0;
    let taskId = '';
    const error = await rejection(
      client.videos.createAndWait(kite, {
        timeout: 1_000,
        interval,
        onSubmitted: (id) => {
          taskId = id;
          waitStarted = Date.now();
        },
        onProgress: () => {
          // The first poll answers; every later one meets the fault.
          if (polls().length === 1)
            gateway.inject({ match: polling, fault, times: Number.POSITIVE_INFINITY });
        },
      }),
    );
    const elapsed = Date.now() - waitStarted;
    expect(error).toBeInstanceOf(WaitTimeoutError);
    const timedOut = error as unknown as WaitTimeoutError;
    expect(timedOut.taskId).toBe(taskId);
    expect(timedOut.lastTask).toMatchObject({ id: taskId, status: 'queued' });
    expect(timedOut.message).toContain('after 1 s');
    expect(elapsed).toBeLessThan(1_000 + SLACK_MS);
    // The first poll, then the one the deadline interrupted: no retry went out, nothing resubmitted.
    expect(polls(taskId)).toHaveLength(2);
    expect(submissions()).toHaveLength(1);
  });

  test('the deadline also bounds a wait on events whose only query hangs', { timeout: 10_000 }, async () => {
    const { task_id } = await client.videos.create(kite);
    gateway.inject({ match: polling, fault: { hang: true } });
    const started = Date.now();
    const error = await rejection(
      client.videos.waitForTask(task_id, {
        events: new TaskEventHub(),
        fallbackInterval: 60_000,
        timeout: 800,
      }),
    );
    expect(error).toBeInstanceOf(WaitTimeoutError);
    expect((error as unknown as WaitTimeoutError).lastTask).toBeUndefined();
    expect(error.message).toContain('after 800 ms');
    expect(Date.now() - started).toBeLessThan(800 + SLACK_MS);
    expect(polls(task_id)).toHaveLength(1);
  });

  test.each<[string, Fault]>([
    ['sleeping before a retry of a 503', { status: 503, headers: { 'Retry-After': '20' } }],
    ['waiting for a poll that never answers', { hang: true }],
  ])(
    'the caller aborting while %s gets APIUserAbortError with its reason',
    { timeout: 10_000 },
    async (_row, fault) => {
      const { task_id } = await client.videos.create(kite);
      gateway.inject({ match: polling, fault });
      const controller = new AbortController();
      const reason = new Error('shutting down');
      const wait = client.videos.waitForTask(task_id, { signal: controller.signal, timeout: 60_000 });
      while (polls(task_id).length === 0) await delay(10);
      const aborted = Date.now();
      controller.abort(reason);
      const error = await rejection(wait);
      expect(error).toBeInstanceOf(APIUserAbortError);
      expect(error.cause).toBe(reason);
      expect(Date.now() - aborted).toBeLessThan(SLACK_MS);
    },
  );
});

describe('onSubmitted is awaited, and its failure keeps the task ID', () => {
  test('an async save finishes before the first poll and before the wait resolves', async () => {
    const events: string[] = [];
    const task = await client.videos.createAndWait(kite, {
      interval: 1,
      onSubmitted: async (id) => {
        await delay(50);
        events.push(`saved ${id} after ${polls().length} polls`);
      },
      onProgress: async (t) => {
        events.push(`poll ${t.status}`);
        await gateway.clock.advance(10_000); // the task completes by the next poll
      },
    });
    expect(task.status).toBe('completed');
    expect(events).toEqual([`saved ${task.id} after 0 polls`, 'poll queued', 'poll completed']);
    expect(submissions()).toHaveLength(1);
  });

  test.each([
    [
      'throws',
      (error: Error) => () => {
        throw error;
      },
    ],
    ['rejects', (error: Error) => async () => Promise.reject(error)],
    [
      'rejects later',
      (error: Error) => async () => {
        await delay(20);
        throw error;
      },
    ],
  ])('a save that %s rejects with SubmittedCallbackError holding the task ID', async (_row, save) => {
    const saveError = new Error('database unavailable');
    const error = await rejection(
      client.videos.createAndWait(kite, { interval: 1, timeout: 1_000, onSubmitted: save(saveError) }),
    );
    await settleRejections();
    expect(unhandled).toEqual([]);
    expect(error).toBeInstanceOf(SubmittedCallbackError);
    const failed = error as unknown as SubmittedCallbackError;
    expect(failed.cause).toBe(saveError);
    expect(submissions()).toHaveLength(1);
    const created = gateway.tasks.list({ kind: 'video' }).map((t) => t.id);
    expect(created).toContain(failed.taskId);
    expect(failed.submission).toMatchObject({ task_id: failed.taskId, status: 'submitted' });
    expect(failed.message).toContain(failed.taskId);
    expect(failed.message).toContain('billed');
    expect(failed.message).toContain(`videos.waitForTask('${failed.taskId}')`);
    // The wait never started; the ID is enough to wait for the task without submitting again.
    expect(polls()).toHaveLength(0);
    await gateway.clock.advance(10_000);
    await expect(client.videos.waitForTask(failed.taskId, { interval: 1 })).resolves.toMatchObject({
      status: 'completed',
    });
    expect(submissions()).toHaveLength(1);
  });
});

describe('onProgress is awaited, and its failure keeps the task ID', () => {
  test('no poll starts while it runs, and the wait resolves after the last call returned', async () => {
    const { task_id } = await client.videos.create(kite);
    const seen: string[] = [];
    let finished = 0;
    const task = await client.videos.waitForTask(task_id, {
      interval: 1,
      onProgress: async (t) => {
        const before = polls(task_id).length;
        await delay(30);
        seen.push(`${t.status}: ${polls(task_id).length - before} polls meanwhile`);
        if (t.status === 'queued') await gateway.clock.advance(10_000);
        finished++;
      },
    });
    expect(task.status).toBe('completed');
    expect(seen).toEqual(['queued: 0 polls meanwhile', 'completed: 0 polls meanwhile']);
    expect(finished).toBe(2);
  });

  test.each([
    [
      'throws',
      (error: Error) => () => {
        throw error;
      },
    ],
    ['rejects', (error: Error) => async () => Promise.reject(error)],
  ])('one that %s ends the wait with ProgressCallbackError holding the task ID', async (_row, report) => {
    const { task_id } = await client.videos.create(kite);
    const reportError = new Error('progress bar gone');
    const error = await rejection(
      client.videos.waitForTask(task_id, { interval: 1, timeout: 1_000, onProgress: report(reportError) }),
    );
    await settleRejections();
    expect(unhandled).toEqual([]);
    expect(error).toBeInstanceOf(ProgressCallbackError);
    const failed = error as unknown as ProgressCallbackError;
    expect(failed).toMatchObject({ taskId: task_id, task: { id: task_id, status: 'queued' } });
    expect(failed.cause).toBe(reportError);
    expect(polls(task_id)).toHaveLength(1);
  });
});

describe('wait options are refused before any request', () => {
  const invalid: Array<[string, Pick<WaitOptions, 'timeout' | 'interval' | 'events' | 'fallbackInterval'>]> =
    [
      ['timeout: NaN', { timeout: Number.NaN }],
      ['timeout: 0', { timeout: 0 }],
      ['timeout: -1', { timeout: -1 }],
      ['timeout: 1.5', { timeout: 1.5 }],
      ['timeout: Infinity', { timeout: Number.POSITIVE_INFINITY }],
      ['timeout: 2 ** 31', { timeout: 2 ** 31 }],
      ['interval: NaN', { interval: Number.NaN }],
      ['interval: -1', { interval: -1 }],
      ['interval: 0', { interval: 0 }],
      ['interval: [NaN, 5]', { interval: [Number.NaN, 5] }],
      ['interval: [5, 1]', { interval: [5, 1] }],
      ['interval: [1, Infinity]', { interval: [1, Number.POSITIVE_INFINITY] }],
      ['fallbackInterval: NaN', { events: new TaskEventHub(), fallbackInterval: Number.NaN }],
      ['fallbackInterval: 0', { events: new TaskEventHub(), fallbackInterval: 0 }],
      ['fallbackInterval: [10, -1]', { events: new TaskEventHub(), fallbackInterval: [10, -1] }],
    ];
  // A wait that is not refused would run until this signal ends it.
  const guard = () => AbortSignal.timeout(2_000);
  const option = (name: string) => name.slice(0, name.indexOf(':'));

  test.each(invalid)(
    'createAndWait with %s: InvalidOptionError, nothing submitted',
    async (name, options) => {
      const error = await rejection(client.videos.createAndWait(kite, { signal: guard(), ...options }));
      expect(error).toBeInstanceOf(InvalidOptionError);
      expect((error as unknown as InvalidOptionError).option).toMatch(
        new RegExp(`^${option(name)}(\\[[01]\\])?$`),
      );
      expect(gateway.requests).toEqual([]);
    },
  );

  test.each(invalid)('every waitForTask with %s: InvalidOptionError, no poll', async (_name, options) => {
    const waits = [
      () => client.videos.waitForTask('cgt-1', { signal: guard(), ...options }),
      () => client.images.waitForTask('task_1', { model: 'imgmodel-2', signal: guard(), ...options }),
      () =>
        client.library.reviewTasks.waitForTask('rt_1', {
          signal: guard(),
          ...options,
        }),
    ];
    for (const wait of waits) expect(await rejection(wait())).toBeInstanceOf(InvalidOptionError);
    expect(gateway.requests).toEqual([]);
  });
});
