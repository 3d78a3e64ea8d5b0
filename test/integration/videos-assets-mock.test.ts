// Covers: the client against the mock gateway: video assets
import { describe, expect, test } from 'vitest';
import { ConflictError, NotFoundError } from '../../src/index.js';
import type { ReviewTask } from '../../src/resources/library/types.js';
import type { VideoCreateParams } from '../../src/schemas/video/types.js';
import { testClient } from '../helpers/client.js';
import { mockGatewayClient } from './mock-client.js';

// spec: Media library — only `Active` materials may be referenced; materials combined in one
// generation share a compatible group context; another account's material cannot be used.
// spec: Errors — unknown, deleted or foreign material 404; not ready, incompatible group 409.

const { gateway, client, agent } = await mockGatewayClient();
const other = testClient({
  apiKey: gateway.account('acct_2').apiKey,
  baseURL: gateway.url,
  dispatcher: agent,
});

const waitFor = (id: string) =>
  client.library.reviewTasks.waitForTask(id, {
    interval: 1,
    onProgress: () => void gateway.clock.advance(2_000),
  });

/** Submits a batch and returns its materials' asset:// references, in order. */
async function submit(marks: string[], wait = true): Promise<Array<string | undefined>> {
  const submitted = await client.library.assets.submit({
    assets: marks.map((mark, i) => ({ url: `https://example.com/p${i}.png${mark}` })),
  });
  const task: ReviewTask | undefined = wait ? await waitFor(submitted.id) : undefined;
  const items = (await client.library.assets.list({ group_id: submitted.group_id!, limit: 100 })).items;
  if (task) expect(task.group_id).toBe(submitted.group_id);
  return items.map((a) => a.asset_url);
}

const v25 = (over: Record<string, unknown>) =>
  ({ model: 'vidmodel-2.5', prompt: 'the person waves', ...over }) as VideoCreateParams;

describe('asset:// references in a video request', () => {
  test('Active materials of the account and of one group are accepted, in every media field', async () => {
    const [a, b] = await submit(['', '']);
    for (const params of [
      v25({ image_urls: [a, b] }),
      v25({ image_with_roles: [{ url: a, role: 'reference_image' }], first_frame_image: b }),
      v25({ images: [a] }),
      { model: 'vidmodel-2.0-mini', prompt: 'x', image_urls: [a] } as VideoCreateParams,
    ]) {
      expect((await client.videos.create(params)).task_id).toMatch(/^cgt-/);
    }
  });

  test.each([
    ['a Pending material', 'pending', ConflictError, 409],
    ['a Failed material', 'failed', ConflictError, 409],
    ['an unknown material', 'unknown', NotFoundError, 404],
    ['another account’s material', 'foreign', NotFoundError, 404],
    ['materials of two groups', 'two groups', ConflictError, 409],
    ['a Pending material given through an alias', 'alias', ConflictError, 409],
  ] as const)('%s is refused before a task or reservation exists', async (_name, kind, cls, status) => {
    const [active] = await submit(['']);
    const [, failed] = await submit(['', '?mock:reject']);
    const [elsewhere] = await submit(['']);
    // Last: the other reviews move the clock, and would finish this one.
    const [pending] = await submit([''], false);
    const entries = gateway.ledger.entries.length;
    const tasks = gateway.tasks.list({ kind: 'video' }).length;
    const request = {
      pending: { sender: client, params: v25({ image_urls: [pending] }) },
      failed: { sender: client, params: v25({ video_urls: [failed] }) },
      unknown: { sender: client, params: v25({ audio_urls: ['asset://asset_unknown'] }) },
      foreign: { sender: other, params: v25({ image_urls: [active] }) },
      'two groups': { sender: client, params: v25({ image_urls: [active, elsewhere] }) },
      alias: { sender: client, params: v25({ input_reference: pending }) },
    }[kind];
    const error = await request.sender.videos.create(request.params).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(cls);
    expect((error as ConflictError).status).toBe(status);
    expect(gateway.ledger.entries).toHaveLength(entries);
    expect(gateway.tasks.list({ kind: 'video' })).toHaveLength(tasks);
  });
});
