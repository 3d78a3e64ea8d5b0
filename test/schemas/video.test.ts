// Covers: src/schemas/video/index.ts
import { describe, expect, test } from 'vitest';
import { RequestValidationError } from '../../src/core/errors.js';
import { VIDEO_MODELS } from '../../src/schemas/shared/constants.js';
import { checkParams } from '../../src/schemas/shared/validate.js';
import {
  parseVideoRequest,
  type VideoCreateParams,
  videoRequestSchema,
} from '../../src/schemas/video/index.js';

const modelIssue = [
  { path: 'model', message: `must be one of the video models: ${VIDEO_MODELS.join(', ')}` },
];

describe('videoRequestSchema dispatches on model', () => {
  test('knows the five video models of the spec', () => {
    expect(VIDEO_MODELS).toEqual([
      'vidmodel-2.0-mini',
      'vidmodel-2.5',
      'motion-v3-motion-control',
      'vidmodel-2.0',
      'vidmodel-2.0-fast',
    ]);
  });

  test.each([
    ['an unknown model', { model: 'vidmodel-3', prompt: 'x' }],
    ['an image model', { model: 'imgmodel-2', prompt: 'x' }],
    ['a missing model', { prompt: 'x' }],
    ['a model of the wrong case', { model: 'VIDMODEL-2.5', prompt: 'x' }],
  ])('refuses %s with one issue at model listing the known models', (_name, params) => {
    expect(checkParams(videoRequestSchema, params)).toEqual(modelIssue);
  });

  test.each([
    ['a string', 'vidmodel-2.5'],
    ['null', null],
    ['an array', [{ model: 'vidmodel-2.5' }]],
  ])('refuses %s body', (_name, body) => {
    expect(checkParams(videoRequestSchema, body)).toEqual([
      { path: '', message: 'the request body must be an object' },
    ]);
  });

  test('applies only the rules of the chosen model', () => {
    // -1 is refused by mini and accepted by 2.5; 1080p the other way round.
    expect(
      checkParams(videoRequestSchema, { model: 'vidmodel-2.0-mini', prompt: 'x', duration: -1 }),
    ).toHaveLength(1);
    expect(checkParams(videoRequestSchema, { model: 'vidmodel-2.5', prompt: 'x', duration: -1 })).toEqual([]);
    expect(
      checkParams(videoRequestSchema, { model: 'vidmodel-2.0-mini', prompt: 'x', resolution: '1080p' }),
    ).toHaveLength(1);
    expect(
      checkParams(videoRequestSchema, { model: 'vidmodel-2.5', prompt: 'x', resolution: '1080p' }),
    ).toEqual([]);
  });
});

describe('parseVideoRequest', () => {
  test('throws RequestValidationError naming videos.create and every broken rule', () => {
    let caught: unknown;
    try {
      parseVideoRequest({ model: 'vidmodel-2.0-mini', prompt: '', duration: 20, generate_audio: 'true' });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(RequestValidationError);
    const error = caught as RequestValidationError;
    expect(error.message).toMatch(/^videos\.create was not sent: /);
    expect(error.issues.map((i) => i.path)).toEqual(['prompt', 'duration', 'generate_audio']);
    expect(error.message).toContain('duration: must be an integer from 4 to 15 for vidmodel-2.0-mini');
  });

  const requests: Array<[string, Record<string, unknown>]> = [
    ['mini without duration, resolution or ratio', { model: 'vidmodel-2.0-mini', prompt: 'a kite' }],
    ['2.5 without duration, ratio or generate_audio', { model: 'vidmodel-2.5', prompt: 'a kite', seed: 0 }],
    ['a 2.5 preview without resolution', { model: 'vidmodel-2.5', prompt: 'a kite', draft: true }],
    [
      'a 2.5 upgrade without resolution',
      { model: 'vidmodel-2.5', draft_task_id: 'task_1', watermark: false },
    ],
    [
      'motion control without keep_original_sound',
      {
        model: 'motion-v3-motion-control',
        image_url: 'https://example.com/a.png',
        video_url: 'https://example.com/a.mp4',
        character_orientation: 'image',
        mode: 'std',
      },
    ],
    [
      'vidmodel-2.0-fast with a field of its own',
      { model: 'vidmodel-2.0-fast', prompt: 'a kite', quality: 'hd' },
    ],
    [
      'mini with nested values and task additions',
      {
        model: 'vidmodel-2.0-mini',
        prompt: 'a kite',
        aspect_ratio: 'adaptive',
        image_with_roles: [{ url: 'asset://a1', role: 'first_frame' }],
        notifications: { webhook: { endpoint_id: 'whep_1', events: ['task.completed'] } },
        client_reference_id: 'order-7',
        future_field: { kept: true },
      },
    ],
  ];

  test.each(requests)(
    'returns exactly the caller fields for %s (no defaults, no added keys)',
    (_name, params) => {
      const snapshot = structuredClone(params);
      const parsed = parseVideoRequest(params);
      expect(Object.keys(parsed).sort()).toEqual(Object.keys(params).sort());
      expect(parsed).toStrictEqual(snapshot);
      expect(params).toStrictEqual(snapshot);
    },
  );

  test('types refuse what the schemas refuse', () => {
    const upgrade: VideoCreateParams = {
      model: 'vidmodel-2.5',
      draft_task_id: 'task_1',
      output_format: 'mov',
    };
    // @ts-expect-error an upgrade never resends prompt
    const resent: VideoCreateParams = { model: 'vidmodel-2.5', draft_task_id: 'task_1', prompt: 'x' };
    const preview720: VideoCreateParams = {
      model: 'vidmodel-2.5',
      prompt: 'x',
      draft: true,
      // @ts-expect-error a preview renders at 480p only
      resolution: '720p',
    };
    // @ts-expect-error mini has no draft
    const miniDraft: VideoCreateParams = { model: 'vidmodel-2.0-mini', prompt: 'x', draft: true };
    const legacy: VideoCreateParams = { model: 'vidmodel-2.0', prompt: 'x', anything: 1 };
    expect(parseVideoRequest(upgrade)).toEqual(upgrade);
    expect(parseVideoRequest(legacy)).toEqual(legacy);
    for (const refused of [resent, preview720, miniDraft]) {
      expect(() => parseVideoRequest(refused)).toThrow(RequestValidationError);
    }
  });
});
