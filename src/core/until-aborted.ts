import { type AbortSubscriber, subscribe, unsubscribe } from './signal-fanout.js';

/**
 * Settles as `start()` does, or rejects with `signal`'s reason as soon as it aborts, whichever
 * comes first: for a caller's code (a fetch, a rate limiter) that may not heed the signal it was
 * given. `start` throwing is a rejection too; it is not called once the signal has aborted.
 * However many calls share the signal, it holds one listener (core/signal-fanout.ts).
 */
export function untilAborted<T>(
  start: () => T | PromiseLike<T>,
  signal: AbortSignal | undefined,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const watch: AbortSubscriber = { onSignalAbort: reject };
    if (signal) subscribe(signal, watch);
    // Followed, not resolved with: a promise resolved with another can no longer be rejected.
    new Promise<T>((settle) => settle(start()))
      .then(resolve, reject)
      .finally(() => signal && unsubscribe(signal, watch));
  });
}
