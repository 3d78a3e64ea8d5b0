// Covers: src/core/events-hub.ts
import { describe, expect, test } from 'vitest';
import { InvalidOptionError, TaskEventHub, type WebhookEventLike } from '../../src/index.js';

describe('TaskEventHub options', () => {
  test.each([
    ['maxBuffered', [-1, 0.5, Number.NaN, Number.POSITIVE_INFINITY]],
    ['maxAgeMs', [0, -1, 0.5, Number.NaN, Number.POSITIVE_INFINITY, 2_147_483_648]],
  ] as const)('refuses %s [%s] at construction, naming it and the value', (option, values) => {
    for (const value of values) {
      const make = () => new TaskEventHub({ [option]: value });
      expect(make).toThrow(InvalidOptionError);
      expect(make).toThrow(`TaskEventHub.${option} must be`);
      try {
        make();
      } catch (error) {
        expect((error as InvalidOptionError).option).toBe(`TaskEventHub.${option}`);
        expect(Object.is((error as InvalidOptionError).value, value)).toBe(true);
      }
    }
  });

  test('takes maxBuffered 0 (no early events kept) and maxAgeMs 1', () => {
    const hub = new TaskEventHub({ maxBuffered: 0, maxAgeMs: 1 });
    hub.publish({ id: 'evt_1', type: 'task.completed', data: { task_id: 't' } });
    expect(hub.size.buffered).toBe(0);
  });

  test.each([
    ['a number', 5],
    ['a string', 'Date.now'],
    ['null', null],
  ])('refuses a now that is %s at construction, not at the first publish', (_name, now) => {
    const make = () => new TaskEventHub({ now: now as unknown as () => number });
    expect(make).toThrow(InvalidOptionError);
    expect(make).toThrow('TaskEventHub.now must be a function');
  });

  test('takes a now function and keeps early events by its clock', () => {
    let now = 1_000;
    const hub = new TaskEventHub({ maxAgeMs: 100, now: () => now });
    hub.publish({ id: 'evt_1', type: 'task.completed', data: { task_id: 't' } });
    expect(hub.size.buffered).toBe(1);
    now += 101;
    hub.publish({ id: 'evt_2', type: 'task.completed', data: { task_id: 'u' } });
    // The first event is older than maxAgeMs by the given clock: pruned; the second is kept.
    expect(hub.size.buffered).toBe(1);
  });
});

describe('TaskEventHub keyOf', () => {
  test('keeps terminal events only, under their task_id', async () => {
    const hub = new TaskEventHub();
    hub.publish({ id: 'evt_1', type: 'task.processing', data: { task_id: 't' } });
    expect(hub.size.buffered).toBe(0);
    hub.publish({ id: 'evt_2', type: 'task.failed', data: { task_id: 't' } });
    await expect(hub.waitFor('t', new AbortController().signal)).resolves.toMatchObject({ id: 'evt_2' });
  });

  test('in a subclass, keeps every event it names a key for, under that key, and skips the rest', async () => {
    class RefHub extends TaskEventHub {
      protected override keyOf(event: WebhookEventLike) {
        return (event.data as { ref?: string } | undefined)?.ref;
      }
    }
    const hub = new RefHub();
    hub.publish({ id: 'evt_1', type: 'task.processing', data: { task_id: 't', ref: 'r1' } as never });
    hub.publish({ id: 'evt_2', type: 'task.completed', data: { task_id: 'u' } });
    expect(hub.size.buffered).toBe(1);
    await expect(hub.waitFor('r1', new AbortController().signal)).resolves.toMatchObject({ id: 'evt_1' });
    const late = hub.waitFor('r2', new AbortController().signal);
    hub.publish({ id: 'evt_3', type: 'task.created', data: { task_id: 'v', ref: 'r2' } as never });
    await expect(late).resolves.toMatchObject({ id: 'evt_3' });
  });
});
