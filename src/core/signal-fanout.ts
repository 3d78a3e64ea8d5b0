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
