import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BadRequestError } from '../../src/core/errors.js';
import type { VideoCreateParams } from '../../src/schemas/video-types.js';
import { clip, startVideoRig, type VideoRig } from './videos-helpers.js';

let rig: VideoRig;
beforeAll(async () => {
  rig = await startVideoRig();
});
afterAll(() => rig.gateway.close());

const audio = (seconds: number) => `https://media.example.com/voice.mp3?mock_seconds=${seconds}`;
const v25 = (over: Record<string, unknown>) =>
  ({ model: 'vidmodel-2.5', prompt: 'a walk', duration: 5, ...over }) as VideoCreateParams;

// spec: Video — vidmodel-2.5 reference media: "videos 2-30 s each", "audio 2-30 s each". The SDK
// cannot read a remote file's length; the mock "detects" it from `mock_seconds`.
describe('the mock holds vidmodel-2.5 reference media to 2 s at least, each', () => {
  test.each([
    [
      'a 1.5 s video',
      v25({ video_urls: [clip('a', 1.5)] }),
      /video_urls\[0\]: each reference must be 2-30 s/,
    ],
    ['a 1.9 s audio', v25({ audio_urls: [audio(1.9)] }), /audio_urls\[0\]: each reference must be 2-30 s/],
    [
      'a 1 s video second in video_list',
      v25({ video_list: [clip('a', 4), clip('b', 1)] }),
      /video_urls\[1\]: each reference must be 2-30 s/,
    ],
  ])('refuses %s with 400 and no task', async (_name, params, message) => {
    const entries = rig.gateway.ledger.entries.length;
    const error = await rig.client.videos.create(params).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as BadRequestError).body).toMatchObject({ code: 'invalid_request', data: null });
    expect((error as BadRequestError).message).toMatch(message);
    expect(rig.gateway.ledger.entries).toHaveLength(entries);
  });

  test.each([
    ['a 2 s video', v25({ video_urls: [clip('a', 2)] })],
    ['a 2 s audio', v25({ audio_urls: [audio(2)] })],
    ['a video of unknown length', v25({ video_urls: [clip('a')] })],
    [
      'a 1.5 s video to vidmodel-2.0-mini (no per-file minimum)',
      { model: 'vidmodel-2.0-mini', prompt: 'x', video_urls: [clip('a', 1.5)] } as VideoCreateParams,
    ],
  ])('accepts %s', async (_name, params) => {
    expect((await rig.client.videos.create(params)).task_id).toMatch(/^cgt-/);
  });
});
