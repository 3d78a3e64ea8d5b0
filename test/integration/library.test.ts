// Covers: the client against the mock gateway: the media library
import { request } from 'undici';
import { describe, expect, test } from 'vitest';
import {
  ConflictError,
  InternalServerError,
  type MediaGateway,
  MediaLibraryError,
  NotFoundError,
  RequestValidationError,
  withExtraFields,
} from '../../src/index.js';
import type { ReviewTask } from '../../src/resources/library/types.js';
import type { AssetSubmitParams } from '../../src/schemas/library/index.js';
import { MockHttpError } from '../../src/testing/index.js';
import { checkAssetReference } from '../../src/testing/state/library-store.js';
import { testClient } from '../helpers/client.js';
import { mockGatewayClient } from './mock-client.js';

const { gateway, client, agent } = await mockGatewayClient();
const GROUPS = '/v1/vidmodel2/private-avatar/groups';
const ASSETS = '/v1/vidmodel2/private-avatar/assets';

const clientFor = (apiKey: string, maxRetries = 0) =>
  testClient({ apiKey, baseURL: gateway.url, maxRetries, dispatcher: agent });

// The second account's client, for the scoping tests.
const other = clientFor(gateway.account('acct_2').apiKey);

const urls = (n: number, mark = '') =>
  Array.from({ length: n }, (_, i) => ({ url: `https://example.com/m${i}${mark}.png`, name: `m${i}` }));
const sent = (method: string, path: string) =>
  gateway.requests.filter((r) => r.method === method && r.path === path);

/** Waits for a review task, moving the mock clock 2 s on every poll. */
const waitFor = (id: string, seen: ReviewTask[] = []) =>
  client.library.reviewTasks.waitForTask(id, {
    interval: 1,
    onProgress: (task) => {
      seen.push(task);
      void gateway.clock.advance(2_000);
    },
  });

