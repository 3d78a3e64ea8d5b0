// Covers: src/schemas/video/mini.ts
import { describe, expect, test } from 'vitest';
import { checkParams } from '../../src/schemas/shared/validate.js';
import { videoRequestSchema } from '../../src/schemas/video/index.js';

const mini = (over: Record<string, unknown> = {}) => ({
  model: 'vidmodel-2.0-mini',
  prompt: 'a red kite',
  ...over,
});
const urls = (n: number, ext = 'png') =>
  Array.from({ length: n }, (_, i) => `https://example.com/m${i}.${ext}`);
const role = (r: string, i = 0) => ({ url: `https://example.com/r${i}.png`, role: r });
const frameTask = (over: Record<string, unknown> = {}) =>
  mini({ aspect_ratio: 'adaptive', image_with_roles: [role('first_frame')], ...over });

describe('vidmodel-2.0-mini refuses', () => {
  test.each([
    ['a missing prompt', { model: 'vidmodel-2.0-mini' }, 'prompt', 'is required'],
    ['an empty prompt', mini({ prompt: '' }), 'prompt', 'must not be empty'],
    ['a blank prompt', mini({ prompt: '   ' }), 'prompt', 'must not be empty'],
    ['duration 3', mini({ duration: 3 }), 'duration', 'from 4 to 15'],
    ['duration 16', mini({ duration: 16 }), 'duration', 'from 4 to 15'],
    ['duration -1', mini({ duration: -1 }), 'duration', '-1 is not supported'],
    ['a fractional duration', mini({ duration: 5.5 }), 'duration', 'must be an integer'],
    ['a string duration', mini({ duration: '5' }), 'duration', 'must be an integer'],
    ['resolution 1080p', mini({ resolution: '1080p' }), 'resolution', '480p or 720p'],
    ['an unknown aspect_ratio', mini({ aspect_ratio: '2:1' }), 'aspect_ratio', 'must be one of 16:9'],
    ['an unknown ratio', mini({ ratio: '5:4' }), 'ratio', 'must be one of'],
    ['an unknown size', mini({ size: '1280x720' }), 'size', 'must be one of'],
    [
      'ratio differing from aspect_ratio',
      mini({ aspect_ratio: '16:9', ratio: '9:16' }),
      'ratio',
      'must match aspect_ratio',
    ],
    [
      'size differing from aspect_ratio',
      mini({ aspect_ratio: '1:1', size: '4:3' }),
      'size',
      'must match aspect_ratio',
    ],
    ['size differing from ratio', mini({ ratio: '1:1', size: '4:3' }), 'size', 'must match ratio'],
    ['10 image_urls', mini({ image_urls: urls(10) }), 'image_urls', 'at most 9 images'],
    [
      '10 image_with_roles',
      mini({ image_with_roles: Array.from({ length: 10 }, (_, i) => role('reference_image', i)) }),
      'image_with_roles',
      'at most 9 images',
    ],
    [
      'image_urls with image_with_roles',
      mini({ image_urls: urls(1), image_with_roles: [role('reference_image')] }),
      'image_with_roles',
      'must not be combined with image_urls',
    ],
    [
      'two first_frame roles',
      frameTask({ image_with_roles: [role('first_frame'), role('first_frame', 1)] }),
      'image_with_roles[1].role',
      'first_frame may appear at most once',
    ],
    [
      'two last_frame roles',
      frameTask({ image_with_roles: [role('first_frame'), role('last_frame', 1), role('last_frame', 2)] }),
      'image_with_roles[2].role',
      'last_frame may appear at most once',
    ],
    [
      'a last_frame without a first_frame',
      frameTask({ image_with_roles: [role('last_frame')] }),
      'image_with_roles[0].role',
      'needs a first_frame',
    ],
    [
      'an unknown role',
      mini({ image_with_roles: [role('middle')] }),
      'image_with_roles[0].role',
      'must be one of',
    ],
    [
      'a frame task without aspect_ratio',
      frameTask({ aspect_ratio: undefined }),
      'aspect_ratio',
      "aspect_ratio: 'adaptive'",
    ],
    ['a frame task at 16:9', frameTask({ aspect_ratio: '16:9' }), 'aspect_ratio', "must be 'adaptive'"],
    [
      'a frame task with ratio 1:1',
      frameTask({ aspect_ratio: undefined, ratio: '1:1' }),
      'ratio',
      "must be 'adaptive'",
    ],
    [
      'a frame task with video_urls',
      frameTask({ video_urls: urls(1, 'mp4') }),
      'video_urls',
      'first/last-frame',
    ],
    [
      'a frame task with audio_urls',
      frameTask({ audio_urls: urls(1, 'mp3') }),
      'audio_urls',
      'first/last-frame',
    ],
    ['4 video_urls', mini({ video_urls: urls(4, 'mp4') }), 'video_urls', 'at most 3 videos'],
    [
      '4 audio_urls',
      mini({ image_urls: urls(1), audio_urls: urls(4, 'mp3') }),
      'audio_urls',
      'at most 3 audios',
    ],
    [
      'audio without image or video',
      mini({ audio_urls: urls(1, 'mp3') }),
      'audio_urls',
      'image or video reference',
    ],
    ['draft: false', mini({ draft: false }), 'draft', 'must not be sent'],
    ['draft: true', mini({ draft: true }), 'draft', 'must not be sent'],
    ['draft_task_id: null', mini({ draft_task_id: null }), 'draft_task_id', 'must not be sent'],
    ['draft_task_id', mini({ draft_task_id: 'task_1' }), 'draft_task_id', 'only for vidmodel-2.5'],
    ['a fractional seed', mini({ seed: 1.5 }), 'seed', 'must be an integer'],
    ['a string seed', mini({ seed: '7' }), 'seed', 'must be an integer'],
    ['a tool of another type', mini({ tools: [{ type: 'code' }] }), 'tools[0].type', "must be 'web_search'"],
    [
      'a tool with extra keys',
      mini({ tools: [{ type: 'web_search', depth: 2 }] }),
      'tools[0]',
      'unexpected: depth',
    ],
    ['tools not an array', mini({ tools: { type: 'web_search' } }), 'tools', 'must be an array'],
    ['an ftp image URL', mini({ image_urls: ['ftp://example.com/a.png'] }), 'image_urls[0]', 'http(s)://'],
    ['generate_audio "false"', mini({ generate_audio: 'false' }), 'generate_audio', 'JSON boolean'],
    ['return_last_frame "true"', mini({ return_last_frame: 'true' }), 'return_last_frame', 'JSON boolean'],
    ['nsfw_check 1', mini({ nsfw_check: 1 }), 'nsfw_check', 'JSON boolean'],
  ])('%s', (_name, params, path, fragment) => {
    expect(checkParams(videoRequestSchema, params)).toEqual([
      { path, message: expect.stringContaining(fragment) },
    ]);
  });
});

