// Covers: src/schemas/video/2-5.ts
import { describe, expect, test } from 'vitest';
import { checkParams } from '../../src/schemas/shared/validate.js';
import { videoRequestSchema } from '../../src/schemas/video/index.js';

const v25 = (over: Record<string, unknown> = {}) => ({
  model: 'vidmodel-2.5',
  prompt: 'a red kite',
  ...over,
});
const urls = (n: number, ext = 'png') =>
  Array.from({ length: n }, (_, i) => `https://example.com/v${i}.${ext}`);
const role = (r: string, i = 0) => ({ url: `https://example.com/r${i}.png`, role: r });
const refs = (n: number) => Array.from({ length: n }, (_, i) => role('reference_image', i));
const video = urls(1, 'mp4');

describe('vidmodel-2.5 ordinary generation refuses', () => {
  test.each([
    ['a missing prompt', { model: 'vidmodel-2.5' }, 'prompt', 'is required'],
    ['an empty prompt', v25({ prompt: '' }), 'prompt', 'must not be empty'],
    ['duration 3', v25({ duration: 3 }), 'duration', 'from 4 to 30, or -1'],
    ['duration 31', v25({ duration: 31 }), 'duration', 'from 4 to 30'],
    ['duration 0', v25({ duration: 0 }), 'duration', 'from 4 to 30'],
    ['duration -2', v25({ duration: -2 }), 'duration', 'or -1 for automatic'],
    ['a fractional duration', v25({ duration: 4.5 }), 'duration', 'must be an integer'],
    ['resolution 4k', v25({ resolution: '4k' }), 'resolution', '480p, 720p or 1080p'],
    ['an unknown aspect_ratio', v25({ aspect_ratio: '2:1' }), 'aspect_ratio', 'must be one of'],
    [
      'ratio differing from aspect_ratio',
      v25({ aspect_ratio: '16:9', ratio: '1:1' }),
      'ratio',
      'must match aspect_ratio',
    ],
    [
      'audio differing from generate_audio',
      v25({ generate_audio: true, audio: false }),
      'audio',
      'must match generate_audio',
    ],
    [
      'first_frame_image with a first_frame role',
      v25({ first_frame_image: 'https://example.com/f.png', image_with_roles: [role('first_frame')] }),
      'first_frame_image',
      'alias of the first_frame role',
    ],
    [
      'last_frame_image with a last_frame role',
      v25({
        last_frame_image: 'https://example.com/l.png',
        image_with_roles: [role('first_frame'), role('last_frame', 1)],
      }),
      'last_frame_image',
      'alias of the last_frame role',
    ],
    [
      'two first_frame roles',
      v25({ image_with_roles: [role('first_frame'), role('first_frame', 1)] }),
      'image_with_roles[1].role',
      'at most once',
    ],
    ['31 image_urls', v25({ image_urls: urls(31) }), 'image_urls', 'at most 30 images'],
    [
      '20 image_urls and 11 roles',
      v25({ image_urls: urls(20), image_with_roles: refs(11) }),
      'image_urls',
      'counting',
    ],
    ['31 roles', v25({ image_with_roles: refs(31) }), 'image_with_roles', 'at most 30 images'],
    [
      '29 image_urls and both frame aliases',
      v25({
        image_urls: urls(29),
        first_frame_image: 'https://example.com/f.png',
        last_frame_image: 'https://example.com/l.png',
      }),
      'image_urls',
      'got 31',
    ],
    ['11 video_urls', v25({ video_urls: urls(11, 'mp4') }), 'video_urls', 'at most 10 videos'],
    ['11 audio_urls', v25({ audio_urls: urls(11, 'mp3') }), 'audio_urls', 'at most 10 audios'],
    ['output_format webm', v25({ output_format: 'webm' }), 'output_format', 'mp4 or mov'],
    [
      'an unknown task type',
      v25({ omni_reference_task_type: 'remix' }),
      'omni_reference_task_type',
      'auto, reference, edit, extend',
    ],
    [
      'an edit without a video',
      v25({ omni_reference_task_type: 'edit' }),
      'video_urls',
      'at least one video_urls entry',
    ],
    [
      'an edit at 16:9',
      v25({ omni_reference_task_type: 'edit', video_urls: video, aspect_ratio: '16:9' }),
      'aspect_ratio',
      "'adaptive' or omitted in an edit task",
    ],
    [
      'an edit with ratio 1:1',
      v25({ omni_reference_task_type: 'edit', video_urls: video, ratio: '1:1' }),
      'ratio',
      'edit task',
    ],
    [
      'an edit of 10 s',
      v25({ omni_reference_task_type: 'edit', video_urls: video, duration: 10 }),
      'duration',
      'only duration -1',
    ],
    ['an extend without a video', v25({ omni_reference_task_type: 'extend' }), 'video_urls', 'extend task'],
    [
      'an extend at 9:16',
      v25({ omni_reference_task_type: 'extend', video_urls: video, aspect_ratio: '9:16' }),
      'aspect_ratio',
      'extend task',
    ],
    [
      'a first-frame task at 16:9',
      v25({ image_with_roles: [role('first_frame')], aspect_ratio: '16:9' }),
      'aspect_ratio',
      'first/last-frame task',
    ],
    [
      'a frame alias with ratio 4:3',
      v25({ first_frame_image: 'https://example.com/f.png', ratio: '4:3' }),
      'ratio',
      'first/last-frame task',
    ],
    ['a fractional seed', v25({ seed: 1.2 }), 'seed', 'must be an integer'],
    ['a string seed', v25({ seed: '0' }), 'seed', '0 is a valid seed'],
    ['camerafixed "true"', v25({ camerafixed: 'true' }), 'camerafixed', 'JSON boolean'],
    ['draft "true"', v25({ draft: 'true' }), 'draft', 'JSON boolean'],
    ['watermark "false"', v25({ watermark: 'false' }), 'watermark', 'JSON boolean'],
    ['a numeric generation_type', v25({ generation_type: 5 }), 'generation_type', 'must be a string'],
    ['a numeric service_tier', v25({ service_tier: 1 }), 'service_tier', 'must be a string'],
    ['a numeric negative_prompt', v25({ negative_prompt: 1 }), 'negative_prompt', 'must be a string'],
    [
      'a data URL first frame',
      v25({ first_frame_image: 'data:image/png;base64,AAAA' }),
      'first_frame_image',
      'uploads.image',
    ],
    // spec: Video, "Preview upgrade" — the input aliases stand for their fields in every rule.
    ['seconds 99', v25({ seconds: 99 }), 'seconds', 'from 4 to 30'],
    ['seconds differing from duration', v25({ duration: 5, seconds: 6 }), 'seconds', 'must match duration'],
    ['35 images', v25({ images: urls(35) }), 'images', 'at most 30 images'],
    ['20 images and 11 roles', v25({ images: urls(20), image_with_roles: refs(11) }), 'images', 'counting'],
    [
      'images differing from image_urls',
      v25({ image_urls: urls(1), images: urls(2) }),
      'images',
      'must match',
    ],
    [
      'image differing from image_urls',
      v25({ image_urls: urls(1), image: 'https://example.com/other.png' }),
      'image',
      'must match image_urls',
    ],
    [
      'input_reference differing from image',
      v25({ image: 'https://example.com/a.png', input_reference: 'https://example.com/b.png' }),
      'input_reference',
      'must match image',
    ],
    ['11 entries in video_list', v25({ video_list: urls(11, 'mp4') }), 'video_list', 'at most 10 videos'],
    [
      'video_list differing from video_urls',
      v25({ video_urls: video, video_list: urls(2, 'mp4') }),
      'video_list',
      'must match video_urls',
    ],
    [
      'a data URL input_reference',
      v25({ input_reference: 'data:image/png;base64,AAAA' }),
      'input_reference',
      'uploads.image',
    ],
    ['@图片3 with two images', v25({ prompt: '@图片3', images: urls(2) }), 'prompt', 'image 3'],
    ['@视频2 with one video_list entry', v25({ prompt: '@视频2', video_list: video }), 'prompt', 'video 2'],
    [
      'an edit of 10 seconds',
      v25({ omni_reference_task_type: 'edit', video_list: video, seconds: 10 }),
      'seconds',
      'only duration -1',
    ],
    [
      'an edit from video_list at 16:9',
      v25({ omni_reference_task_type: 'edit', video_list: video, aspect_ratio: '16:9' }),
      'aspect_ratio',
      'edit task',
    ],
    [
      'a frame task with an image alias at 16:9',
      v25({ image_with_roles: [role('first_frame')], images: urls(1), aspect_ratio: '16:9' }),
      'aspect_ratio',
      'first/last-frame task',
    ],
    [
      'a web_search tool with extra keys',
      v25({ tools: [{ type: 'web_search', q: 1 }] }),
      'tools[0]',
      'unexpected: q',
    ],
  ])('%s', (_name, params, path, fragment) => {
    expect(checkParams(videoRequestSchema, params)).toEqual([
      { path, message: expect.stringContaining(fragment) },
    ]);
  });
});

