// Covers: src/core/signal-fanout.ts
import { getEventListeners } from 'node:events';
import { describe, expect, test } from 'vitest';
import { untilAborted } from '../../src/core/signal-fanout.js';
import { rejection } from '../helpers/rejection.js';

describe('untilAborted', () => {
  test('settles as start() does: its value, its rejection, what it throws', async () => {
    const signal = new AbortController().signal;
    expect(await untilAborted(() => 7, signal)).toBe(7);
    expect(await untilAborted(async () => 'late', undefined)).toBe('late');
    const thrown = new Error('thrown');
    expect(
      await rejection(
        untilAborted(() => {
          throw thrown;
        }, signal),
      ),
    ).toBe(thrown);
    const rejected = new Error('rejected');
    expect(await rejection(untilAborted(() => Promise.reject(rejected), signal))).toBe(rejected);
  });

  test('rejects with the reason when the signal aborts, though start() never settles', async () => {
    const controller = new AbortController();
    const reason = new Error('user left');
    const pending = rejection(untilAborted(() => new Promise(() => {}), controller.signal));
    controller.abort(reason);
    expect(await pending).toBe(reason);
  });

  test('does not call start() once the signal has aborted', async () => {
    let called = false;
    const reason = new Error('gone');
    const error = await rejection(
      untilAborted(() => {
        called = true;
      }, AbortSignal.abort(reason)),
    );
    expect(error).toBe(reason);
    expect(called).toBe(false);
  });

  test('1,000 calls on one signal hold one listener, and none once settled', async () => {
    const controller = new AbortController();
    const releases: Array<() => void> = [];
    const calls = Array.from({ length: 1_000 }, (_, i) =>
      untilAborted(
        () => new Promise<number>((resolve) => releases.push(() => resolve(i))),
        controller.signal,
      ),
    );
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    for (const release of releases) release();
    expect(await Promise.all(calls)).toHaveLength(1_000);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });
});
