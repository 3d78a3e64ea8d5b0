// Covers: src/testing/state/clock.ts
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, test } from 'vitest';
import { MockClock } from '../../src/testing/index.js';

describe('MockClock, manual mode', () => {
  test('stands still until advanced', async () => {
    const clock = new MockClock({ mode: 'manual', start: 1_000_000 });
    await sleep(5);
    expect(clock.now()).toBe(1_000_000);
    await clock.advance(2_500);
    expect(clock.now()).toBe(1_002_500);
    expect(clock.nowSeconds()).toBe(1_002);
  });

  test('advance runs due timers in order, each seeing its own due time', async () => {
    const clock = new MockClock({ mode: 'manual', start: 0 });
    const seen: Array<[string, number]> = [];
    clock.at(300, () => seen.push(['c', clock.now()]));
    clock.at(100, () => seen.push(['a', clock.now()]));
    clock.after(200, () => seen.push(['b', clock.now()]));
    clock.at(100, () => seen.push(['a2', clock.now()]));
    await clock.advance(250);
    expect(seen).toEqual([
      ['a', 100],
      ['a2', 100],
      ['b', 200],
    ]);
    expect(clock.now()).toBe(250);
    expect(clock.pendingTimers).toBe(1);
    await clock.advance(50);
    expect(seen.at(-1)).toEqual(['c', 300]);
  });

  test('a timer set by a timer runs within the same advance when it falls due', async () => {
    const clock = new MockClock({ mode: 'manual', start: 0 });
    const seen: number[] = [];
    clock.at(10, () => {
      seen.push(clock.now());
      clock.after(10, () => seen.push(clock.now()));
    });
    await clock.advance(100);
    expect(seen).toEqual([10, 20]);
  });

  test('a cancelled timer does not run; a throwing timer does not stop the others', async () => {
    const errors: unknown[] = [];
    const clock = new MockClock({ mode: 'manual', start: 0, onError: (e) => errors.push(e) });
    const seen: string[] = [];
    const cancel = clock.after(10, () => seen.push('cancelled'));
    clock.after(10, () => {
      throw new Error('boom');
    });
    clock.after(20, () => seen.push('ran'));
    cancel();
    await clock.advance(30);
    expect(seen).toEqual(['ran']);
    expect(errors).toHaveLength(1);
  });

  test('refuses a negative advance and a non-positive speed', async () => {
    const clock = new MockClock({ mode: 'manual' });
    await expect(clock.advance(-1)).rejects.toThrow(RangeError);
    expect(() => new MockClock({ speed: 0 })).toThrow(RangeError);
  });
});

describe('MockClock, real mode', () => {
  test('moves with real time multiplied by speed, and fires timers on its own', async () => {
    const clock = new MockClock({ mode: 'real', speed: 1_000, start: 0 });
    let firedAt: number | undefined;
    clock.after(20_000, () => {
      firedAt = clock.now();
    });
    const realStart = Date.now();
    for (let i = 0; i < 200 && firedAt === undefined; i++) await sleep(5);
    expect(firedAt).toBeGreaterThanOrEqual(20_000);
    // 20 mock seconds at speed 1000 take at least 20 real milliseconds.
    expect(Date.now() - realStart).toBeGreaterThanOrEqual(19);
    clock.stop();
  });

  test('advance jumps ahead on top of real time', async () => {
    const clock = new MockClock({ mode: 'real', speed: 1, start: 0 });
    let fired = false;
    clock.after(60_000, () => {
      fired = true;
    });
    await clock.advance(60_000);
    expect(fired).toBe(true);
    expect(clock.now()).toBeGreaterThanOrEqual(60_000);
    clock.stop();
  });

  test('its real timer never keeps the process alive, and stop drops pending timers', async () => {
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const before = timers();
    const clock = new MockClock({ mode: 'real', speed: 1 });
    let fired = false;
    clock.after(50, () => {
      fired = true;
    });
    expect(clock.pendingTimers).toBe(1);
    // An unref'd timer is not an active resource.
    expect(timers()).toBe(before);
    clock.stop();
    expect(clock.pendingTimers).toBe(0);
    expect(process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length).toBe(before);
    await sleep(80);
    expect(fired).toBe(false);
  });
});