describe('groups', () => {
  test('create, list, retrieve, update and delete', async () => {
    const group = await client.library.groups.create({ name: 'Cast', description: 'actors' });
    expect(sent('POST', GROUPS)[0]?.body).toEqual({ name: 'Cast', description: 'actors' });
    expect(group).toMatchObject({ name: 'Cast', description: 'actors', model: 'vidmodel-2.5' });
    expect(group.id).toMatch(/^grp_/);

    const page = await client.library.groups.list({ limit: 100 });
    expect(page.items.map((g) => g.id)).toContain(group.id);
    expect(page.limit).toBe(100);

    expect(await client.library.groups.retrieve(group.id)).toMatchObject({ id: group.id, name: 'Cast' });
    const renamed = await client.library.groups.update(group.id, { name: 'Extras' });
    expect(renamed).toMatchObject({ id: group.id, name: 'Extras', description: 'actors' });
    expect(sent('PATCH', `${GROUPS}/${group.id}`)[0]?.body).toEqual({ name: 'Extras' });

    expect(await client.library.groups.delete(group.id)).toEqual({ id: group.id });
    await expect(client.library.groups.retrieve(group.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  test('refuses an over-long name and an empty update before sending', async () => {
    await expect(client.library.groups.create({ name: 'x'.repeat(256) })).rejects.toBeInstanceOf(
      RequestValidationError,
    );
    await expect(client.library.groups.update('grp_x', {})).rejects.toBeInstanceOf(RequestValidationError);
    expect(gateway.requests).toHaveLength(0);
  });

  test('deleting a group that still holds materials is a ConflictError', async () => {
    const group = await client.library.groups.create({ name: 'busy' });
    const task = await client.library.assets.submit({ group_id: group.id, assets: urls(1) });
    await waitFor(task.id);
    const error = await client.library.groups.delete(group.id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConflictError);
    expect((error as ConflictError).status).toBe(409);
    await client.library.groups.retrieve(group.id); // still there
    const [asset] = (await client.library.assets.list({ group_id: group.id })).items;
    await client.library.assets.delete(asset!.id);
    expect(await client.library.groups.delete(group.id)).toEqual({ id: group.id });
  });
});

describe('review batches', () => {
  test('submit, wait with a manual clock, and get asset:// references', async () => {
    const params: AssetSubmitParams = {
      model: 'vidmodel-2.5',
      group: { name: 'hero', description: 'the lead' },
      asset_type: 'Image',
      assets: urls(3),
    };
    const submitted = await client.library.assets.submit(params);
    expect(sent('POST', ASSETS)[0]?.body).toEqual(params);
    expect(submitted).toMatchObject({
      object: 'vidmodel.avatar.asset.task',
      model: 'vidmodel-2.5',
      status: 'processing',
      progress: 0,
      usable_assets: [],
    });
    expect(submitted.id).toMatch(/^rvt_/);

    const seen: ReviewTask[] = [];
    const task = await waitFor(submitted.id, seen);
    expect(seen.length).toBeGreaterThan(1);
    expect(seen[0]?.status).toBe('processing');
    expect(task.status).toBe('completed');
    expect(task.progress).toBe(100);
    expect(task.group_id).toBe(submitted.group_id);
    expect(task.result?.assets).toHaveLength(3);
    expect(task.result?.failed_assets).toEqual([]);
    expect(task.usable_assets).toHaveLength(3);
    expect(task.usable_assets).toEqual(task.result?.usable_assets?.map((a) => `asset://${a.asset_id}`));
    // Review polls go to /v1/tasks/{id} without a model.
    const polls = gateway.requests.filter((r) => r.path === `/v1/tasks/${submitted.id}`);
    expect(polls.every((r) => r.query.model === undefined)).toBe(true);

    const group = await client.library.groups.retrieve(task.group_id!);
    expect(group).toMatchObject({ name: 'hero', description: 'the lead' });
    const asset = await client.library.assets.retrieve(task.result!.assets![0]!.id);
    expect(asset).toMatchObject({ status: 'Active', asset_type: 'Image', name: 'm0' });
    expect(asset.asset_url).toBe(`asset://${asset.id}`);
    expect(gateway.ledger.entries).toHaveLength(0); // spec: library operations carry no charge
  });

  test('a partly rejected batch resolves as failed, with its usable assets', async () => {
    const assets = [...urls(2), { url: 'https://example.com/bad.png?mock:reject' }];
    const submitted = await client.library.assets.submit({ assets });
    const task = await waitFor(submitted.id);
    expect(task.status).toBe('failed');
    expect(task.usable_assets).toHaveLength(2);
    expect(task.result?.failed_assets?.map((a) => a.status)).toEqual(['Failed']);
    const rejected = task.result?.failed_assets[0];
    // The source URL is on the material though the spec does not name it: read it as an extra field.
    expect(rejected && withExtraFields(rejected).source_url).toContain('mock:reject');
  });

  test('a review that fails before per-material results resolves with an error and no result', async () => {
    const submitted = await client.library.assets.submit({
      assets: [{ url: 'https://example.com/a.png?mock:review-error' }],
    });
    const task = await waitFor(submitted.id);
    expect(task.status).toBe('failed');
    expect(task.result).toBeUndefined();
    expect(task.error).toMatchObject({ message: expect.stringContaining('could not check') });
    expect(task.usable_assets).toEqual([]);
  });

  test('neither group nor group_id creates a group with the batch model', async () => {
    const before = (await client.library.groups.list({ limit: 100 })).total;
    const submitted = await client.library.assets.submit({ assets: urls(1) });
    expect((await client.library.groups.list({ limit: 100 })).total).toBe(before + 1);
    expect(await client.library.groups.retrieve(submitted.group_id!)).toMatchObject({
      model: 'vidmodel-2.0',
    });
  });

  test('a Pending material cannot be renamed or deleted (ConflictError), then can', async () => {
    const submitted = await client.library.assets.submit({ assets: urls(1) });
    const [pending] = (await client.library.assets.list({ group_id: submitted.group_id!, status: 'Pending' }))
      .items;
    expect(pending?.status).toBe('Pending');
    await expect(client.library.assets.update(pending!.id, { name: 'new' })).rejects.toBeInstanceOf(
      ConflictError,
    );
    await expect(client.library.assets.delete(pending!.id)).rejects.toBeInstanceOf(ConflictError);
    await waitFor(submitted.id);
    expect(await client.library.assets.update(pending!.id, { name: 'new' })).toMatchObject({
      name: 'new',
      status: 'Active',
    });
    expect(await client.library.assets.delete(pending!.id)).toEqual({ id: pending!.id, deleted: true });
    await expect(client.library.assets.retrieve(pending!.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  test('lists show materials as last refreshed; retrieve refreshes', async () => {
    const submitted = await client.library.assets.submit({ assets: urls(2) });
    await gateway.clock.advance(60_000); // the review is over, but nobody polled it
    const listed = await client.library.assets.list({ group_id: submitted.group_id! });
    expect(listed.items.map((a) => a.status)).toEqual(['Pending', 'Pending']);
    const first = await client.library.assets.retrieve(listed.items[0]!.id);
    expect(first.status).toBe('Active');
    const active = await client.library.assets.list({ group_id: submitted.group_id!, status: 'Active' });
    expect(active.items.map((a) => a.id)).toEqual([first.id]);
  });

  test('a material the gateway refuses is a MediaLibraryError with assetIndex', async () => {
    const groupsBefore = (await client.library.groups.list({ limit: 100 })).total;
    const tasksBefore = gateway.tasks.list({ kind: 'review' }).length;
    const assets = [...urls(2), { url: 'https://example.com/broken.png?mock:invalid' }];
    const error = await client.library.assets.submit({ assets }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MediaLibraryError);
    expect(error).toMatchObject({ status: 400, assetIndex: 2 });
    expect((error as MediaLibraryError).message).toContain('invalid_asset_material');
    expect((await client.library.groups.list({ limit: 100 })).total).toBe(groupsBefore);
    expect(gateway.tasks.list({ kind: 'review' })).toHaveLength(tasksBefore);
  });

  test.each<[string, unknown, string]>([
    ['group and group_id together', { group: { name: 'g' }, group_id: 'grp_1', assets: urls(1) }, 'group_id'],
    ['21 assets', { assets: urls(21) }, 'assets'],
    ['no assets', { assets: [] }, 'assets'],
    ['a lowercase asset_type', { asset_type: 'image', assets: urls(1) }, 'asset_type'],
    ['an asset:// URL', { assets: [{ url: 'asset://asset_1' }] }, 'assets[0].url'],
    [
      'a URL over 8192 characters',
      { assets: [{ url: `https://e.com/${'a'.repeat(8200)}` }] },
      'assets[0].url',
    ],
    ['a project other than default', { project_name: 'p', assets: urls(1) }, 'project_name'],
  ])('refuses %s before sending', async (_, params, path) => {
    const error = await client.library.assets.submit(params as AssetSubmitParams).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).issues.map((i) => i.path)).toContain(path);
    expect(gateway.requests).toHaveLength(0);
  });
});

describe('pagination', () => {
  test('iterates 45 assets with limit 20, fetching each page only when reached', async () => {
    const group = await client.library.groups.create({ name: 'many' });
    for (const n of [20, 20, 5]) await client.library.assets.submit({ group_id: group.id, assets: urls(n) });
    gateway.resetRequests();
    const lists = () => sent('GET', ASSETS);

    const pages = client.library.assets.list({ group_id: group.id, limit: 20 });
    const ids: string[] = [];
    const getsAt: number[] = [];
    for await (const asset of pages) {
      ids.push(asset.id);
      getsAt.push(lists().length);
    }
    expect(ids).toHaveLength(45);
    expect(new Set(ids).size).toBe(45);
    // Page 2 is fetched when item 21 is reached, page 3 at item 41, and no page 4.
    expect(getsAt[19]).toBe(1);
    expect(getsAt[20]).toBe(2);
    expect(getsAt[39]).toBe(2);
    expect(getsAt[40]).toBe(3);
    expect(lists()).toHaveLength(3);
    expect(lists().map((r) => r.query)).toEqual(
      [1, 2, 3].map((page) => ({ group_id: group.id, limit: '20', page: String(page) })),
    );
  });

  test('the first page object has the list fields and fetches the next page on demand', async () => {
    const first = await client.library.groups.list({ limit: 1 });
    expect(first.page).toBe(1);
    expect(first.limit).toBe(1);
    expect(first.total).toBeGreaterThan(1);
    expect(first.hasNextPage()).toBe(true);
    const second = await first.getNextPage();
    expect(second.page).toBe(2);
    expect(second.items[0]?.id).not.toBe(first.items[0]?.id);
  });

  test('limit outside 1-100 and a lowercase status are refused before sending', async () => {
    await expect(client.library.assets.list({ limit: 101 })).rejects.toBeInstanceOf(RequestValidationError);
    await expect(client.library.groups.list({ limit: 0 })).rejects.toBeInstanceOf(RequestValidationError);
    await expect(client.library.assets.list({ status: 'active' as never })).rejects.toBeInstanceOf(
      RequestValidationError,
    );
    expect(gateway.requests).toHaveLength(0);
  });
});

describe('accounts', () => {
  test("another account's group, material and review task are NotFoundError", async () => {
    const submitted = await client.library.assets.submit({ assets: urls(1) });
    const task = await waitFor(submitted.id);
    const assetId = task.result!.assets![0]!.id;
    await expect(other.library.groups.retrieve(submitted.group_id!)).rejects.toBeInstanceOf(NotFoundError);
    await expect(other.library.groups.delete(submitted.group_id!)).rejects.toBeInstanceOf(NotFoundError);
    await expect(other.library.assets.retrieve(assetId)).rejects.toBeInstanceOf(NotFoundError);
    await expect(other.library.assets.update(assetId, { name: 'x' })).rejects.toBeInstanceOf(NotFoundError);
    await expect(other.library.assets.delete(assetId)).rejects.toBeInstanceOf(NotFoundError);
    await expect(other.library.reviewTasks.retrieve(submitted.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(
      other.library.assets.submit({ group_id: submitted.group_id!, assets: urls(1) }),
    ).rejects.toBeInstanceOf(NotFoundError);
    const theirs = await other.library.assets.list({ limit: 100 });
    expect(theirs.items.map((a) => a.id)).not.toContain(assetId);
    expect(await client.library.assets.retrieve(assetId)).toMatchObject({ id: assetId });
  });
});

describe('retries of state-creating calls', () => {
  test.each([
    ['assets.submit', 'POST', ASSETS, (c: MediaGateway) => c.library.assets.submit({ assets: urls(1) })],
    ['groups.create', 'POST', GROUPS, (c: MediaGateway) => c.library.groups.create({ name: 'r' })],
  ])('%s is not retried on 500 but is retried on 429', async (_, method, path, call) => {
    const retrying = clientFor(gateway.apiKey, 2);
    gateway.inject({ match: { method, path }, fault: { status: 500 } });
    await expect(call(retrying)).rejects.toBeInstanceOf(InternalServerError);
    expect(sent(method, path)).toHaveLength(1);

    gateway.resetRequests();
    gateway.inject({ match: { method, path }, fault: { status: 429, headers: { 'Retry-After': '0' } } });
    await call(retrying);
    expect(sent(method, path).map((r) => r.status)).toEqual([429, 200]);
  });

  test('reads are retried on 500', async () => {
    const retrying = clientFor(gateway.apiKey, 2);
    gateway.inject({
      match: { method: 'GET', path: GROUPS },
      fault: { status: 500, headers: { 'Retry-After': '0' } },
    });
    await retrying.library.groups.list();
    expect(sent('GET', GROUPS).map((r) => r.status)).toEqual([500, 200]);
  });
});

describe('asset:// references in generation requests (mock helper)', () => {
  const statusOf = (fn: () => unknown) => {
    try {
      fn();
    } catch (error) {
      return error instanceof MockHttpError ? error.status : error;
    }
    return 'accepted';
  };

  test('only an Active material of the same account may be referenced', async () => {
    const submitted = await client.library.assets.submit({
      assets: [...urls(1), { url: 'https://example.com/x.png?mock:reject' }],
    });
    const ids = (await client.library.assets.list({ group_id: submitted.group_id! })).items.map((a) => a.id);
    const [good, bad] = ids.map((id) => `asset://${id}`) as [string, string];
    expect(statusOf(() => checkAssetReference(gateway, 'acct_1', good))).toBe(409); // still Pending
    const task = await waitFor(submitted.id);
    expect(task.usable_assets).toEqual([good]);
    expect(checkAssetReference(gateway, 'acct_1', good)?.status).toBe('Active');
    expect(statusOf(() => checkAssetReference(gateway, 'acct_1', bad))).toBe(409); // Failed
    expect(statusOf(() => checkAssetReference(gateway, 'acct_2', good))).toBe(404); // foreign
    expect(statusOf(() => checkAssetReference(gateway, 'acct_1', 'asset://asset_unknown'))).toBe(404);
    expect(checkAssetReference(gateway, 'acct_1', 'https://example.com/a.png')).toBeUndefined();
  });
});

describe('the mock gateway on the wire', () => {
  const raw = async (method: string, path: string, body?: unknown) => {
    const response = await request(`${gateway.url}${path}`, {
      method: method as 'GET',
      dispatcher: agent,
      headers: { authorization: `Bearer ${gateway.apiKey}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.statusCode, body: (await response.body.json()) as Record<string, unknown> };
  };

  test('a bad material URL answers the library error shape naming its index', async () => {
    const answer = await raw('POST', ASSETS, {
      assets: [{ url: 'https://e.com/a.png' }, { url: 'ftp://x' }],
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      error: {
        message: expect.stringMatching(/^invalid_asset_material: assets\[1\]\.url/),
        type: 'media_library_error',
      },
    });
  });

  test('status is case-sensitive and page/limit default to 1/20', async () => {
    expect((await raw('GET', `${ASSETS}?status=active`)).status).toBe(400);
    const answer = await raw('GET', ASSETS);
    expect(answer.body).toMatchObject({ code: 200, data: { page: 1, limit: 20 } });
  });

  test('the review task answer has the spec fields', async () => {
    const submitted = await raw('POST', ASSETS, { assets: [{ url: 'https://e.com/a.png' }] });
    const id = (submitted.body.data as { id: string }).id;
    const answer = await raw('GET', `/v1/tasks/${id}`);
    expect(answer.body).toMatchObject({
      code: 200,
      data: {
        id,
        object: 'vidmodel.avatar.asset.task',
        model: 'vidmodel-2.0',
        status: 'processing',
        progress: expect.any(Number),
        group_id: expect.stringMatching(/^grp_/),
        result: {
          assets: [expect.objectContaining({ status: 'Pending' })],
          usable_assets: [],
          failed_assets: [],
        },
      },
    });
  });
});
