// Covers: src/resources/video-task.ts
import { beforeEach, describe, expect, test, vi } from 'vitest';
import { APIPromise } from '../../src/core/api-promise.js';
import type { Transport } from '../../src/internal/transport.js';
import { videoPollInterval } from '../../src/resources/video-task.js';
import { Videos } from '../../src/resources/videos.js';
import { finishedTask } from '../helpers/client.js';
import { useVirtualClock, virtualClock } from '../helpers/virtual-clock.js';

// Sleeps move a fake clock instead of real time, and their lengths are recorded.
vi.mock('../../src/core/sleep.js', async () => ({
  sleep: (await import('../helpers/virtual-clock.js')).virtualClock.sleep,
}));
const { slept } = virtualClock;

type Answer = Record<string, unknown>;

/** A transport that answers each task query with the next of `answers` (the last repeats). */
function transport(answers: Answer[]) {
  const sent: Array<{ method: string; path: string }> = [];
  let polls = 0;
  const answer = (request: { method: string; path: string }) => {
    sent.push({ method: request.method, path: request.path });
    if (request.method === 'POST') return { code: 200, data: [{ status: 'submitted', task_id: 'cgt-1' }] };
    return answers[Math.min(polls++, answers.length - 1)];
  };
  // As the transport does: a spec, or a function that builds it, and an APIPromise of the body.
  type Request = { method: string; path: string };
  const json = (request: Request | (() => Request)) =>
    new APIPromise(
      Promise.resolve(request).then((r) => {
        const body = answer(typeof r === 'function' ? r() : r);
        return { body, status: 200, headers: {}, requestId: undefined, text: JSON.stringify(body) };
      }),
      (a) => a.body,
    );
  return { transport: { json } as unknown as Transport, sent };
}

const running = (extra: Answer = {}) => ({ id: 'cgt-1', object: 'video', status: 'in_progress', ...extra });
const done = (extra: Answer = {}) => finishedTask('video', extra);

useVirtualClock();

describe('videoPollInterval', () => {
  test('mini and no model 3-5 s, 2.5 5-10 s, any other model a range around 5 s', () => {
    expect(videoPollInterval('vidmodel-2.0-mini')).toEqual([3_000, 5_000]);
    // spec: the object style shows `model` for vidmodel-2.5, so an answer without it is not 2.5.
    expect(videoPollInterval(undefined)).toEqual([3_000, 5_000]);
    expect(videoPollInterval('vidmodel-2.5')).toEqual([5_000, 10_000]);
    for (const model of ['vidmodel-2.0', 'motion-v3-motion-control']) {
      expect(videoPollInterval(model), String(model)).toEqual([4_000, 6_000]);
    }
  });

  test('a model without a spec figure is polled jittered within 4-6 s', async () => {
    const answers = [running(), running(), running(), running(), running(), running(), running(), done()];
    await new Videos(transport(answers).transport).waitForTask('cgt-1', { model: 'vidmodel-2.0' });
    expect(slept).toHaveLength(7);
    for (const ms of slept) {
      expect(ms).toBeGreaterThanOrEqual(4_000);
      expect(ms).toBeLessThanOrEqual(6_000);
    }
    expect(new Set(slept).size).toBeGreaterThan(1);
  });
});

describe('videos.waitForTask interval without a model', () => {
  // The midpoint of each range: mini (and no model) 4000, 2.5 7500, other models 5000.
  beforeEach(() => {
    vi.spyOn(Math, 'random').mockReturnValue(0.5);
  });

  test("the first answer's model picks the interval of the following sleeps", async () => {
    const { transport: t } = transport([
      running({ model: 'vidmodel-2.5' }),
      running({ model: 'vidmodel-2.5' }),
      done(),
    ]);
    await new Videos(t).waitForTask('cgt-1');
    expect(slept).toEqual([7_500, 7_500]);
  });

  test('an answer without model is polled every 3-5 s', async () => {
    const { transport: t } = transport([running(), running(), done()]);
    await new Videos(t).waitForTask('cgt-1');
    expect(slept).toEqual([4_000, 4_000]);
  });

  test('only the first answer decides: a model shown later does not change the interval', async () => {
    const { transport: t } = transport([running(), running({ model: 'vidmodel-2.5' }), running(), done()]);
    await new Videos(t).waitForTask('cgt-1');
    expect(slept).toEqual([4_000, 4_000, 4_000]);
  });

  test("the model the answer names wins over the caller's", async () => {
    const { transport: t } = transport([running({ model: 'vidmodel-2.5' }), done()]);
    await new Videos(t).waitForTask('cgt-1', { model: 'vidmodel-2.0-mini' });
    expect(slept).toEqual([7_500]);
  });

  test("the caller's model stands in when the answer names none", async () => {
    const { transport: t } = transport([running(), done()]);
    await new Videos(t).waitForTask('cgt-1', { model: 'vidmodel-2.0' });
    expect(slept).toEqual([5_000]);
  });

  test("an explicit interval wins over the answer's model", async () => {
    const { transport: t } = transport([running({ model: 'vidmodel-2.5' }), running(), done()]);
    await new Videos(t).waitForTask('cgt-1', { interval: 1_234 });
    expect(slept).toEqual([1_234, 1_234]);
  });

  test('createAndWait uses the submitted model, not the answer', async () => {
    // The gateway shows `model` for vidmodel-2.5 only; the submitted model picks mini's 3-5 s.
    const { transport: t, sent } = transport([running(), running(), done()]);
    const task = await new Videos(t).createAndWait({
      model: 'vidmodel-2.0-mini',
      prompt: 'a kite',
      duration: 5,
    });
    expect(task.status).toBe('completed');
    expect(sent.map((r) => r.method)).toEqual(['POST', 'GET', 'GET', 'GET']);
    expect(slept).toEqual([4_000, 4_000]);
  });
});