describe('vidmodel-2.0-mini accepts the valid neighbours', () => {
  test.each([
    ['a prompt only', mini()],
    ['duration 4', mini({ duration: 4 })],
    ['duration 15', mini({ duration: 15 })],
    ['resolution 480p', mini({ resolution: '480p' })],
    ['resolution 720p', mini({ resolution: '720p' })],
    ['each ratio', mini({ aspect_ratio: '21:9', ratio: '21:9', size: '21:9' })],
    ['ratio and size agreeing without aspect_ratio', mini({ ratio: '3:4', size: '3:4' })],
    ['9 image_urls', mini({ image_urls: urls(9) })],
    [
      '9 image_with_roles',
      mini({ image_with_roles: Array.from({ length: 9 }, (_, i) => role('reference_image', i)) }),
    ],
    [
      'first and last frame, adaptive',
      frameTask({ image_with_roles: [role('first_frame'), role('last_frame', 1)] }),
    ],
    ['a frame task with ratio adaptive', frameTask({ aspect_ratio: undefined, ratio: 'adaptive' })],
    [
      'reference images with video and audio',
      mini({
        image_with_roles: [role('reference_image')],
        video_urls: urls(1, 'mp4'),
        audio_urls: urls(1, 'mp3'),
      }),
    ],
    ['3 video_urls', mini({ video_urls: urls(3, 'mp4') })],
    ['3 audio_urls with an image', mini({ image_urls: urls(1), audio_urls: urls(3, 'mp3') })],
    ['audio with a video', mini({ video_urls: urls(1, 'mp4'), audio_urls: urls(1, 'mp3') })],
    ['seed 0', mini({ seed: 0 })],
    ['seed 42', mini({ seed: 42 })],
    ['web search', mini({ tools: [{ type: 'web_search' }] })],
    ['an asset:// image', mini({ image_urls: ['asset://asset_123'] })],
    ['JSON booleans', mini({ generate_audio: false, return_last_frame: true, nsfw_check: false })],
    ['an unknown field (passes through)', mini({ extra_option: 'x' })],
  ])('%s', (_name, params) => {
    expect(checkParams(videoRequestSchema, params)).toEqual([]);
  });
});
