import { setTimeout as delay } from 'node:timers/promises';

/**
 * The process warnings emitted while `run` runs and for `settleMs` after it (a warning is
 * emitted on a later turn than the code that raised it).
 */
export async function warningsDuring(run: () => Promise<unknown>, settleMs = 0): Promise<Error[]> {
  const warnings: Error[] = [];
  const onWarning = (warning: Error) => warnings.push(warning);
  process.on('warning', onWarning);
  try {
    await run();
    await delay(settleMs);
  } finally {
    process.off('warning', onWarning);
  }
  return warnings;
}
