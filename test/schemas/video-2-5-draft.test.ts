// Covers: src/schemas/video/2-5.ts
import { describe, expect, test } from 'vitest';
import { UPGRADE_INHERITED_FIELDS } from '../../src/schemas/shared/constants.js';
import { checkParams } from '../../src/schemas/shared/validate.js';
import { video25RequestKind, videoRequestSchema } from '../../src/schemas/video/index.js';

const preview = (over: Record<string, unknown> = {}) => ({
  model: 'vidmodel-2.5',
  prompt: 'a red kite',
  draft: true,
  ...over,
});
const upgrade = (over: Record<string, unknown> = {}) => ({
  model: 'vidmodel-2.5',
  draft_task_id: 'task_prev',
  ...over,
});
const notifications = { webhook: { endpoint_id: 'whep_1', events: ['task.completed'] } };

const expectOnly = (params: unknown, path: string, fragment: string) =>
  expect(checkParams(videoRequestSchema, params)).toEqual([
    { path, message: expect.stringContaining(fragment) },
  ]);

describe('vidmodel-2.5 preview (draft: true)', () => {
  test.each([
    ['resolution 720p', preview({ resolution: '720p' }), 'resolution', '480p only'],
    ['resolution 1080p', preview({ resolution: '1080p' }), 'resolution', '480p only'],
    ['service_tier', preview({ service_tier: 'default' }), 'service_tier', 'in a preview'],
    [
      'generation_type',
      preview({ generation_type: 'standard' }),
      'generation_type',
      'ordinary generation only',
    ],
    ['camerafixed: false', preview({ camerafixed: false }), 'camerafixed', 'ordinary generation only'],
    ['a missing prompt', preview({ prompt: undefined }), 'prompt', 'is required'],
    ['duration 31', preview({ duration: 31 }), 'duration', 'from 4 to 30'],
    ['an edit without a video', preview({ omni_reference_task_type: 'edit' }), 'video_urls', 'edit task'],
    ['@视频1 without a video', preview({ prompt: 'like @视频1' }), 'prompt', '0 video reference(s)'],
  ])('refuses %s', (_name, params, path, fragment) => expectOnly(params, path, fragment));

  test.each([
    ['resolution omitted', preview()],
    ['resolution 480p', preview({ resolution: '480p' })],
    [
      'duration -1 in an edit',
      preview({ omni_reference_task_type: 'edit', video_urls: ['asset://v1'], duration: -1 }),
    ],
    [
      'seed 0 and references',
      preview({ seed: 0, image_urls: ['https://example.com/a.png'], prompt: 'as @图片1' }),
    ],
  ])('accepts %s', (_name, params) => {
    expect(checkParams(videoRequestSchema, params)).toEqual([]);
  });
});

describe('vidmodel-2.5 upgrade (draft_task_id)', () => {
  const refusedValues: Array<[string, unknown]> = [
    ['a value', 'same-as-preview'],
    ['false', false],
    ['0', 0],
    ['null', null],
  ];
  const inheritedRows = UPGRADE_INHERITED_FIELDS.flatMap((field) =>
    refusedValues.map(([label, value]) => [field, label, value] as const),
  );

  test('the inherited list is the spec list', () => {
    expect(UPGRADE_INHERITED_FIELDS).toHaveLength(26);
    expect(UPGRADE_INHERITED_FIELDS).toEqual(
      expect.arrayContaining([
        'prompt',
        'seed',
        'first_frame_image',
        'video_list',
        'negative_prompt',
        'metadata',
      ]),
    );
  });

  test.each(inheritedRows)('refuses the inherited %s even when it is %s', (field, _label, value) => {
    expectOnly(upgrade({ [field]: value }), field, 'inherited from the preview');
  });

  test.each([
    ['draft: true', upgrade({ draft: true }), 'draft', 'draft_task_id and draft: true must not be combined'],
    ['draft: null', upgrade({ draft: null }), 'draft', 'must not be sent with draft_task_id'],
    ['service_tier', upgrade({ service_tier: 'default' }), 'service_tier', 'rejected for an upgrade'],
    ['nsfw_check', upgrade({ nsfw_check: false }), 'nsfw_check', 'not accepted in an upgrade'],
    ['an unknown field', upgrade({ style: 'x' }), 'style', 'not accepted in an upgrade'],
    ['resolution 720p', upgrade({ resolution: '720p' }), 'resolution', '1080p only'],
    ['resolution 480p', upgrade({ resolution: '480p' }), 'resolution', '1080p only'],
    [
      'an empty draft_task_id',
      upgrade({ draft_task_id: '' }),
      'draft_task_id',
      'succeeded vidmodel-2.5 preview',
    ],
    [
      'a null draft_task_id',
      upgrade({ draft_task_id: null }),
      'draft_task_id',
      'succeeded vidmodel-2.5 preview',
    ],
    ['output_format avi', upgrade({ output_format: 'avi' }), 'output_format', 'mp4 or mov'],
    ['watermark "true"', upgrade({ watermark: 'true' }), 'watermark', 'JSON boolean'],
    ['return_last_frame 1', upgrade({ return_last_frame: 1 }), 'return_last_frame', 'JSON boolean'],
  ])('refuses %s', (_name, params, path, fragment) => expectOnly(params, path, fragment));

  test('refuses notifications with a legacy callback_url, which is not an upgrade field either', () => {
    expect(
      checkParams(videoRequestSchema, upgrade({ notifications, callback_url: 'https://example.com/cb' })),
    ).toEqual([
      { path: 'notifications', message: expect.stringContaining('legacy `callback_url`') },
      { path: 'callback_url', message: expect.stringContaining('not accepted in an upgrade') },
    ]);
  });

  test.each([
    ['draft_task_id alone', upgrade()],
    ['resolution 1080p', upgrade({ resolution: '1080p' })],
    // spec: Video — only `draft: true` is forbidden beside draft_task_id.
    ['draft: false', upgrade({ draft: false })],
    [
      'every optional field',
      upgrade({
        output_format: 'mov',
        return_last_frame: true,
        watermark: false,
        notifications,
        client_reference_id: 'order-1',
      }),
    ],
    ['an explicitly undefined inherited field (never serialized)', upgrade({ prompt: undefined })],
  ])('accepts %s', (_name, params) => {
    expect(checkParams(videoRequestSchema, params)).toEqual([]);
  });
});

describe('video25RequestKind', () => {
  test.each([
    [{ draft_task_id: 't' }, 'upgrade'],
    [{ draft_task_id: 't', draft: true }, 'upgrade'],
    [{ draft_task_id: null }, 'upgrade'],
    [{ draft: true }, 'preview'],
    [{ draft: false }, 'ordinary'],
    [{ draft: 'true' }, 'ordinary'],
    [{}, 'ordinary'],
  ])('%j is %s', (body, kind) => {
    expect(video25RequestKind(body)).toBe(kind);
  });
});
