import { type AbortSubscriber, subscribe, unsubscribe } from './signal-fanout.js';

/** Waits `ms`, ending at once (rejecting with the signal's reason) when `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (!signal) {
      setTimeout(resolve, ms);
      return;
    }
    if (signal.aborted) return reject(signal.reason);
    // Through the shared listener of the signal: many calls may wait on one signal at once.
    const subscriber: AbortSubscriber = {
      onSignalAbort(reason) {
        clearTimeout(timer);
        reject(reason);
      },
    };
    const timer = setTimeout(() => {
      unsubscribe(signal, subscriber);
      resolve();
    }, ms);
    subscribe(signal, subscriber);
  });
}
