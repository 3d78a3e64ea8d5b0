// Covers: src/webhooks/dedupe.ts
import { describe, expect, test } from 'vitest';
import { MemoryDedupeStore } from '../../src/webhooks/index.js';

const HOUR = 3_600_000;

function clock(start = 0) {
  let now = start;
  return { now: () => now, set: (t: number) => (now = t) };
}

describe('MemoryDedupeStore', () => {
  test('the first claim wins; later claims lose until the claim is released', async () => {
    const store = new MemoryDedupeStore();
    expect(await store.claim('evt_1')).toBe(true);
    expect(await store.claim('evt_1')).toBe(false);
    expect(await store.claim('evt_2')).toBe(true);
    await store.release('evt_1');
    expect(await store.claim('evt_1')).toBe(true);
  });

  test('of many concurrent claims of one ID exactly one wins', async () => {
    const store = new MemoryDedupeStore();
    const results = await Promise.all(Array.from({ length: 50 }, () => store.claim('evt_same')));
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  test('keeps an ID for 72 hours by default, then forgets it', async () => {
    const c = clock(1_000);
    const store = new MemoryDedupeStore({ now: c.now });
    await store.claim('evt_1');
    c.set(1_000 + 72 * HOUR);
    expect(await store.claim('evt_1')).toBe(false);
    c.set(1_000 + 72 * HOUR + 1);
    expect(await store.claim('evt_1')).toBe(true);
  });

  test('markDone restarts the expiry; ttlMs is configurable', async () => {
    const c = clock();
    const store = new MemoryDedupeStore({ now: c.now, ttlMs: 10 * HOUR });
    await store.claim('evt_1');
    c.set(5 * HOUR);
    await store.markDone('evt_1');
    c.set(14 * HOUR);
    expect(await store.claim('evt_1')).toBe(false);
    c.set(15 * HOUR + 1);
    expect(await store.claim('evt_1')).toBe(true);
  });

  test('markDone records an ID even if it was forced out meanwhile', async () => {
    const store = new MemoryDedupeStore({ maxEntries: 1 });
    await store.claim('evt_1');
    await store.claim('evt_2');
    await store.markDone('evt_1');
    expect(await store.claim('evt_1')).toBe(false);
  });

  test('is bounded in count, forgetting the oldest first', async () => {
    const store = new MemoryDedupeStore({ maxEntries: 3 });
    for (const id of ['a', 'b', 'c', 'd']) expect(await store.claim(id)).toBe(true);
    expect(store.size).toBe(3);
    expect(await store.claim('d')).toBe(false);
    expect(await store.claim('b')).toBe(false);
    expect(await store.claim('a')).toBe(true);
  });

  test('holds 10,000 IDs by default', async () => {
    const store = new MemoryDedupeStore();
    for (let i = 0; i <= 10_000; i++) await store.claim(`evt_${i}`);
    expect(store.size).toBe(10_000);
    expect(await store.claim('evt_10000')).toBe(false);
    expect(await store.claim('evt_1')).toBe(false);
    expect(await store.claim('evt_0')).toBe(true);
  });
});
