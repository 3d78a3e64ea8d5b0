import { afterEach, beforeEach, vi } from 'vitest';

/**
 * Time for tests that replace `src/core/sleep.js` with {@link virtualClock}.sleep: each sleep
 * is recorded in `slept` and moves `now` on at once, so waits of minutes take no time.
 *
 * @example
 * vi.mock('../../src/core/sleep.js', async () => ({
 *   sleep: (await import('../helpers/virtual-clock.js')).virtualClock.sleep,
 * }));
 * useVirtualClock();
 */
export const virtualClock = {
  /** What `Date.now()` reads while {@link useVirtualClock} is in force. */
  now: 0,
  /** The length of every sleep, in order. */
  slept: [] as number[],
  /** Stands in for `sleep(ms)`: records `ms` and moves `now` on by it. */
  async sleep(ms: number): Promise<void> {
    virtualClock.slept.push(ms);
    virtualClock.now += ms;
  },
};

/** Before each test of the enclosing block: no sleeps recorded, and `Date.now()` reads `now`. */
export function useVirtualClock(): void {
  beforeEach(() => {
    virtualClock.slept.length = 0;
    virtualClock.now = 1_000_000;
    vi.spyOn(Date, 'now').mockImplementation(() => virtualClock.now);
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });
}
