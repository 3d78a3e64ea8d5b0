// Covers: src/core/pagination.ts
import { Agent } from 'undici';
import { afterAll, beforeEach, describe, expect, expectTypeOf, test } from 'vitest';
import { Page, PagePromise } from '../../src/core/pagination.js';
import { type Asset, InvalidOptionError } from '../../src/index.js';
import { startMockGateway } from '../../src/testing/index.js';
import { testClient } from '../helpers/client.js';

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

describe('PagePromise is a Promise', () => {
  test('instanceof Promise, with finally, and chaining gives plain Promises', async () => {
    const { load } = source(5, 2);
    const pages = new PagePromise(() => load(1));
    expect(pages).toBeInstanceOf(Promise);
    expect(Object.prototype.toString.call(pages)).toBe('[object Promise]');
    let finished = false;
    const page = await pages.finally(() => {
      finished = true;
    });
    expect(finished).toBe(true);
    expect(page.items).toEqual([0, 1]);
    const chained = pages.then((p) => p.total);
    expect(chained).toBeInstanceOf(Promise);
    expect(chained).not.toBeInstanceOf(PagePromise);
    expect(await chained).toBe(5);
  });

  test('the first page is requested once, on first use, however often it is used', async () => {
    const { load, fetched } = source(5, 2);
    let loads = 0;
    const pages = new PagePromise(() => {
      loads += 1;
      return load(1);
    });
    await Promise.resolve();
    expect(loads).toBe(0);
    const [a, b] = await Promise.all([pages, pages.then((p) => p)]);
    await pages.catch(() => undefined);
    await pages.finally(() => undefined);
    const items: number[] = [];
    for await (const item of pages) items.push(item);
    expect(await pages.toArray()).toEqual([0, 1, 2, 3, 4]);
    expect(a).toBe(b);
    expect(items).toEqual([0, 1, 2, 3, 4]);
    expect(loads).toBe(1);
    expect(fetched.filter((n) => n === 1)).toHaveLength(1);
  });

  test('a load that throws rejects the promise, for await and toArray alike', async () => {
    const boom = new Error('refused');
    const pages = new PagePromise<number>(() => {
      throw boom;
    });
    await expect(pages).rejects.toBe(boom);
    await expect(pages.toArray()).rejects.toBe(boom);
    await expect(
      (async () => {
        for await (const _ of pages) break;
      })(),
    ).rejects.toBe(boom);
  });

  test('toArray collects every item when no limit is given', async () => {
    const { load, fetched } = source(7, 3);
    expect(await new PagePromise(() => load(1)).toArray()).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(fetched).toEqual([1, 2, 3]);
  });

  test.each([
    [6, [1, 2]],
    [3, [1]],
    [4, [1, 2]],
    [100, [1, 2, 3]],
  ])('toArray({ limit: %i }) requests pages %j of a 7-item list in pages of 3', async (limit, pages) => {
    const { load, fetched } = source(7, 3);
    const items = await new PagePromise(() => load(1)).toArray({ limit });
    expect(items).toEqual(Array.from({ length: Math.min(limit, 7) }, (_, i) => i));
    expect(fetched).toEqual(pages);
  });

  test.each([
    ['0', 0],
    ['-1', -1],
    ['1.5', 1.5],
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['the string "2"', '2' as unknown as number],
  ])('toArray({ limit: %s }) is refused with InvalidOptionError and requests nothing', async (_, limit) => {
    const { load, fetched } = source(7, 3);
    const error = await new PagePromise(() => load(1)).toArray({ limit }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidOptionError);
    expect(error).toMatchObject({ option: 'toArray({ limit })', value: limit });
    expect(fetched).toEqual([]);
  });
});

describe('list() against the mock gateway', async () => {
  const gateway = await startMockGateway({ clock: 'manual' });
  const agent = new Agent({ keepAliveTimeout: 1_000 });
  const client = testClient({ gateway, dispatcher: agent });
  afterAll(async () => {
    await gateway.close();
    await agent.close();
  });
  const ASSETS = '/v1/vidmodel2/private-avatar/assets';
  const group = await client.library.groups.create({ name: 'paged' });
  const assets = Array.from({ length: 7 }, (_, i) => ({
    url: `https://example.com/p${i}.png`,
    name: `p${i}`,
  }));
  await client.library.assets.submit({ group_id: group.id, assets });
  const listed = () => gateway.requests.filter((r) => r.method === 'GET' && r.path === ASSETS);
  beforeEach(() => gateway.resetRequests());

  test('returns a Promise of the first page', async () => {
    const pages = client.library.assets.list({ group_id: group.id, limit: 3 });
    expectTypeOf(pages).toExtend<Promise<Page<Asset>>>();
    const asPromise: Promise<Page<Asset>> = pages;
    expect(asPromise).toBeInstanceOf(Promise);
    const page = await asPromise.finally(() => undefined);
    expect(page.items).toHaveLength(3);
    expect(page.total).toBe(7);
    expect(listed()).toHaveLength(1);
  });

  test('sends nothing until used', async () => {
    const pages = client.library.assets.list({ group_id: group.id, limit: 3 });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(listed()).toHaveLength(0);
    await pages;
    expect(listed()).toHaveLength(1);
  });

  test('for await yields every asset of every page, one request per page', async () => {
    const ids: string[] = [];
    for await (const asset of client.library.assets.list({ group_id: group.id, limit: 3 }))
      ids.push(asset.id);
    expect(new Set(ids).size).toBe(7);
    expect(listed().map((r) => r.query?.page)).toEqual(['1', '2', '3']);
  });

  test('toArray({ limit }) stops requesting pages once it has enough', async () => {
    const first4 = await client.library.assets.list({ group_id: group.id, limit: 3 }).toArray({ limit: 4 });
    expect(first4).toHaveLength(4);
    expect(listed().map((r) => r.query?.page)).toEqual(['1', '2']);

    gateway.resetRequests();
    const all = await client.library.assets.list({ group_id: group.id, limit: 3 }).toArray({ limit: 50 });
    expect(all.map((a) => a.id).slice(0, 4)).toEqual(first4.map((a) => a.id));
    expect(all).toHaveLength(7);
    expect(listed()).toHaveLength(3);
  });

  test('toArray with a bad limit sends nothing', async () => {
    await expect(client.library.groups.list().toArray({ limit: 0 })).rejects.toBeInstanceOf(
      InvalidOptionError,
    );
    expect(gateway.requests).toHaveLength(0);
  });
});
