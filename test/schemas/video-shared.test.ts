// Covers: src/schemas/video/shared.ts
import { describe, expect, test } from 'vitest';
import { checkParams } from '../../src/schemas/shared/validate.js';
import { videoRequestSchema } from '../../src/schemas/video/index.js';

const BASE64_PNG = `iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk${'A'.repeat(40)}==`;
const DATA_URL = 'data:image/png;base64,iVBORw0KGgo=';
const img = (i: number) => `https://example.com/i${i}.png`;
const notifications = { webhook: { endpoint_id: 'whep_1', events: ['task.completed', 'task.failed'] } };

// One valid request per model and shape; each rule below is applied to every one of them.
const BASES: Record<string, Record<string, unknown>> = {
  mini: { model: 'vidmodel-2.0-mini', prompt: 'a kite' },
  '2.5': { model: 'vidmodel-2.5', prompt: 'a kite' },
  preview: { model: 'vidmodel-2.5', prompt: 'a kite', draft: true },
  upgrade: { model: 'vidmodel-2.5', draft_task_id: 'task_prev' },
  motion: {
    model: 'motion-v3-motion-control',
    image_url: img(0),
    video_url: 'https://example.com/m.mp4',
    character_orientation: 'video',
    mode: 'pro',
  },
  legacy: { model: 'vidmodel-2.0', prompt: 'a kite' },
};
const shapes = Object.keys(BASES);
const issuesOf = (shape: string, over: Record<string, unknown>) =>
  checkParams(videoRequestSchema, { ...BASES[shape], ...over });
const only = (path: string, fragment: string) => [{ path, message: expect.stringContaining(fragment) }];

describe.each(shapes)('task request additions on %s', (shape) => {
  test('refuses notifications together with a legacy webhook', () => {
    const issues = issuesOf(shape, { notifications, webhook: { url: 'https://example.com/h' } });
    expect(issues).toContainEqual({
      path: 'notifications',
      message: expect.stringContaining('legacy `webhook`'),
    });
  });

  test('refuses notifications together with a legacy callback_url', () => {
    const issues = issuesOf(shape, { notifications, callback_url: 'https://example.com/cb' });
    expect(issues).toContainEqual({
      path: 'notifications',
      message: expect.stringContaining('legacy `callback_url`'),
    });
  });

  test.each([
    [
      'an unknown event',
      { webhook: { endpoint_id: 'whep_1', events: ['task.started'] } },
      'notifications.webhook.events[0]',
    ],
    [
      'an empty endpoint_id',
      { webhook: { endpoint_id: '', events: [] } },
      'notifications.webhook.endpoint_id',
    ],
    ['an extra key', { webhook: { endpoint_id: 'whep_1', events: [] }, retries: 3 }, 'notifications'],
  ])('refuses notifications with %s', (_name, value, path) => {
    expect(issuesOf(shape, { notifications: value }).map((i) => i.path)).toEqual([path]);
  });

  test('refuses a client_reference_id of 129 bytes (43 three-byte characters)', () => {
    expect(issuesOf(shape, { client_reference_id: '界'.repeat(43) })).toEqual(
      only('client_reference_id', 'at most 128 bytes'),
    );
  });

  test('accepts notifications alone and a client_reference_id of exactly 128 bytes', () => {
    expect(issuesOf(shape, { notifications, client_reference_id: `${'界'.repeat(42)}ab` })).toEqual([]);
  });
});

describe('booleans are JSON booleans on every model', () => {
  test.each([
    ['mini', 'generate_audio'],
    ['2.5', 'audio'],
    ['preview', 'return_last_frame'],
    ['upgrade', 'watermark'],
    ['legacy', 'nsfw_check'],
  ])('%s refuses %s: "true" and accepts true', (shape, field) => {
    expect(issuesOf(shape, { [field]: 'true' })).toEqual(only(field, 'JSON boolean'));
    expect(issuesOf(shape, { [field]: true })).toEqual([]);
  });

  test('motion refuses watermark_info.enabled: "false" and accepts false', () => {
    expect(issuesOf('motion', { watermark_info: { enabled: 'false' } })).toEqual(
      only('watermark_info.enabled', 'JSON boolean'),
    );
    expect(issuesOf('motion', { watermark_info: { enabled: false } })).toEqual([]);
  });
});

