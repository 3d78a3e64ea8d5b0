// Covers: the client against the mock gateway: video media inputs
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BadRequestError } from '../../src/core/errors.js';
import type { VideoCreateParams } from '../../src/schemas/video/types.js';
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

// spec: Video — mini: video_urls "total billable input duration at most 15 seconds" (billing
// rounds each input up to whole seconds), audio_urls "total at most 15 seconds"; vidmodel-2.5:
// videos and audio "total at most 30 seconds".
describe('the mock sums reference lengths as the spec counts them', () => {
  const mini = (over: Record<string, unknown>) =>
    ({
      model: 'vidmodel-2.0-mini',
      prompt: 'x',
      image_urls: ['https://media.example.com/a.png'],
      ...over,
    }) as VideoCreateParams;

  test.each([
    ['mini audio of 7.4 s + 7.4 s (14.8 s)', mini({ audio_urls: [audio(7.4), audio(7.4)] })],
    ['mini audio of 7.5 s + 7.5 s (15 s)', mini({ audio_urls: [audio(7.5), audio(7.5)] })],
    ['mini videos of 7 s + 8 s (15 billable s)', mini({ video_urls: [clip('a', 7), clip('b', 8)] })],
    ['2.5 audio of 4 x 7.3 s (29.2 s)', v25({ audio_urls: [1, 2, 3, 4].map(() => audio(7.3)) })],
    ['2.5 videos of 4 x 7.3 s (29.2 s)', v25({ video_urls: ['a', 'b', 'c', 'd'].map((n) => clip(n, 7.3)) })],
  ])('accepts %s', async (_name, params) => {
    expect((await rig.client.videos.create(params)).task_id).toMatch(/^cgt-/);
  });

  test.each([
    [
      'mini audio of 7.5 s + 7.6 s (15.1 s)',
      mini({ audio_urls: [audio(7.5), audio(7.6)] }),
      /audio_urls: at most 15 s in total/,
    ],
    [
      'mini videos of 7.4 s + 7.4 s (16 billable s)',
      mini({ video_urls: [clip('a', 7.4), clip('b', 7.4)] }),
      /video_urls: at most 15 s in total .*detected 16 s/,
    ],
    [
      '2.5 audio of 3 x 10.1 s (30.3 s)',
      v25({ audio_urls: [1, 2, 3].map(() => audio(10.1)) }),
      /audio_urls: at most 30 s in total/,
    ],
    [
      '2.5 videos of 3 x 10.1 s (30.3 s)',
      v25({ video_urls: ['a', 'b', 'c'].map((n) => clip(n, 10.1)) }),
      /video_urls: at most 30 s in total/,
    ],
  ])('refuses %s with 400 and no task', async (_name, params, message) => {
    const entries = rig.gateway.ledger.entries.length;
    const error = await rig.client.videos.create(params).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as BadRequestError).message).toMatch(message);
    expect(rig.gateway.ledger.entries).toHaveLength(entries);
  });
});
