// Covers: src/schemas/video/index.ts
import { describe, expect, test } from 'vitest';
import { checkParams } from '../../src/schemas/shared/validate.js';
import { videoRequestSchema } from '../../src/schemas/video/index.js';

const notifications = { webhook: { endpoint_id: 'whep_1', events: ['task.failed'] } };

describe.each(['vidmodel-2.0', 'vidmodel-2.0-fast'])('%s', (model) => {
  const legacy = (over: Record<string, unknown> = {}) => ({ model, prompt: 'a red kite', ...over });

  test.each([
    ['generate_audio "true"', legacy({ generate_audio: 'true' }), 'generate_audio', 'JSON boolean'],
    ['watermark "false"', legacy({ watermark: 'false' }), 'watermark', 'JSON boolean'],
    [
      'a data URL image',
      legacy({ image_urls: ['data:image/png;base64,AAAA'] }),
      'image_urls[0]',
      'uploads.image',
    ],
    ['an http-less video URL', legacy({ video_urls: ['example.com/a.mp4'] }), 'video_urls[0]', 'http(s)://'],
    [
      'a data URL in images',
      legacy({ images: ['data:image/png;base64,AAAA'] }),
      'images[0]',
      'uploads.image',
    ],
    [
      'a bad role url',
      legacy({ image_with_roles: [{ url: 'x', role: 'first_frame' }] }),
      'image_with_roles[0].url',
      'http(s)://',
    ],
    ['@视频1 without a video', legacy({ prompt: 'like @视频1' }), 'prompt', '0 video reference(s)'],
    [
      '@音频2 with one audio',
      legacy({ prompt: '@音频2', audio_urls: ['https://example.com/a.mp3'] }),
      'prompt',
      'audio 2',
    ],
    [
      'notifications with webhook',
      legacy({ notifications, webhook: 'https://example.com/h' }),
      'notifications',
      'legacy `webhook`',
    ],
    [
      'a 129-byte client_reference_id',
      legacy({ client_reference_id: '界'.repeat(43) }),
      'client_reference_id',
      '128 bytes',
    ],
    ['a numeric prompt', legacy({ prompt: 1 }), 'prompt', 'must be a string'],
    [
      '@图片4 with three images across fields',
      legacy({
        prompt: '@图片4',
        image_urls: ['https://example.com/a.png'],
        images: ['https://example.com/b.png'],
        input_reference: 'https://example.com/c.png',
      }),
      'prompt',
      'image 4',
    ],
  ])('refuses %s', (_name, params, path, fragment) => {
    expect(checkParams(videoRequestSchema, params)).toEqual([
      { path, message: expect.stringContaining(fragment) },
    ]);
  });

  test.each([
    ['unknown fields of any shape', legacy({ duration: 99, style: { a: 1 }, seed: 'x', resolution: '4k' })],
    ['no prompt at all', { model }],
    ['@视频1 with a video', legacy({ prompt: 'like @视频1', video_urls: ['asset://v1'] })],
    ['@音频1 with one audio', legacy({ prompt: '@音频1', audio_urls: ['https://example.com/a.mp3'] })],
    ['notifications alone', legacy({ notifications })],
    ['a legacy webhook alone', legacy({ webhook: 'https://example.com/h' })],
    ['a 128-byte client_reference_id', legacy({ client_reference_id: `${'界'.repeat(42)}ab` })],
    ['a non-string images entry (not recognisable as media)', legacy({ images: [{ id: 1 }] })],
    // Every image input the model takes counts for @图片<n>.
    ['@图片1 from images', legacy({ prompt: '@图片1', images: ['https://example.com/a.png'] })],
    ['@图片1 from image', legacy({ prompt: '@图片1', image: 'https://example.com/a.png' })],
    [
      '@图片3 from image_urls, image_with_roles and first_frame_image',
      legacy({
        prompt: '@图片3',
        image_urls: ['https://example.com/a.png'],
        image_with_roles: [{ url: 'https://example.com/b.png', role: 'reference_image' }],
        first_frame_image: 'https://example.com/c.png',
      }),
    ],
    [
      '@图片3 with three images across fields',
      legacy({
        prompt: '@图片3',
        image_urls: ['https://example.com/a.png'],
        images: ['https://example.com/b.png'],
        input_reference: 'https://example.com/c.png',
      }),
    ],
  ])('accepts %s', (_name, params) => {
    expect(checkParams(videoRequestSchema, params)).toEqual([]);
  });
});
