// Covers: src/core/pagination.ts
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, test } from 'vitest';
import type { MediaGateway } from '../../src/client.js';
import { InvalidResponseError } from '../../src/core/errors.js';
import { testClient } from '../helpers/client.js';
import { type RawServer, startRawServer } from '../helpers/raw-server.js';
import { rejection } from '../helpers/rejection.js';

const KEY = 'mgw_pages_key_0000111122223333';
const ASSETS = '/v1/vidmodel2/private-avatar/assets';

const servers: RawServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** A list server: `answer` gets the page asked for and gives the body of the answer. */
async function listServer(
  answer: (page: number) => unknown,
): Promise<{ client: MediaGateway; asked: number[] }> {
  const asked: number[] = [];
  const server = await startRawServer((req, res: ServerResponse) => {
    const page = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('page'));
    asked.push(page);
    res.writeHead(200, { 'content-type': 'application/json', 'x-service-request-id': `req_${page}` });
    res.end(JSON.stringify(answer(page)));
  });
  servers.push(server);
  return { client: testClient({ apiKey: KEY, baseURL: server.url }), asked };
}

const page = (items: unknown[], total: unknown, pageNumber: unknown = 1, limit: unknown = 2) => ({
  code: 200,
  data: { items, total, page: pageNumber, limit },
});

describe('a list answer that is not a page', () => {
  test.each<[string, unknown, string]>([
    ['data is null', { code: 200, data: null }, 'its data is null, not an object'],
    ['data is an array', { code: 200, data: [{ id: 'a1' }] }, 'its data is an array, not an object'],
    ['data is a string', { code: 200, data: 'items' }, 'its data is a string, not an object'],
    ['items is null', page(null as never, 3), 'its items are not a list'],
    [
      'items is an object',
      { code: 200, data: { items: { 0: 'a' }, total: 1, page: 1, limit: 2 } },
      'its items are not a list',
    ],
    [
      'total is missing',
      { code: 200, data: { items: [], page: 1, limit: 2 } },
      'its total is not a whole number',
    ],
    ['total is a string', page([{ id: 'a1' }], '10'), 'its total is not a whole number'],
    ['total is negative', page([{ id: 'a1' }], -1), 'its total is not a whole number'],
    ['limit is a string', page([{ id: 'a1' }], 10, 1, 'two'), 'its limit is not a whole number'],
  ])('%s: InvalidResponseError naming the call, never a TypeError', async (_, body, problem) => {
    const { client, asked } = await listServer(() => body);
    const error = await rejection(client.library.assets.list());
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect(error.message).toContain(`library.assets.list (GET ${ASSETS}, page 1) answered 200`);
    expect(error.message).toContain(problem);
    expect(error).toMatchObject({ status: 200, requestId: 'req_1' });
    // Iterating fails the same way.
    const iterated = await rejection(client.library.assets.list().toArray());
    expect(iterated).toBeInstanceOf(InvalidResponseError);
    expect(asked).toEqual([1, 1]);
  });

  test('groups are checked the same way', async () => {
    const { client } = await listServer(() => ({ code: 200, data: null }));
    const error = await rejection(client.library.groups.list());
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect(error.message).toContain('library.groups.list (GET /v1/vidmodel2/private-avatar/groups, page 1)');
  });

  test('an answer without the {code, data} wrapper is still read as a page', async () => {
    const { client } = await listServer((n) => ({ items: [`a${n}`], total: 1, page: n, limit: 1 }));
    expect(await client.library.assets.list().toArray()).toEqual(['a1']);
  });
});

describe('a server that does not page as asked', () => {
  test('always answering page 1 with a large total: the second request fails, no loop', async () => {
    const { client, asked } = await listServer(() => page([{ id: 'asset_1' }], 1e9, 1, 1));
    // Bounded, so that a client that loops fails here rather than running on.
    const iterate = async () => {
      let seen = 0;
      for await (const _ of client.library.assets.list()) if (++seen >= 10) break;
    };
    const error = await rejection(iterate());
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect(error.message).toContain(
      `library.assets.list (GET ${ASSETS}, page 2) answered with the same items as page 1`,
    );
    expect(error).toMatchObject({ requestId: 'req_2' });
    expect(asked).toEqual([1, 2]);
  });

  test('getNextPage refuses a repeat as iteration does', async () => {
    const { client } = await listServer(() => page([{ id: 'asset_1' }], 1e9, 1, 1));
    const first = await client.library.assets.list();
    expect(await rejection(first.getNextPage())).toBeInstanceOf(InvalidResponseError);
  });

  test('the next page is the one after the page asked for, whatever page the answer names', async () => {
    // Honest items, a stale echo: each request must still move on by one page.
    const { client, asked } = await listServer((n) =>
      page([`a${2 * n - 1}`, `a${2 * n}`].slice(0, 7 - 2 * n), 5, 1),
    );
    const first = await client.library.assets.list({ page: 2 });
    expect(first.page).toBe(2);
    expect(await client.library.assets.list().toArray()).toEqual(['a1', 'a2', 'a3', 'a4', 'a5']);
    expect(asked).toEqual([2, 1, 2, 3]);
  });

  test('an empty page that claims more ends the list after one request', async () => {
    const { client, asked } = await listServer(() => page([], 1e9, 1, 20));
    expect(await client.library.assets.list().toArray()).toEqual([]);
    expect(asked).toEqual([1]);
  });

  test('pages with new items end where the total says, not where the echo says', async () => {
    const { client, asked } = await listServer((n) => page([`a${n}`], 3, 7, 1));
    expect(await client.library.assets.list().toArray()).toEqual(['a1', 'a2', 'a3']);
    expect(asked).toEqual([1, 2, 3]);
  });
});
