import { processEventsDuring } from './process-warnings.js';

/**
 * The reasons of the promises left rejected with no handler while `run` runs and for `settleMs`
 * after it (Node reports one after the microtasks of the turn that rejected it have run).
 */
export function unhandledRejectionsDuring(run: () => Promise<unknown>, settleMs = 20): Promise<unknown[]> {
  return processEventsDuring<unknown>('unhandledRejection', run, settleMs);
}

/**
 * A thenable whose `then` throws `error`, as a callback may return by mistake: `await` turns it
 * into a rejection, and a caller that only checks `typeof result.then` must still catch the throw.
 */
export function throwingThenable(error: unknown): PromiseLike<never> {
  return {
    // biome-ignore lint/suspicious/noThenProperty: the point is a thenable that misbehaves
    then: () => {
      throw error;
    },
  };
}