describe('vidmodel-2.5 ordinary generation accepts the valid neighbours', () => {
  test.each([
    ['text-to-video', v25()],
    ['duration 4', v25({ duration: 4 })],
    ['duration 30', v25({ duration: 30 })],
    ['duration -1', v25({ duration: -1 })],
    ['resolution 480p', v25({ resolution: '480p' })],
    ['resolution 720p', v25({ resolution: '720p' })],
    ['resolution 1080p', v25({ resolution: '1080p' })],
    ['ratio equal to aspect_ratio', v25({ aspect_ratio: '16:9', ratio: '16:9' })],
    ['audio equal to generate_audio', v25({ generate_audio: false, audio: false })],
    [
      'first_frame_image with a reference role',
      v25({ first_frame_image: 'https://example.com/f.png', image_with_roles: refs(1) }),
    ],
    ['both frame aliases', v25({ first_frame_image: 'asset://a1', last_frame_image: 'asset://a2' })],
    ['first and last frame roles', v25({ image_with_roles: [role('first_frame'), role('last_frame', 1)] })],
    ['a last_frame role alone', v25({ image_with_roles: [role('last_frame')] })],
    ['30 image_urls', v25({ image_urls: urls(30) })],
    ['20 image_urls and 10 roles', v25({ image_urls: urls(20), image_with_roles: refs(10) })],
    [
      '28 image_urls and both frame aliases',
      v25({ image_urls: urls(28), first_frame_image: 'asset://a1', last_frame_image: 'asset://a2' }),
    ],
    ['10 video_urls', v25({ video_urls: urls(10, 'mp4') })],
    ['10 audio_urls, audio only', v25({ audio_urls: urls(10, 'mp3') })],
    ['output_format mov', v25({ output_format: 'mov' })],
    ['an edit with a video', v25({ omni_reference_task_type: 'edit', video_urls: video })],
    [
      'an edit, adaptive, -1',
      v25({ omni_reference_task_type: 'edit', video_urls: video, aspect_ratio: 'adaptive', duration: -1 }),
    ],
    [
      'an extend with a video and 10 s',
      v25({ omni_reference_task_type: 'extend', video_urls: video, duration: 10 }),
    ],
    [
      'a reference task at 16:9 and 10 s',
      v25({ omni_reference_task_type: 'reference', aspect_ratio: '16:9', duration: 10 }),
    ],
    ['a first-frame task with ratio omitted', v25({ image_with_roles: [role('first_frame')] })],
    [
      'a first-frame task, adaptive',
      v25({ image_with_roles: [role('first_frame')], aspect_ratio: 'adaptive' }),
    ],
    [
      'frames with video and audio references',
      v25({ image_with_roles: [role('first_frame')], video_urls: video, audio_urls: urls(1, 'mp3') }),
    ],
    [
      'frames with a video reference at 16:9',
      v25({ image_with_roles: [role('first_frame')], video_urls: video, aspect_ratio: '16:9' }),
    ],
    [
      'a frame alias with an audio reference at 4:3',
      v25({ first_frame_image: 'https://example.com/f.png', audio_urls: urls(1, 'mp3'), ratio: '4:3' }),
    ],
    [
      'frames with a video_list reference at 9:16',
      v25({ image_with_roles: [role('first_frame')], video_list: video, aspect_ratio: '9:16' }),
    ],
    ['seconds 30', v25({ seconds: 30 })],
    ['seconds -1', v25({ seconds: -1 })],
    ['seconds equal to duration', v25({ duration: 8, seconds: 8 })],
    ['30 images', v25({ images: urls(30) })],
    ['30 images equal to image_urls, counted once', v25({ image_urls: urls(30), images: urls(30) })],
    [
      'image and input_reference equal to a one-entry image_urls',
      v25({ image_urls: urls(1), image: urls(1)[0], input_reference: urls(1)[0] }),
    ],
    [
      'input_reference at 16:9 (a reference image, not a frame)',
      v25({ input_reference: urls(1)[0], aspect_ratio: '16:9' }),
    ],
    ['10 entries in video_list', v25({ video_list: urls(10, 'mp4') })],
    ['video_list equal to video_urls', v25({ video_urls: video, video_list: video })],
    [
      'prompt references through aliases',
      v25({ prompt: '@图片2 after @图片1 like @视频1', images: urls(2), video_list: video }),
    ],
    ['@图片1 from image', v25({ prompt: '@图片1', image: urls(1)[0] })],
    ['@图片1 from input_reference', v25({ prompt: '@图片1', input_reference: urls(1)[0] })],
    [
      'an edit from video_list, seconds -1',
      v25({ omni_reference_task_type: 'edit', video_list: video, seconds: -1 }),
    ],
    ['an extend from video_list', v25({ omni_reference_task_type: 'extend', video_list: video })],
    ['seed 0', v25({ seed: 0 })],
    [
      'ordinary-only fields',
      v25({ generation_type: 'standard', camerafixed: true, service_tier: 'default' }),
    ],
    ['draft: false', v25({ draft: false })],
    [
      'negative_prompt, nsfw_check, watermark',
      v25({ negative_prompt: 'blur', nsfw_check: true, watermark: false }),
    ],
    ['web search', v25({ tools: [{ type: 'web_search' }] })],
    ['an unknown field (passes through)', v25({ metadata: { k: 'v' } })],
  ])('%s', (_name, params) => {
    expect(checkParams(videoRequestSchema, params)).toEqual([]);
  });
});
