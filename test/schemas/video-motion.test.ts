// Covers: src/schemas/video/motion.ts
import { describe, expect, test } from 'vitest';
import { checkParams } from '../../src/schemas/shared/validate.js';
import { videoRequestSchema } from '../../src/schemas/video/index.js';

const motion = (over: Record<string, unknown> = {}) => ({
  model: 'motion-v3-motion-control',
  image_url: 'https://example.com/person.png',
  video_url: 'https://example.com/dance.mp4',
  character_orientation: 'image',
  mode: 'std',
  ...over,
});

describe('motion-v3-motion-control refuses', () => {
  test.each([
    ['a missing image_url', motion({ image_url: undefined }), 'image_url', 'is required'],
    ['a missing video_url', motion({ video_url: undefined }), 'video_url', 'is required'],
    [
      'a missing character_orientation',
      motion({ character_orientation: undefined }),
      'character_orientation',
      'is required',
    ],
    ['a missing mode', motion({ mode: undefined }), 'mode', 'std or pro'],
    ['an asset:// image_url', motion({ image_url: 'asset://a1' }), 'image_url', 'public http(s):// URL'],
    [
      'a data URL video_url',
      motion({ video_url: 'data:video/mp4;base64,AAAA' }),
      'video_url',
      'uploads.image',
    ],
    [
      'orientation both',
      motion({ character_orientation: 'both' }),
      'character_orientation',
      'image (reference video 3-10 s)',
    ],
    ['mode max', motion({ mode: 'max' }), 'mode', 'std or pro'],
    [
      'keep_original_sound true',
      motion({ keep_original_sound: true }),
      'keep_original_sound',
      "'yes' or 'no'",
    ],
    [
      'keep_original_sound YES',
      motion({ keep_original_sound: 'YES' }),
      'keep_original_sound',
      "'yes' or 'no'",
    ],
    [
      'watermark_info.enabled "true"',
      motion({ watermark_info: { enabled: 'true' } }),
      'watermark_info.enabled',
      'JSON boolean',
    ],
    [
      'watermark_info without enabled',
      motion({ watermark_info: {} }),
      'watermark_info.enabled',
      'JSON boolean',
    ],
    [
      'watermark_info with extra keys',
      motion({ watermark_info: { enabled: true, text: 'x' } }),
      'watermark_info',
      'unexpected: text',
    ],
    ['watermark_info true', motion({ watermark_info: true }), 'watermark_info', '{ enabled: boolean }'],
    ['duration 0', motion({ duration: 0 }), 'duration', 'positive integer'],
    ['duration 2.5', motion({ duration: 2.5 }), 'duration', 'positive integer'],
    ['duration "5"', motion({ duration: '5' }), 'duration', 'estimate for pre-deduction only'],
    ['a numeric prompt', motion({ prompt: 5 }), 'prompt', 'must be a string'],
  ])('%s', (_name, params, path, fragment) => {
    expect(checkParams(videoRequestSchema, params)).toEqual([
      { path, message: expect.stringContaining(fragment) },
    ]);
  });
});

describe('motion-v3-motion-control accepts the valid neighbours', () => {
  test.each([
    ['the four required fields', motion()],
    ['orientation video, mode pro', motion({ character_orientation: 'video', mode: 'pro' })],
    ['keep_original_sound no', motion({ keep_original_sound: 'no' })],
    ['watermark_info enabled', motion({ watermark_info: { enabled: true } })],
    ['duration 12', motion({ duration: 12 })],
    ['a prompt', motion({ prompt: 'slow pan' })],
    ['an unknown field (passes through)', motion({ cfg_scale: 0.5 })],
  ])('%s', (_name, params) => {
    expect(checkParams(videoRequestSchema, params)).toEqual([]);
  });
});
