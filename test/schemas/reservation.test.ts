// Covers: src/schemas/video/reservation.ts
import { describe, expect, test } from 'vitest';
import { RequestValidationError } from '../../src/core/errors.js';
import type { VideoCreateParams } from '../../src/schemas/video/index.js';
import { estimateReservation } from '../../src/schemas/video/reservation.js';
import type { ReservationHints } from '../../src/schemas/video/reservation-tiers.js';

const vids = (n: number) => Array.from({ length: n }, (_, i) => `https://example.com/v${i}.mp4`);
const motion = (orientation: 'image' | 'video', mode: 'std' | 'pro' = 'std') =>
  ({
    model: 'motion-v3-motion-control',
    image_url: 'https://example.com/a.png',
    video_url: 'https://example.com/a.mp4',
    character_orientation: orientation,
    mode,
  }) as const;

type Row = [string, VideoCreateParams, ReservationHints, number, string, number, string | undefined];

// [rule, params, hints, seconds, tier, reference-video seconds, a note that must be present]
const rows: Row[] = [
  // spec: Billing and reservations, 1 (mini)
  [
    'mini: omitted duration reserves 5 s at the 720p default',
    { model: 'vidmodel-2.0-mini', prompt: 'x' },
    {},
    5,
    '720P',
    0,
    'duration omitted: 5 s reserved',
  ],
  [
    'mini: generated seconds at 480P',
    { model: 'vidmodel-2.0-mini', prompt: 'x', duration: 10, resolution: '480p' },
    {},
    10,
    '480P',
    0,
    undefined,
  ],
  [
    'mini: reference video uses the input tier, durations rounded up',
    { model: 'vidmodel-2.0-mini', prompt: 'x', duration: 6, video_urls: vids(2) },
    { videoDurations: [3.2, 4] },
    14,
    '720P-input',
    8,
    undefined,
  ],
  [
    'mini: 480P-input',
    { model: 'vidmodel-2.0-mini', prompt: 'x', duration: 4, resolution: '480p', video_urls: vids(1) },
    { videoDurations: [2.01] },
    7,
    '480P-input',
    3,
    undefined,
  ],
  [
    'mini: images and audio add no reference seconds and keep the plain tier',
    {
      model: 'vidmodel-2.0-mini',
      prompt: 'x',
      duration: 8,
      image_urls: ['asset://i'],
      audio_urls: ['asset://a'],
    },
    {},
    8,
    '720P',
    0,
    undefined,
  ],
  [
    'mini: unknown reference durations assume the 15 s total',
    { model: 'vidmodel-2.0-mini', prompt: 'x', duration: 5, video_urls: vids(1) },
    {},
    20,
    '720P-input',
    15,
    'pass hints.videoDurations',
  ],
  // spec: Billing and reservations, 2 (vidmodel-2.5)
  [
    '2.5: -1 reserves 30 s',
    { model: 'vidmodel-2.5', prompt: 'x', duration: -1 },
    {},
    30,
    '720p',
    0,
    '30 s maximum',
  ],
  [
    '2.5: omitted duration reserves 5 s',
    { model: 'vidmodel-2.5', prompt: 'x', resolution: '1080p' },
    {},
    5,
    '1080p',
    0,
    'duration omitted: 5 s',
  ],
  [
    '2.5: reference video counted at the input tier',
    { model: 'vidmodel-2.5', prompt: 'x', duration: 10, video_urls: vids(2) },
    { videoDurations: [5.5, 2] },
    18,
    '720p-input',
    8,
    undefined,
  ],
  [
    '2.5: an edit with omitted duration (default -1) reserves 30 s',
    { model: 'vidmodel-2.5', prompt: 'x', omni_reference_task_type: 'edit', video_urls: vids(1) },
    { videoDurations: [12] },
    42,
    '720p-input',
    12,
    'omitted in an edit',
  ],
  [
    '2.5 preview: explicit duration at 480p',
    { model: 'vidmodel-2.5', prompt: 'x', draft: true, duration: 8 },
    {},
    8,
    '480p',
    0,
    undefined,
  ],
  [
    '2.5 preview: -1 reserves 30 s',
    { model: 'vidmodel-2.5', prompt: 'x', draft: true, duration: -1 },
    {},
    30,
    '480p',
    0,
    undefined,
  ],
  [
    '2.5 preview: other omitted duration reserves 5 s',
    { model: 'vidmodel-2.5', prompt: 'x', draft: true },
    {},
    5,
    '480p',
    0,
    undefined,
  ],
  [
    '2.5 preview: omitted in an edit reserves 30 s, capped at 30 s combined',
    {
      model: 'vidmodel-2.5',
      prompt: 'x',
      draft: true,
      omni_reference_task_type: 'edit',
      video_urls: vids(1),
    },
    { videoDurations: [6] },
    30,
    '480p-input',
    0,
    'capped at 30 s',
  ],
  [
    '2.5 preview: reference video counted, combined at most 30 s',
    { model: 'vidmodel-2.5', prompt: 'x', draft: true, duration: 20, video_urls: vids(1) },
    { videoDurations: [14.5] },
    30,
    '480p-input',
    10,
    'was 35 s',
  ],
  [
    '2.5 upgrade: the preview duration at 1080p without video input',
    { model: 'vidmodel-2.5', draft_task_id: 'task_p' },
    { previewDuration: 8, videoDurations: [10] },
    8,
    '1080p',
    0,
    "excludes the preview's reference video",
  ],
  [
    '2.5 upgrade: a -1 preview counts 30 s',
    { model: 'vidmodel-2.5', draft_task_id: 'task_p' },
    { previewDuration: -1 },
    30,
    '1080p',
    0,
    undefined,
  ],
  [
    '2.5 upgrade: unknown preview duration assumes 30 s',
    { model: 'vidmodel-2.5', draft_task_id: 'task_p' },
    {},
    30,
    '1080p',
    0,
    'pass hints.previewDuration',
  ],
  // The input aliases reserve as the fields they stand for.
  [
    '2.5: seconds is the duration',
    { model: 'vidmodel-2.5', prompt: 'x', seconds: 12, resolution: '1080p' },
    {},
    12,
    '1080p',
    0,
    undefined,
  ],
  [
    '2.5: seconds -1 reserves the 30 s maximum',
    { model: 'vidmodel-2.5', prompt: 'x', seconds: -1 },
    {},
    30,
    '720p',
    0,
    'duration -1',
  ],
  [
    '2.5: video_list is reference video',
    { model: 'vidmodel-2.5', prompt: 'x', duration: 6, video_list: vids(2) },
    { videoDurations: [3.5, 4] },
    14,
    '720p-input',
    8,
    undefined,
  ],
  // spec: Billing and reservations, 3 (motion control)
  [
    'motion: detected reference seconds, rounded up',
    motion('image'),
    { referenceVideoSeconds: 7.2 },
    8,
    'std',
    8,
    undefined,
  ],
  [
    'motion: the supplied duration when detection is unknown',
    { ...motion('video', 'pro'), duration: 12 },
    {},
    12,
    'pro',
    12,
    'supplied duration',
  ],
  ['motion: orientation image ceiling 10 s', motion('image', 'pro'), {}, 10, 'pro', 10, '10 s ceiling'],
  ['motion: orientation video ceiling 30 s', motion('video'), {}, 30, 'std', 30, '30 s ceiling'],
];

