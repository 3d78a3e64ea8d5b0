// A caller's AbortSignal watched with one listener however many calls share it (subscribe,
// unsubscribe), and the race of a call against it (untilAborted).
/** Told when a caller's signal aborts, with the signal's reason. */
export interface AbortSubscriber {
  /** Called once, with `signal.reason`, if the signal aborts while subscribed. */
  onSignalAbort(reason: unknown): void;
}

// One listener per signal, however many calls share it: a thousand requests under one
// AbortSignal would otherwise add a thousand listeners (and Node warns past ten).
const subscribers = new WeakMap<AbortSignal, Set<AbortSubscriber>>();

function dispatch(event: Event): void {
  const signal = event.target as AbortSignal;
  const set = subscribers.get(signal);
  if (!set) return;
  subscribers.delete(signal);
  for (const subscriber of set) subscriber.onSignalAbort(signal.reason);
}

/**
 * Tells `subscriber` when `signal` aborts. The signal holds at most one listener of the SDK,
 * removed as soon as its last subscriber leaves. A signal already aborted is not watched: check
 * `signal.aborted` first.
 */
export function subscribe(signal: AbortSignal, subscriber: AbortSubscriber): void {
  let set = subscribers.get(signal);
  if (!set) {
    set = new Set();
    subscribers.set(signal, set);
    signal.addEventListener('abort', dispatch, { once: true });
  }
  set.add(subscriber);
}

/** Stops telling `subscriber`; the signal's listener goes with its last subscriber. */
export function unsubscribe(signal: AbortSignal, subscriber: AbortSubscriber): void {
  const set = subscribers.get(signal);
  if (!set?.delete(subscriber) || set.size > 0) return;
  subscribers.delete(signal);
  signal.removeEventListener('abort', dispatch);
}

/**
 * Settles as `start()` does, or rejects with `signal`'s reason as soon as it aborts, whichever
 * comes first: for a caller's code (a fetch, a rate limiter) that may not heed the signal it was
 * given. `start` throwing is a rejection too; it is not called once the signal has aborted.
 * However many calls share the signal, it holds one listener (`subscribe`).
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
