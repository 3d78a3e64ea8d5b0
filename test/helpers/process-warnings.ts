import { setTimeout as delay } from 'node:timers/promises';

/**
 * What the process emits as `event` while `run` runs and for `settleMs` after it (a warning or
 * an unhandled rejection is reported on a later turn than the code that caused it).
 */
export async function processEventsDuring<T>(
  event: 'warning' | 'unhandledRejection',
  run: () => Promise<unknown>,
  settleMs: number,
): Promise<T[]> {
  const seen: T[] = [];
  const listener = (value: T) => seen.push(value);
  process.on(event, listener);
  try {
    await run();
    await delay(settleMs);
  } finally {
    process.off(event, listener);
  }
  return seen;
}

/** The process warnings emitted while `run` runs and for `settleMs` after it. */
export function warningsDuring(run: () => Promise<unknown>, settleMs = 0): Promise<Error[]> {
  return processEventsDuring<Error>('warning', run, settleMs);
}
