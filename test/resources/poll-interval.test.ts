// Covers: src/resources/video-task.ts, src/resources/images.ts, src/resources/library/review-tasks.ts
/**
 * The client-wide `pollInterval`: every wait of the client polls at it instead of the spec's
 * figure for the task kind; a wait's own `interval` wins, and the fallback polls of a wait on
 * events keep `fallbackInterval`.
 */
import { beforeEach, describe, expect, test, vi } from 'vitest';
import { APIPromise } from '../../src/core/api-promise.js';
import { TaskEventHub } from '../../src/core/events-hub.js';
import { InvalidOptionError, MediaGateway } from '../../src/index.js';
import type { Transport } from '../../src/internal/transport.js';
import { Images } from '../../src/resources/images.js';
import { ReviewTasks } from '../../src/resources/library/review-tasks.js';
import { Videos } from '../../src/resources/videos.js';
import { useVirtualClock, virtualClock } from '../helpers/virtual-clock.js';

vi.mock('../../src/core/sleep.js', async () => ({
  sleep: (await import('../helpers/virtual-clock.js')).virtualClock.sleep,
}));
const { slept } = virtualClock;

/** A transport that answers each GET with the next of `answers` (the last repeats), a POST with a task. */
function transport(answers: unknown[]) {
  const sent: string[] = [];
  let polls = 0;
  type Request = { method: string; path: string };
  const json = (request: Request | (() => Request)) =>
    new APIPromise(
      Promise.resolve(request).then((r) => {
        const spec = typeof r === 'function' ? r() : r;
        sent.push(spec.method);
        const body =
          spec.method === 'POST'
            ? { code: 200, data: [{ status: 'submitted', task_id: 'cgt-1' }] }
            : answers[Math.min(polls++, answers.length - 1)];
        return { body, status: 200, headers: {}, requestId: undefined, text: JSON.stringify(body) };
      }),
      (a) => a.body,
    );
  return { transport: { json } as unknown as Transport, sent };
}

const video = (status: string) => ({ id: 'cgt-1', object: 'video', status, model: 'vidmodel-2.5' });
const image = (status: string) => ({ code: 200, data: { status } });
const review = (status: string) => ({ code: 200, data: { id: 'rvt_1', status } });

useVirtualClock();
beforeEach(() => {
  vi.spyOn(Math, 'random').mockReturnValue(0.5);
});

describe('the client-wide pollInterval', () => {
  test.each([
    [
      'videos.waitForTask',
      () => {
        const { transport: t } = transport([video('queued'), video('in_progress'), video('completed')]);
        return new Videos(t, { pollInterval: 250 }).waitForTask('cgt-1');
      },
    ],
    [
      'videos.createAndWait',
      () => {
        const { transport: t } = transport([video('queued'), video('in_progress'), video('completed')]);
        return new Videos(t, { pollInterval: 250 }).createAndWait({
          model: 'vidmodel-2.5',
          prompt: 'a kite',
        });
      },
    ],
    [
      'images.waitForTask',
      () => {
        const { transport: t } = transport([image('pending'), image('processing'), image('succeeded')]);
        return new Images(t, { pollInterval: 250 }).waitForTask('task_1', { model: 'imgmodel-2' });
      },
    ],
    [
      'library.reviewTasks.waitForTask',
      () => {
        const { transport: t } = transport([review('processing'), review('processing'), review('completed')]);
        return new ReviewTasks(t, { pollInterval: 250 }).waitForTask('rvt_1');
      },
    ],
  ])('%s polls at it instead of the spec figure', async (_name, wait) => {
    await wait();
    expect(slept).toEqual([250, 250]);
  });

  test('a [min, max] pair is jittered within it, as an interval of the wait is', async () => {
    const { transport: t } = transport([video('queued'), video('completed')]);
    await new Videos(t, { pollInterval: [100, 300] }).waitForTask('cgt-1');
    expect(slept).toEqual([200]);
  });

  test("the wait's own interval wins over the client's", async () => {
    const { transport: t } = transport([video('queued'), video('in_progress'), video('completed')]);
    await new Videos(t, { pollInterval: 250 }).waitForTask('cgt-1', { interval: 40 });
    expect(slept).toEqual([40, 40]);
  });

  test("without it, the spec's figure for the kind stands (vidmodel-2.5: 5-10 s)", async () => {
    const { transport: t } = transport([video('queued'), video('completed')]);
    await new Videos(t).waitForTask('cgt-1');
    expect(slept).toEqual([7_500]);
  });

  test('a wait on events keeps its fallback interval between polls', async () => {
    const { transport: t, sent } = transport([video('queued'), video('completed')]);
    const hub = new TaskEventHub();
    await new Videos(t, { pollInterval: 250 }).waitForTask('cgt-1', { events: hub, fallbackInterval: 9_000 });
    // With events the first query waits for the event or the fallback interval.
    expect(slept).toEqual([9_000, 9_000]);
    expect(sent).toEqual(['GET', 'GET']);
  });
});

describe('new MediaGateway({ pollInterval })', () => {
  const base = { apiKey: 'k', baseURL: 'http://127.0.0.1:9' };

  test.each([[1], [250], [2_147_483_647], [[1, 1] as const], [[100, 300] as const]])(
    'takes %j',
    (pollInterval) => {
      expect(() => new MediaGateway({ ...base, pollInterval })).not.toThrow();
    },
  );

  test.each([
    [0, 'pollInterval'],
    [-5, 'pollInterval'],
    [1.5, 'pollInterval'],
    [Number.NaN, 'pollInterval'],
    [Number.POSITIVE_INFINITY, 'pollInterval'],
    [2_147_483_648, 'pollInterval'],
    [[300, 100], 'pollInterval'],
    [[0, 100], 'pollInterval[0]'],
    [[100, Number.NaN], 'pollInterval[1]'],
    [[100], 'pollInterval'],
    ['250', 'pollInterval'],
  ])('refuses %j with InvalidOptionError naming %s', (pollInterval, option) => {
    const build = () => new MediaGateway({ ...base, pollInterval: pollInterval as number });
    expect(build).toThrow(InvalidOptionError);
    expect(build).toThrow(expect.objectContaining({ option }));
  });

  test('withOptions checks a new one as the constructor does', () => {
    const client = new MediaGateway({ ...base, pollInterval: 250 });
    expect(() => client.withOptions({ pollInterval: [0, 1] })).toThrow(InvalidOptionError);
    expect(() => client.withOptions({ pollInterval: [1, 2] })).not.toThrow();
  });
});

describe('onProgress of a wait', () => {
  test.each([
    ['a string', 'report'],
    ['an object', {}],
    ['null', null],
  ])('is refused when it is %s, before any request', async (_name, onProgress) => {
    const { transport: t, sent } = transport([video('completed')]);
    const videos = new Videos(t);
    const options = { onProgress: onProgress as unknown as () => void };
    await expect(videos.waitForTask('cgt-1', options)).rejects.toThrow(InvalidOptionError);
    await expect(
      videos.createAndWait({ model: 'vidmodel-2.5', prompt: 'a kite' }, options),
    ).rejects.toMatchObject({ option: 'onProgress' });
    expect(sent).toEqual([]);
  });

  test('a function is called after each poll', async () => {
    const { transport: t } = transport([video('queued'), video('completed')]);
    const seen: string[] = [];
    await new Videos(t).waitForTask('cgt-1', { onProgress: (task) => void seen.push(task.status) });
    expect(seen).toEqual(['queued', 'completed']);
  });
});
