/**
 * A check that a parser's cost grows linearly with its input, without timing assertions that a
 * busy machine could break: the work on an input four times larger must take under eight times
 * as long (a quadratic cost takes sixteen), compared over medians, and any pair where the larger
 * input took under `floorMs` passes outright, since such figures are mostly noise.
 */
import { expect } from 'vitest';

/** Median milliseconds of `runs` calls. */
export function medianMs(run: () => unknown, runs = 3): number {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    run();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] as number;
}

/** The two timings behind {@link expectLinear}. */
export interface Growth {
  small: number;
  big: number;
}

/**
 * Times `work(build(n))` and `work(build(4n))` (inputs built before timing) and expects the
 * larger one under `floorMs` or under eight times the smaller.
 */
export function expectLinear<T>(
  build: (n: number) => T,
  work: (input: T) => unknown,
  { n, floorMs = 100 }: { n: number; floorMs?: number },
): Growth {
  const smallInput = build(n);
  const bigInput = build(4 * n);
  work(smallInput); // warm-up: compile the code paths first
  const small = medianMs(() => work(smallInput));
  const big = medianMs(() => work(bigInput));
  if (big >= floorMs) {
    expect(
      big / Math.max(small, 0.01),
      `${n} → ${small.toFixed(2)} ms, ${4 * n} → ${big.toFixed(2)} ms`,
    ).toBeLessThan(8);
  }
  return { small, big };
}
