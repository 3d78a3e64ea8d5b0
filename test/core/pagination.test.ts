import { describe, expect, test } from 'vitest';
import { Page, PagePromise } from '../../src/core/pagination.js';

function source(total: number, limit: number) {
  const fetched: number[] = [];
  const load = async (page: number): Promise<Page<number>> => {
    fetched.push(page);
    const start = (page - 1) * limit;
    const items = Array.from({ length: Math.max(0, Math.min(limit, total - start)) }, (_, i) => start + i);
    return new Page({ items, total, page, limit }, load);
  };
  return { load, fetched };
}

describe('Page and PagePromise', () => {
  test('awaiting gives the first page', async () => {
    const { load } = source(45, 20);
    const page = await new PagePromise(() => load(1));
    expect(page.items).toHaveLength(20);
    expect(page.hasNextPage()).toBe(true);
    const last = await (await page.getNextPage()).getNextPage();
    expect(last.items).toHaveLength(5);
    expect(last.hasNextPage()).toBe(false);
  });

  test('iterating yields every item of every page, fetching each page only when reached', async () => {
    const { load, fetched } = source(45, 20);
    const seen: number[] = [];
    for await (const item of new PagePromise(() => load(1))) {
      seen.push(item);
      if (item === 0) expect(fetched).toEqual([1]);
    }
    expect(seen).toEqual(Array.from({ length: 45 }, (_, i) => i));
    expect(fetched).toEqual([1, 2, 3]);
  });

  test('breaking early fetches no more pages', async () => {
    const { load, fetched } = source(100, 10);
    for await (const item of new PagePromise(() => load(1))) if (item === 3) break;
    expect(fetched).toEqual([1]);
  });

  test('an empty list stops', async () => {
    const { load } = source(0, 20);
    const items: number[] = [];
    for await (const item of new PagePromise(() => load(1))) items.push(item);
    expect(items).toEqual([]);
  });
});
