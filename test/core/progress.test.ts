// Covers: src/core/progress.ts
/**
 * The onProgress throttle shared by uploads and saveTo (src/core/progress.ts): calls at most
 * every 100 ms of the given clock and once more with the final count, and `throwStops` deciding
 * whether a throwing callback stops the transfer or is told to `failed` while it goes on.
 */
import { describe, expect, test } from 'vitest';
import { PROGRESS_INTERVAL_MS, ProgressThrottle } from '../../src/core/progress.js';

/** A clock that reads the values given, one per read, then stays on the last. */
function clockOf(...times: number[]) {
  let i = 0;
  return () => times[Math.min(i++, times.length - 1)]!;
}

type Progress = { bytes: number; total: number | undefined };

describe('ProgressThrottle', () => {
  test('calls at the first chunk, then once the interval has passed, then with the final count', () => {
    const calls: Progress[] = [];
    const failures: unknown[] = [];
    const progress = new ProgressThrottle((p) => calls.push(p), 40, {
      failed: (error) => failures.push(error),
      throwStops: false,
      now: clockOf(0, 50, PROGRESS_INTERVAL_MS - 1, PROGRESS_INTERVAL_MS),
    });
    for (let i = 0; i < 4; i++) progress.add(10);
    expect(calls).toEqual([
      { bytes: 10, total: 40 },
      { bytes: 40, total: 40 },
    ]);
    progress.end();
    // The last call already gave the final count: no repeat.
    expect(calls).toHaveLength(2);
    expect(failures).toEqual([]);
  });

  test('gives the final count at the end when the last chunk fell inside the interval', () => {
    const calls: Progress[] = [];
    const progress = new ProgressThrottle((p) => calls.push(p), undefined, {
      failed: () => undefined,
      throwStops: true,
      now: clockOf(0, 1, 2),
    });
    for (let i = 0; i < 3; i++) progress.add(5);
    progress.end();
    expect(calls).toEqual([
      { bytes: 5, total: undefined },
      { bytes: 15, total: undefined },
    ]);
  });

  test('without throwStops, a throw is told once to failed and the callback is not called again', () => {
    let calls = 0;
    const failures: unknown[] = [];
    const boom = new Error('sink down');
    const progress = new ProgressThrottle(
      () => {
        calls++;
        throw boom;
      },
      undefined,
      { failed: (error) => failures.push(error), throwStops: false, now: clockOf(0, 200, 400) },
    );
    expect(() => progress.add(1)).not.toThrow();
    progress.add(1);
    progress.end();
    expect(calls).toBe(1);
    expect(failures).toEqual([boom]);
  });

  test('with throwStops, a throw is thrown on, from add and from end, and not told to failed', () => {
    const failures: unknown[] = [];
    const boom = new Error('stop here');
    const fromAdd = new ProgressThrottle(
      () => {
        throw boom;
      },
      undefined,
      { failed: (error) => failures.push(error), throwStops: true, now: clockOf(0) },
    );
    expect(() => fromAdd.add(1)).toThrow(boom);

    let calls = 0;
    const fromEnd = new ProgressThrottle(
      () => {
        calls++;
        if (calls === 2) throw boom;
      },
      undefined,
      { failed: (error) => failures.push(error), throwStops: true, now: clockOf(0, 1) },
    );
    fromEnd.add(1);
    fromEnd.add(1);
    expect(() => fromEnd.end()).toThrow(boom);
    expect(failures).toEqual([]);
  });

  test.each([true, false])(
    'with throwStops %s, a rejected promise is told once and ends the calls',
    async (throwStops) => {
      let calls = 0;
      const failures: unknown[] = [];
      const progress = new ProgressThrottle(
        () => {
          calls++;
          return Promise.reject(new Error(`rejected ${calls}`));
        },
        undefined,
        { failed: (error) => failures.push(error), throwStops, now: clockOf(0, 200) },
      );
      progress.add(1);
      progress.add(1);
      // Both calls were made before either rejection was seen; only the first is told.
      expect(calls).toBe(2);
      await new Promise((resolve) => setImmediate(resolve));
      expect(failures.map((e) => (e as Error).message)).toEqual(['rejected 1']);
      progress.add(1);
      progress.end();
      expect(calls).toBe(2);
    },
  );
});
