// Covers: the client against the mock gateway: video downloads
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { AuthenticationError, MediaExpiredError, NotFoundError } from '../../src/core/errors.js';
import { mp4Video } from '../../src/testing/state/media.js';
import { MEDIA_EXPIRED_MESSAGE } from '../../src/testing/state/media-origin.js';
import { testClient } from '../helpers/client.js';
import { rejection } from '../helpers/rejection.js';
import { startVideoRig, VIDEO_DONE_MS, type VideoRig } from './videos-helpers.js';

let rig: VideoRig;
let dir: string;
beforeAll(async () => {
  rig = await startVideoRig();
  dir = await mkdtemp(join(tmpdir(), 'mediagw-videos-'));
});
afterAll(async () => {
  await rig.gateway.close();
  await rm(dir, { recursive: true, force: true });
});

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

async function finishedTask(params: Record<string, unknown> = {}): Promise<string> {
  const { task_id } = await rig.client.videos.create({
    model: 'vidmodel-2.5',
    prompt: 'a lantern festival',
    ...params,
  });
  await rig.gateway.clock.advance(VIDEO_DONE_MS);
  return task_id;
}

describe('downloadContent', () => {
  test('saves the video through the redirect; the key never reaches the media origin', async () => {
    const { client, gateway } = rig;
    const taskId = await finishedTask();
    gateway.resetRequests();
    const download = await client.videos.downloadContent(taskId);
    expect(download.contentType).toBe('video/mp4');
    const progress: number[] = [];
    const target = join(dir, 'video.mp4');
    const saved = await download.saveTo(target, { onProgress: (p) => progress.push(p.bytes) });
    const expected = mp4Video();
    expect(saved).toEqual({ path: target, bytes: expected.length });
    expect(await readFile(target)).toEqual(expected);
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.at(-1)).toBe(expected.length);

    const [api, media] = gateway.requests;
    expect([api?.origin, api?.path, api?.status]).toEqual(['api', `/v1/videos/${taskId}/content`, 302]);
    expect(api?.headers.authorization).toMatch(/^Bearer /);
    expect(media?.origin).toBe('media');
    expect(media?.status).toBe(200);
    expect(media?.headers).not.toHaveProperty('authorization');
  });

  test('a .mov request is served as QuickTime', async () => {
    const taskId = await finishedTask({ output_format: 'mov' });
    const download = await rig.client.videos.downloadContent(taskId);
    expect(download.contentType).toBe('video/quicktime');
    expect((await rig.client.videos.retrieveCompat(taskId)).data.format).toBe('mov');
    await download.arrayBuffer();
  });

  test('expired media is MediaExpiredError (410) with the gateway message', async () => {
    const { client, gateway } = rig;
    const taskId = await finishedTask();
    expect(gateway.media.expire(taskId)).toBe(1);
    const error = await rejection(client.videos.downloadContent(taskId));
    expect(error).toBeInstanceOf(MediaExpiredError);
    expect(error.status).toBe(410);
    expect(error.message).toContain(MEDIA_EXPIRED_MESSAGE);
  });

  test('a task that is not finished, or failed, has no content (404)', async () => {
    const { client, gateway } = rig;
    const { task_id: running } = await client.videos.create({ model: 'vidmodel-2.5', prompt: 'a lantern' });
    await expect(client.videos.downloadContent(running)).rejects.toBeInstanceOf(NotFoundError);
    const failed = await finishedTask({ prompt: 'mock:fail a lantern' });
    await expect(client.videos.downloadContent(failed)).rejects.toBeInstanceOf(NotFoundError);
    expect(gateway.media.forTask(failed)).toEqual([]);
  });

  test('without a valid key the download is refused (401)', async () => {
    const taskId = await finishedTask();
    const stranger = testClient({ apiKey: 'mgw_test_wrong', baseURL: rig.gateway.url });
    await expect(stranger.videos.downloadContent(taskId)).rejects.toBeInstanceOf(AuthenticationError);
  });

  test('a transfer that breaks off leaves no file behind', async () => {
    const { client, gateway } = rig;
    const taskId = await finishedTask();
    gateway.inject({ match: { origin: 'media' }, fault: { truncate: true } });
    const sub = await mkdtemp(join(dir, 'broken-'));
    const download = await client.videos.downloadContent(taskId);
    await expect(download.saveTo(join(sub, 'video.mp4'))).rejects.toThrow();
    expect(await readdir(sub)).toEqual([]);
  });
});

describe('downloadLastFrame', () => {
  test('streams the PNG when return_last_frame was true', async () => {
    const taskId = await finishedTask({ return_last_frame: true });
    const frame = await rig.client.videos.downloadLastFrame(taskId);
    expect(frame.contentType).toBe('image/png');
    const target = join(dir, 'last-frame.png');
    await frame.saveTo(target);
    expect((await readFile(target)).subarray(0, 8)).toEqual(PNG_SIGNATURE);
  });

  test('is NotFoundError when the last frame was not requested, or the task failed', async () => {
    const plain = await finishedTask();
    const error = await rejection(rig.client.videos.downloadLastFrame(plain));
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.message).toContain('return_last_frame');
    const failed = await finishedTask({ prompt: 'mock:fail', return_last_frame: true });
    await expect(rig.client.videos.downloadLastFrame(failed)).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe('a large result', () => {
  test('is saved as a stream: memory grows far less than the body', async () => {
    const size = 200 * 1024 * 1024;
    const large = await startVideoRig({ largeMediaBytes: size, redirectContent: false });
    try {
      const { task_id } = await large.client.videos.create({
        model: 'vidmodel-2.0-mini',
        prompt: 'a long river',
      });
      await large.gateway.clock.advance(VIDEO_DONE_MS);
      const download = await large.client.videos.downloadContent(task_id);
      expect(download.contentLength).toBe(size);
      const target = join(dir, 'large.mp4');
      const before = process.memoryUsage().rss;
      let peak = before;
      const saved = await download.saveTo(target, {
        onProgress: () => {
          peak = Math.max(peak, process.memoryUsage().rss);
        },
      });
      expect(saved.bytes).toBe(size);
      expect((await stat(target)).size).toBe(size);
      // Coarse: a buffered body would add at least 200 MB.
      expect(peak - before).toBeLessThan(100 * 1024 * 1024);
      await rm(target);
    } finally {
      await large.gateway.close();
    }
  });
});
