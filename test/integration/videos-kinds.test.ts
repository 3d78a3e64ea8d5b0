// Covers: the client against the mock gateway: the video task kinds
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { ReservationHints } from '../../src/schemas/video/reservation-tiers.js';
import type { VideoCreateParams } from '../../src/schemas/video/types.js';
import { USAGE_DELAY_MS } from '../../src/testing/routes/videos-shared.js';
import {
  clip,
  startVideoRig,
  still,
  VIDEO_DONE_MS,
  type VideoRig,
  videoSubmissions,
} from './videos-helpers.js';

let rig: VideoRig;
beforeAll(async () => {
  rig = await startVideoRig();
});
afterAll(() => rig.gateway.close());

interface Kind {
  kind: string;
  params: VideoCreateParams;
  hints?: ReservationHints;
  reserve: [number, string];
  settle: number;
}

// spec: Video — "Task kinds: text-to-video (prompt only); reference generation; first-frame (one
// first_frame, adaptive); first-and-last-frame (adaptive); editing (source video, adaptive,
// duration -1); extension (source video, adaptive)", plus previews and motion control.
const KINDS: Kind[] = [
  {
    kind: 'text-to-video',
    params: { model: 'vidmodel-2.5', prompt: 'a lighthouse at dusk', duration: 5, resolution: '720p' },
    reserve: [5, '720p'],
    settle: 5,
  },
  {
    kind: 'reference',
    params: {
      model: 'vidmodel-2.5',
      prompt: '@图片1 walks like @视频1',
      image_urls: [still('hero')],
      video_urls: [clip('walk', 5.2)],
      omni_reference_task_type: 'reference',
      duration: 5,
    },
    hints: { videoDurations: [5.2] },
    reserve: [11, '720p-input'],
    settle: 11,
  },
  {
    kind: 'first frame',
    params: {
      model: 'vidmodel-2.0-mini',
      prompt: 'the kite rises',
      image_with_roles: [{ url: still('kite'), role: 'first_frame' }],
      aspect_ratio: 'adaptive',
      duration: 6,
      resolution: '480p',
    },
    reserve: [6, '480P'],
    settle: 6,
  },
  {
    kind: 'first-and-last frame',
    params: {
      model: 'vidmodel-2.5',
      prompt: 'the door opens',
      first_frame_image: still('closed'),
      last_frame_image: still('open'),
      aspect_ratio: 'adaptive',
    },
    reserve: [5, '720p'],
    settle: 5,
  },
  {
    kind: 'edit',
    params: {
      model: 'vidmodel-2.5',
      prompt: 'make it snow in @视频1',
      video_urls: [clip('street', 8)],
      omni_reference_task_type: 'edit',
      duration: -1,
    },
    hints: { videoDurations: [8] },
    // -1 reserves 30 s; the mock generates 10 s and settles 10 + 8.
    reserve: [38, '720p-input'],
    settle: 18,
  },
  {
    kind: 'extend',
    params: {
      model: 'vidmodel-2.5',
      prompt: 'continue @视频1 into the night',
      video_urls: [clip('street', 7.5)],
      omni_reference_task_type: 'extend',
      duration: 6,
    },
    hints: { videoDurations: [7.5] },
    reserve: [14, '720p-input'],
    settle: 14,
  },
  {
    kind: 'preview',
    params: { model: 'vidmodel-2.5', prompt: 'a paper boat', draft: true, duration: 4 },
    reserve: [4, '480p'],
    settle: 4,
  },
  {
    kind: 'motion control',
    params: {
      model: 'motion-v3-motion-control',
      image_url: still('dancer'),
      video_url: clip('dance', 7.2),
      character_orientation: 'image',
      mode: 'pro',
    },
    hints: { referenceVideoSeconds: 7.2 },
    reserve: [8, 'pro'],
    settle: 8,
  },
  {
    kind: 'mini with a reference video',
    params: {
      model: 'vidmodel-2.0-mini',
      prompt: 'like @视频1',
      video_urls: [clip('ref', 3.2)],
      duration: 6,
    },
    hints: { videoDurations: [3.2] },
    reserve: [10, '720P-input'],
    settle: 10,
  },
  {
    // spec: Video, "Preview upgrade" — the input aliases, sent as written, are their fields.
    kind: 'reference written with input aliases',
    params: {
      model: 'vidmodel-2.5',
      prompt: '@图片2 and @图片1 walk like @视频1',
      images: [still('hero'), still('friend')],
      video_list: [clip('walk', 4.5)],
      seconds: 6,
    },
    hints: { videoDurations: [4.5] },
    reserve: [11, '720p-input'],
    settle: 11,
  },
  {
    kind: 'vidmodel-2.0-fast (fields pass through)',
    params: { model: 'vidmodel-2.0-fast', prompt: 'a red kite', duration: 8, style: 'watercolour' },
    reserve: [8, 'unpublished'],
    settle: 8,
  },
];

