/**
 * Calls a callback the SDK does not await (a hook, a logger, an upload's `onProgress`): what it
 * throws, and what a promise or other thenable it returns rejects with, go to `failed`, never to
 * the caller. A returned promise left alone would reject with no handler, which ends a Node
 * process by default; a thenable whose `then` throws counts as a throw.
 *
 * @param failed - told each failure; it must not throw.
 */
export function callDetached(call: () => unknown, failed: (error: unknown) => void): void {
  try {
    const result = call() as PromiseLike<unknown> | null | undefined;
    if (result && typeof result.then === 'function') result.then(undefined, failed);
  } catch (error) {
    failed(error);
  }
}
