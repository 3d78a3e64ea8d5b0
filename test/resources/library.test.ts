// Covers: src/resources/library/index.ts
import { describe, expect, test } from 'vitest';
import { Page } from '../../src/core/pagination.js';
import { assetReference, toReviewTask, unwrap } from '../../src/resources/library/types.js';

const withRequestId = <T extends object>(value: T, id: string): T =>
  Object.defineProperty(value, '_requestId', { value: id, enumerable: false });

describe('unwrap', () => {
  test('takes data out of the {code, data} wrapper and keeps the request ID, not enumerable', () => {
    const inner = unwrap(withRequestId({ code: 200, data: { id: 'grp_1', name: 'g' } }, 'req_7'));
    expect(inner).toEqual({ id: 'grp_1', name: 'g' });
    expect((inner as { _requestId?: string })._requestId).toBe('req_7');
    expect(Object.keys(inner)).toEqual(['id', 'name']);
  });

  test('passes an unwrapped body through', () => {
    expect(unwrap({ id: 'grp_1' } as never)).toEqual({ id: 'grp_1' });
  });
});

describe('assetReference', () => {
  test.each<[string, unknown, string | undefined]>([
    ['asset_url', { id: 'a1', asset_url: 'asset://a1' }, 'asset://a1'],
    ['asset_id without asset_url', { id: 'x', asset_id: 'a2' }, 'asset://a2'],
    ['id only', { id: 'a3' }, 'asset://a3'],
    ['a non-asset asset_url falls back to the ID', { id: 'a4', asset_url: 'https://x/y' }, 'asset://a4'],
    ['a bare reference string', 'asset://a5', 'asset://a5'],
    ['a bare ID string', 'a6', 'asset://a6'],
    ['an http URL string', 'https://x/y.png', undefined],
    ['an entry without ID', { name: 'n' }, undefined],
    ['null', null, undefined],
  ])('%s', (_, entry, expected) => {
    expect(assetReference(entry)).toBe(expected);
  });
});

describe('toReviewTask', () => {
  test('keeps the wire fields and lists the usable asset:// references', () => {
    const raw = withRequestId(
      {
        code: 200,
        data: {
          id: 'rvt_1',
          object: 'vidmodel.avatar.asset.task',
          model: 'vidmodel-2.5',
          status: 'failed',
          progress: 100,
          group_id: 'grp_1',
          result: {
            assets: [{ id: 'a1' }, { id: 'a2' }],
            usable_assets: [{ id: 'a1', asset_id: 'a1', asset_url: 'asset://a1', status: 'Active' }],
            failed_assets: [{ id: 'a2', status: 'Failed' }],
          },
        },
      },
      'req_9',
    );
    const task = toReviewTask(raw);
    expect(task).toMatchObject({ id: 'rvt_1', status: 'failed', progress: 100, group_id: 'grp_1' });
    expect(task.usable_assets).toEqual(['asset://a1']);
    expect(task.result?.failed_assets).toHaveLength(1);
    expect(task._requestId).toBe('req_9');
  });

  test('a task without result (failed before per-material results) has no usable assets', () => {
    const task = toReviewTask({
      code: 200,
      data: { id: 'rvt_2', status: 'failed', error: { message: 'x' } },
    });
    expect(task.usable_assets).toEqual([]);
    expect(task.result).toBeUndefined();
    expect(task.error).toEqual({ message: 'x' });
  });
});

describe('Page', () => {
  const pageOf = (page: number, items: number[], total: number, limit = 2) =>
    ({ items, total, page, limit }) as const;

  test('iterates every page, fetching the next one only when reached', async () => {
    const fetched: number[] = [];
    const all = [1, 2, 3, 4, 5];
    const load = async (page: number): Promise<Page<number>> => {
      fetched.push(page);
      return new Page(pageOf(page, all.slice((page - 1) * 2, page * 2), all.length), load);
    };
    const first = await load(1);
    const seen: Array<[number, number]> = [];
    for await (const item of first) seen.push([item, fetched.length]);
    expect(seen).toEqual([
      [1, 1],
      [2, 1],
      [3, 2],
      [4, 2],
      [5, 3],
    ]);
    expect(fetched).toEqual([1, 2, 3]);
  });

  test('an empty page ends iteration even when total says more', async () => {
    const page = new Page(pageOf(3, [], 10), () => {
      throw new Error('must not fetch');
    });
    expect(page.hasNextPage()).toBe(false);
  });
});
