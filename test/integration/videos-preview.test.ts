// Covers: the client against the mock gateway: video previews
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BadRequestError } from '../../src/core/errors.js';
import { PREVIEW_VALIDITY_MS } from '../../src/testing/routes/videos-shared.js';
import { rejection } from '../helpers/rejection.js';
import { clip, startVideoRig, VIDEO_DONE_MS, type VideoRig } from './videos-helpers.js';

let rig: VideoRig;
beforeAll(async () => {
  rig = await startVideoRig();
});
afterAll(() => rig.gateway.close());

const DAY = 24 * 60 * 60 * 1000;

async function succeededPreview(params: Record<string, unknown> = {}): Promise<string> {
  const { task_id } = await rig.client.videos.create({
    model: 'vidmodel-2.5',
    prompt: 'a paper boat on a pond',
    draft: true,
    duration: 6,
    ...params,
  });
  await rig.gateway.clock.advance(VIDEO_DONE_MS);
  return task_id;
}

async function expectRefused(draftTaskId: string, message: RegExp) {
  const { client, gateway } = rig;
  const entries = gateway.ledger.entries.length;
  const tasks = gateway.tasks.list().length;
  const error = await rejection(client.videos.create({ model: 'vidmodel-2.5', draft_task_id: draftTaskId }));
  expect(error).toBeInstanceOf(BadRequestError);
  expect(error.status).toBe(400);
  expect(error.message).toMatch(message);
  // spec: States — Preview and upgrade: "rejected with HTTP 400 — No task, no reservation".
  expect(gateway.ledger.entries).toHaveLength(entries);
  expect(gateway.tasks.list()).toHaveLength(tasks);
}

describe('preview and upgrade (vidmodel-2.5)', () => {
  test('a preview renders at 480p; each upgrade is a new 1080p task and a separate charge', async () => {
    const { client, gateway } = rig;
    const preview = await succeededPreview();
    expect(gateway.ledger.entriesFor(preview).map((e) => [e.kind, e.seconds, e.tier])).toEqual([
      ['reserve', 6, '480p'],
      ['settle', 6, '480p'],
    ]);

    const upgrade = { model: 'vidmodel-2.5', draft_task_id: preview, return_last_frame: true } as const;
    const first = await client.videos.create(upgrade);
    const second = await client.videos.create({ model: 'vidmodel-2.5', draft_task_id: preview });
    expect(new Set([preview, first.task_id, second.task_id]).size).toBe(3);

    const estimate = client.videos.estimateReservation(upgrade, { previewDuration: 6 });
    expect([estimate.seconds, estimate.tier]).toEqual([6, '1080p']);
    for (const id of [first.task_id, second.task_id]) {
      const reservation = gateway.ledger.reservationOf(id);
      expect([reservation?.seconds, reservation?.tier]).toEqual([estimate.seconds, estimate.tier]);
    }

    await gateway.clock.advance(VIDEO_DONE_MS);
    const upgraded = await client.videos.retrieve(first.task_id);
    expect(upgraded).toMatchObject({ status: 'completed', model: 'vidmodel-2.5' });
    expect(upgraded.last_frame_url).toBeDefined();
    expect(await client.videos.retrieve(second.task_id)).not.toHaveProperty('last_frame_url');
    for (const id of [first.task_id, second.task_id]) {
      expect(gateway.ledger.entriesFor(id).map((e) => [e.kind, e.seconds, e.tier])).toEqual([
        ['reserve', 6, '1080p'],
        ['settle', 6, '1080p'],
      ]);
    }
    // The preview itself was charged once, whatever the number of upgrades.
    expect(gateway.ledger.entriesFor(preview)).toHaveLength(2);
  });

  test("an upgrade excludes the preview's reference video and inherits -1 as 30 s", async () => {
    const { client, gateway } = rig;
    const preview = await succeededPreview({
      duration: -1,
      prompt: 'like @视频1',
      video_urls: [clip('ref', 4)],
    });
    // Preview: 30 s (-1) plus 4 s of reference video, capped at 30 s combined, input tier.
    expect(gateway.ledger.reservationOf(preview)).toMatchObject({ seconds: 30, tier: '480p-input' });
    const { task_id } = await client.videos.create({ model: 'vidmodel-2.5', draft_task_id: preview });
    expect(gateway.ledger.reservationOf(task_id)).toMatchObject({ seconds: 30, tier: '1080p' });
    expect(
      client.videos.estimateReservation(
        { model: 'vidmodel-2.5', draft_task_id: preview },
        { previewDuration: -1 },
      ),
    ).toMatchObject({ seconds: 30, tier: '1080p' });
  });

  test('a preview can be upgraded just under 7 days after submission, not at 7 days', async () => {
    const { client, gateway } = rig;
    const preview = await succeededPreview();
    await gateway.clock.advance(PREVIEW_VALIDITY_MS - VIDEO_DONE_MS - 1);
    await expect(
      client.videos.create({ model: 'vidmodel-2.5', draft_task_id: preview }),
    ).resolves.toMatchObject({
      status: 'submitted',
    });
    await gateway.clock.advance(1);
    await expectRefused(preview, /older than 7 days/);
    await gateway.clock.advance(DAY);
    await expectRefused(preview, /older than 7 days/);
  });

  test('a preview that failed or has not finished is refused', async () => {
    const { client, gateway } = rig;
    const failed = await succeededPreview({ prompt: 'mock:fail a boat' });
    await expectRefused(failed, /has not succeeded \(status failed\)/);
    const { task_id: running } = await client.videos.create({
      model: 'vidmodel-2.5',
      prompt: 'a boat',
      draft: true,
    });
    await gateway.clock.advance(3_000);
    await expectRefused(running, /has not succeeded \(status in_progress\)/);
  });

  test("an ordinary task, an unknown ID and another account's preview are refused alike", async () => {
    const { client, other, gateway } = rig;
    const { task_id: ordinary } = await client.videos.create({ model: 'vidmodel-2.5', prompt: 'a boat' });
    await gateway.clock.advance(VIDEO_DONE_MS);
    await expectRefused(ordinary, /is not a vidmodel-2.5 preview/);
    await expectRefused('cgt-unknown', /is not a vidmodel-2.5 preview/);

    const { task_id: foreign } = await other.videos.create({
      model: 'vidmodel-2.5',
      prompt: 'a boat',
      draft: true,
    });
    await gateway.clock.advance(VIDEO_DONE_MS);
    await expectRefused(foreign, /is not a vidmodel-2.5 preview/);
    // Its own account can upgrade it.
    await expect(
      other.videos.create({ model: 'vidmodel-2.5', draft_task_id: foreign }),
    ).resolves.toBeTruthy();
  });
});
