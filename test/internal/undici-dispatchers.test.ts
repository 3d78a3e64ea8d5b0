// Covers: src/internal/undici.ts
/** The SDK's own dispatchers: shared by every client with the same settings, and let go with the last. */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, test } from 'vitest';
import { APIConnectionError } from '../../src/index.js';
import { defaultDispatcher, loadUndici, plainAgent } from '../../src/internal/undici.js';
import { testClient } from '../helpers/client.js';
import { rejection } from '../helpers/rejection.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** undici as the SDK loads it (Node runs the real one). */
async function loaded() {
  const undici = await loadUndici();
  if (undici === undefined) throw new Error('undici did not load');
  return undici;
}

/**
 * Collects garbage until `weak` is cleared, at most 50 rounds; whether it was. A `deref()` keeps
 * its target alive to the end of the current job, so each round waits a turn before collecting.
 */
async function collected(weak: WeakRef<object>): Promise<boolean> {
  for (let round = 0; round < 50; round++) {
    await new Promise((resolve) => setImmediate(resolve));
    gc();
    if (weak.deref() === undefined) return true;
  }
  return false;
}

describe('the SDK’s own dispatchers', () => {
  test('one per setting, shared while it is held', async () => {
    const undici = await loaded();
    const proxy = 'http://127.0.0.1:9/';
    const a = defaultDispatcher(undici, 7, proxy);
    expect(defaultDispatcher(undici, 7, proxy)).toBe(a);
    expect(defaultDispatcher(undici, 8, proxy)).not.toBe(a);
    expect(defaultDispatcher(undici, 7, 'http://127.0.0.1:10/')).not.toBe(a);
    expect(plainAgent(undici)).toBe(plainAgent(undici));
    expect(plainAgent(undici)).not.toBe(a);
  });

  test('a setting no client holds any more is let go, and built again when asked for', async () => {
    const undici = await loaded();
    const proxy = 'http://127.0.0.1:11/';
    const weak = (() => new WeakRef(defaultDispatcher(undici, 3, proxy)))();
    expect(await collected(weak)).toBe(true);
    const again = defaultDispatcher(undici, 3, proxy);
    expect(again).toBeInstanceOf(undici.ProxyAgent);
    expect(defaultDispatcher(undici, 3, proxy)).toBe(again);
  });

  test('a client keeps its own for as long as it lives', async () => {
    const undici = await loaded();
    const proxy = 'http://127.0.0.1:12/';
    const client = testClient({ baseURL: 'http://127.0.0.1:1', proxy, maxConnections: 5, maxRetries: 0 });
    // The client takes its dispatcher on its first request (refused here: nothing listens there).
    expect(await rejection(client.videos.retrieve('task_1'))).toBeInstanceOf(APIConnectionError);
    const weak = new WeakRef(defaultDispatcher(undici, 5, proxy));
    expect(await collected(weak)).toBe(false);
    expect(client).toBeDefined();
  });
});