describe('every task kind submits and completes', () => {
  test.each(KINDS)('$kind', async ({ params, hints, reserve, settle }) => {
    const { client, gateway } = rig;
    gateway.resetRequests();
    const submission = await client.videos.create(params);
    expect(submission.task_id).toMatch(/^cgt-/);
    expect(submission.status).toBe('submitted');
    // The SDK sent exactly the caller's fields, to the one submission path, once.
    const sent = videoSubmissions(gateway);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.body).toEqual(params);

    const estimate = client.videos.estimateReservation(params, hints);
    const reservation = gateway.ledger.reservationOf(submission.task_id);
    expect([reservation?.seconds, reservation?.tier]).toEqual(reserve);
    expect([estimate.seconds, estimate.tier]).toEqual(reserve);

    expect((await client.videos.retrieve(submission.task_id)).status).toBe('queued');
    await gateway.clock.advance(VIDEO_DONE_MS);
    const task = await client.videos.retrieve(submission.task_id);
    expect(task).toMatchObject({
      id: submission.task_id,
      object: 'video',
      status: 'completed',
      progress: '100%',
    });
    expect(task.url).toBe(`${gateway.url}/v1/videos/${submission.task_id}/content`);
    expect(task.actual_time).toBe(VIDEO_DONE_MS / 1000);
    expect(task).not.toHaveProperty('last_frame_url');
    expect(task).not.toHaveProperty('error');
    // spec: Video task — `model` is shown for vidmodel-2.5.
    if (params.model === 'vidmodel-2.5') expect(task.model).toBe('vidmodel-2.5');
    else expect(task).not.toHaveProperty('model');

    expect(gateway.ledger.entriesFor(submission.task_id).map((e) => [e.kind, e.seconds, e.tier])).toEqual([
      ['reserve', reserve[0], reserve[1]],
      ['settle', settle, reserve[1]],
    ]);
  });
});

describe('the task in both formats', () => {
  test('queued, running, then succeeded, with usage only after its short absence', async () => {
    const { client, gateway } = rig;
    const params = { model: 'vidmodel-2.5', prompt: 'rain on a window', duration: 5 } as const;
    const { task_id } = await client.videos.create(params);
    const compat0 = await client.videos.retrieveCompat(task_id);
    expect(compat0).toMatchObject({ code: 'success', message: '', data: { task_id, status: 'queued' } });
    expect(compat0.data).toMatchObject({ format: 'mp4', error: null, metadata: null });
    expect(compat0.data).not.toHaveProperty('url');

    await gateway.clock.advance(6_000);
    expect(await client.videos.retrieve(task_id)).toMatchObject({ status: 'in_progress', progress: '50%' });
    expect((await client.videos.retrieveCompat(task_id)).data.status).toBe('processing');

    await gateway.clock.advance(4_000);
    // spec: `usage` "may be absent right after completion".
    const early = await client.videos.retrieve(task_id);
    expect(early.status).toBe('completed');
    expect(early).not.toHaveProperty('usage');
    await gateway.clock.advance(USAGE_DELAY_MS);
    const task = await client.videos.retrieve(task_id);
    expect(task.usage?.completion_tokens).toBeGreaterThan(0);
    const compat = await client.videos.retrieveCompat(task_id);
    expect(compat.data).toMatchObject({
      task_id,
      status: 'succeeded',
      url: `${gateway.url}/v1/videos/${task_id}/content`,
      format: 'mp4',
      error: null,
      metadata: null,
      actual_time: 10,
      usage: { completion_tokens: task.usage?.completion_tokens },
    });
    expect(compat.data).not.toHaveProperty('last_frame_url');
  });

  test('last_frame_url appears only when return_last_frame was true', async () => {
    const { client, gateway } = rig;
    const { task_id } = await client.videos.create({
      model: 'vidmodel-2.0-mini',
      prompt: 'a fox in snow',
      return_last_frame: true,
    });
    await gateway.clock.advance(VIDEO_DONE_MS);
    const task = await client.videos.retrieve(task_id);
    expect(task.last_frame_url).toBe(`${gateway.url}/v1/videos/${task_id}/last-frame`);
    expect((await client.videos.retrieveCompat(task_id)).data.last_frame_url).toBe(task.last_frame_url);
    // Mini carries no usage statistic.
    expect(task).not.toHaveProperty('usage');
  });

  test('a failed task has its error and none of the success-only fields, in both formats', async () => {
    const { client, gateway } = rig;
    const { task_id } = await client.videos.create({
      model: 'vidmodel-2.5',
      prompt: 'mock:fail a storm',
      return_last_frame: true,
    });
    await gateway.clock.advance(VIDEO_DONE_MS + USAGE_DELAY_MS);
    const task = await client.videos.retrieve(task_id);
    expect(task).toMatchObject({
      status: 'failed',
      error: { code: 'task_failed', message: 'mock: generation failed' },
    });
    for (const field of ['url', 'last_frame_url', 'actual_time', 'usage'])
      expect(task).not.toHaveProperty(field);
    const compat = await client.videos.retrieveCompat(task_id);
    expect(compat.data).toMatchObject({ status: 'failed', error: { message: 'mock: generation failed' } });
    for (const field of ['url', 'last_frame_url', 'actual_time', 'usage']) {
      expect(compat.data).not.toHaveProperty(field);
    }
    // spec: Billing — failure refunds the reservation in full.
    expect(gateway.ledger.entriesFor(task_id).map((e) => [e.kind, e.seconds])).toEqual([
      ['reserve', 5],
      ['refund', 5],
    ]);
  });

  test("another account's task is not found, in both formats and for downloads", async () => {
    const { client, other, gateway } = rig;
    const { task_id } = await client.videos.create({ model: 'vidmodel-2.0-mini', prompt: 'a heron' });
    await gateway.clock.advance(VIDEO_DONE_MS);
    for (const call of [
      () => other.videos.retrieve(task_id),
      () => other.videos.retrieveCompat(task_id),
      () => other.videos.downloadContent(task_id),
    ]) {
      await expect(call()).rejects.toMatchObject({ name: 'NotFoundError', status: 404 });
    }
  });
});
