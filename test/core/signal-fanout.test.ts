// Covers: src/core/signal-fanout.ts
import { getEventListeners } from 'node:events';
import { describe, expect, test } from 'vitest';
import { type AbortSubscriber, subscribe, unsubscribe } from '../../src/core/signal-fanout.js';
import { sleep } from '../../src/core/sleep.js';

function recorder(): AbortSubscriber & { reasons: unknown[] } {
  const reasons: unknown[] = [];
  return { reasons, onSignalAbort: (reason) => void reasons.push(reason) };
}

describe('one abort listener per signal', () => {
  test('every subscriber hears the reason once; the signal keeps one listener, then none', () => {
    const controller = new AbortController();
    const subscribers = Array.from({ length: 50 }, recorder);
    for (const s of subscribers) subscribe(controller.signal, s);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    const reason = new Error('why');
    controller.abort(reason);
    expect(subscribers.every((s) => s.reasons.length === 1 && s.reasons[0] === reason)).toBe(true);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  test('the listener goes with the last subscriber, and an unsubscribed one hears nothing', () => {
    const controller = new AbortController();
    const [a, b] = [recorder(), recorder()];
    subscribe(controller.signal, a);
    subscribe(controller.signal, b);
    unsubscribe(controller.signal, a);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    unsubscribe(controller.signal, b);
    unsubscribe(controller.signal, b); // twice is harmless
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    controller.abort();
    expect(a.reasons).toEqual([]);
    expect(b.reasons).toEqual([]);
  });

  test('sleeps sharing a signal: one listener while they wait, none after, the reason on abort', async () => {
    const controller = new AbortController();
    await Promise.all(Array.from({ length: 100 }, () => sleep(1, controller.signal)));
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    const waits = Array.from({ length: 100 }, () =>
      sleep(60_000, controller.signal).catch((e: unknown) => e),
    );
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    const reason = new Error('stop');
    controller.abort(reason);
    expect(new Set(await Promise.all(waits))).toEqual(new Set([reason]));
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });
});