describe('media fields refuse inline data with a pointer to uploads.image', () => {
  test.each([
    ['mini', 'image_urls', [BASE64_PNG], 'image_urls[0]'],
    ['mini', 'video_urls', [DATA_URL], 'video_urls[0]'],
    ['2.5', 'audio_urls', [DATA_URL], 'audio_urls[0]'],
    ['2.5', 'last_frame_image', BASE64_PNG, 'last_frame_image'],
    ['preview', 'image_with_roles', [{ url: DATA_URL, role: 'reference_image' }], 'image_with_roles[0].url'],
    ['2.5', 'input_reference', DATA_URL, 'input_reference'],
    ['motion', 'image_url', BASE64_PNG, 'image_url'],
    ['legacy', 'image_urls', [img(0), DATA_URL], 'image_urls[1]'],
  ])('%s %s', (shape, field, value, path) => {
    expect(issuesOf(shape, { [field]: value })).toEqual(only(path, 'client.uploads.image()'));
  });

  test.each([
    ['mini', 'image_urls', [img(0), 'asset://asset_1']],
    ['2.5', 'last_frame_image', 'asset://asset_1'],
    ['motion', 'image_url', 'http://example.com/a.png'],
  ])('%s %s accepts http(s) and asset:// where allowed', (shape, field, value) => {
    expect(issuesOf(shape, { [field]: value })).toEqual([]);
  });
});

describe('prompt references point at an existing 1-based index', () => {
  test.each([
    ['mini', '@图片2 waves', { image_urls: [img(0)] }, 'image 2, but the request has 1 image'],
    ['mini', '@图片0 waves', { image_urls: [img(0)] }, 'indexes start at 1'],
    ['mini', 'use @视频1', {}, 'video 1, but the request has 0 video'],
    ['mini', 'with @音频2', { image_urls: [img(0)], audio_urls: ['https://example.com/a.mp3'] }, 'audio 2'],
    ['2.5', '@图片3', { image_urls: [img(0)], first_frame_image: img(1) }, 'image 3, but the request has 2'],
    ['2.5', '@图片2', { image_with_roles: [{ url: img(0), role: 'first_frame' }] }, 'image 2'],
    ['preview', '@视频11', { video_urls: ['asset://v1'] }, 'video 11'],
    ['legacy', '@图片1', {}, 'image 1'],
  ])('%s refuses %j', (shape, prompt, over, fragment) => {
    expect(issuesOf(shape, { prompt, ...over })).toEqual(only('prompt', fragment));
  });

  test('one issue per missing reference, even when repeated', () => {
    const issues = issuesOf('mini', { prompt: '@图片2 then @图片2 and @视频1' });
    expect(issues.map((i) => i.message.split(' ')[0])).toEqual(['@图片2', '@视频1']);
  });

  test.each([
    ['mini', '@图片2 waves at @图片1', { image_urls: [img(0), img(1)] }],
    [
      'mini',
      'roles count: @图片2',
      {
        image_with_roles: [
          { url: img(0), role: 'reference_image' },
          { url: img(1), role: 'reference_image' },
        ],
      },
    ],
    ['mini', '@视频1 with @音频1', { video_urls: ['asset://v1'], audio_urls: ['asset://a1'] }],
    ['2.5', 'frame aliases count: @图片2', { image_urls: [img(0)], first_frame_image: img(1) }],
    ['2.5', 'both aliases: @图片2', { first_frame_image: img(0), last_frame_image: img(1) }],
    ['2.5', 'no references, plain @ sign and @图片 without a number', {}],
  ])('%s accepts %j', (shape, prompt, over) => {
    expect(issuesOf(shape, { prompt, ...over })).toEqual([]);
  });
});