describe('estimateReservation follows the billing rules', () => {
  test.each(rows)('%s', (_rule, params, hints, seconds, tier, referenceVideo, note) => {
    const estimate = estimateReservation(params, hints);
    expect(estimate).toMatchObject({ model: params.model, seconds, tier });
    expect(estimate.billableSeconds).toEqual({ generated: seconds - referenceVideo, referenceVideo });
    expect(estimate.cost).toBeUndefined();
    if (note) expect(estimate.notes.join('\n')).toContain(note);
  });
});

describe('estimateReservation prices and hints', () => {
  test('multiplies the seconds by the tier price', () => {
    const estimate = estimateReservation(
      { model: 'vidmodel-2.0-mini', prompt: 'x', duration: 6, video_urls: vids(1) },
      { videoDurations: [3.2], prices: { '720P': 0.05, '720P-input': 0.1 } },
    );
    expect(estimate).toMatchObject({ seconds: 10, tier: '720P-input', cost: 1 });
  });

  test('prices motion control per reference second by mode', () => {
    const estimate = estimateReservation(motion('video', 'pro'), {
      referenceVideoSeconds: 20,
      prices: { std: 0.2, pro: 0.5 },
    });
    expect(estimate.cost).toBe(10);
  });

  test('gives no cost, and says so, when the table lacks the tier', () => {
    const estimate = estimateReservation({ model: 'vidmodel-2.5', prompt: 'x' }, { prices: { '1080p': 1 } });
    expect(estimate.cost).toBeUndefined();
    expect(estimate.notes).toContain('hints.prices has no price for tier 720p');
  });

  test.each([
    [
      'too few video durations',
      { videoDurations: [3] },
      'hints.videoDurations',
      'has 1 entries but video_urls has 2',
    ],
    [
      'a negative duration',
      { videoDurations: [3, -1] },
      'hints.videoDurations[1]',
      'finite number of seconds',
    ],
    [
      'a NaN duration',
      { videoDurations: [Number.NaN, 2] },
      'hints.videoDurations[0]',
      'finite number of seconds',
    ],
  ])('refuses %s', (_name, hints, path, fragment) => {
    const params: VideoCreateParams = { model: 'vidmodel-2.5', prompt: 'x', video_urls: vids(2) };
    expect(() => estimateReservation(params, hints)).toThrow(RequestValidationError);
    try {
      estimateReservation(params, hints);
    } catch (error) {
      expect((error as RequestValidationError).issues).toEqual([
        { path, message: expect.stringContaining(fragment) },
      ]);
    }
  });

  test('validates the request first and names the estimate in the error', () => {
    const params = { model: 'vidmodel-2.0-mini', prompt: 'x', duration: -1 } as unknown as VideoCreateParams;
    expect(() => estimateReservation(params)).toThrow(
      /^videos\.estimateReservation was not sent: duration: /,
    );
  });

  test('notes ignored video hints', () => {
    const estimate = estimateReservation(
      { model: 'vidmodel-2.0-mini', prompt: 'x' },
      { videoDurations: [4] },
    );
    expect(estimate.seconds).toBe(5);
    expect(estimate.notes).toContain('hints.videoDurations ignored: the request has no video_urls');
  });

  test('estimates vidmodel-2.0 from generated seconds and says the rules are unpublished', () => {
    const estimate = estimateReservation({ model: 'vidmodel-2.0', prompt: 'x', duration: 8 });
    expect(estimate).toMatchObject({ seconds: 8, tier: 'unpublished' });
    expect(estimate.notes[0]).toContain('no billing rules');
  });

  test('does not change the params', () => {
    const params: VideoCreateParams = { model: 'vidmodel-2.5', prompt: 'x', draft: true };
    const before = structuredClone(params);
    estimateReservation(params);
    expect(params).toStrictEqual(before);
  });
});
