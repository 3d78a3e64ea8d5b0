/**
 * `motion-v3-motion-control` requests and the `vidmodel-2.0` / `vidmodel-2.0-fast` requests
 * whose fields the spec does not show (spec: Video): valid ones and one breaker per rule.
 */
import fc from 'fast-check';
import {
  anyText,
  assetRef,
  clientReferenceId,
  extraFields,
  type Fixtures,
  httpUrl,
  inlineData,
  mediaRefOf,
  notifications,
  prompt,
} from './common.js';
import { type Body, badValue, missing, type Rule } from './rules.js';
import { referencesFor, sharedVideoRules } from './video-shared.js';

/** Valid `motion-v3-motion-control` requests. */
export function motionControl(fixtures: Fixtures): fc.Arbitrary<Body> {
  return fc
    .record(
      {
        image_url: httpUrl,
        video_url: httpUrl,
        character_orientation: fc.constantFrom('image', 'video'),
        mode: fc.constantFrom('std', 'pro'),
        prompt: anyText,
        keep_original_sound: fc.constantFrom('yes', 'no'),
        watermark_info: fc.record({ enabled: fc.boolean() }),
        duration: fc.integer({ min: 1, max: 30 }),
        notifications: notifications(fixtures),
        client_reference_id: clientReferenceId,
        extra: extraFields,
      },
      { requiredKeys: ['image_url', 'video_url', 'character_orientation', 'mode', 'extra'] },
    )
    .map(({ extra, ...fields }) => ({ model: 'motion-v3-motion-control', ...extra, ...fields }));
}

/** One breaker per rule of `motion-v3-motion-control`. */
export function motionControlRules(fixtures: Fixtures): Rule[] {
  // Motion control takes the task additions but has no prompt references or input aliases.
  const additions = sharedVideoRules(fixtures).filter((rule) =>
    /notifications|client_reference_id/.test(rule.rule),
  );
  return [
    missing('image_url is required', 'image_url'),
    missing('video_url is required', 'video_url'),
    {
      rule: 'image_url and video_url are public http(s):// URLs (no asset://, no inline data)',
      bad: fc.tuple(fc.constantFrom('image_url', 'video_url'), fc.oneof(assetRef, inlineData)),
      apply: (body, bad) => {
        const [field, value] = bad as [string, string];
        return { input: { ...body, [field]: value }, path: field };
      },
    },
    badValue('character_orientation is image or video', 'character_orientation', 'both', 'Image', undefined),
    badValue('mode is std or pro', 'mode', 'max', 'STD', undefined),
    badValue("keep_original_sound is the string 'yes' or 'no'", 'keep_original_sound', true, 'true', 'YES'),
    {
      rule: 'watermark_info is { enabled: boolean }',
      bad: fc.constantFrom(
        ['watermark_info.enabled', { enabled: 'yes' }],
        ['watermark_info', { enabled: true, position: 'tl' }],
        ['watermark_info', true],
      ),
      apply: (body, bad) => {
        const [path, value] = bad as [string, unknown];
        return { input: { ...body, watermark_info: value }, path };
      },
    },
    badValue('duration is a positive whole number of seconds', 'duration', 0, -5, 2.5, '10'),
    ...additions,
  ];
}

/** Valid `vidmodel-2.0` and `vidmodel-2.0-fast` requests: any field passes, the shared rules hold. */
export function videoLegacy(fixtures: Fixtures): fc.Arbitrary<Body> {
  const ref = mediaRefOf(fixtures);
  return fc
    .record(
      {
        model: fc.constantFrom('vidmodel-2.0', 'vidmodel-2.0-fast'),
        prompt,
        references: fc.boolean(),
        image_urls: fc.array(ref, { maxLength: 12 }),
        video_urls: fc.array(ref, { maxLength: 4 }),
        audio_urls: fc.array(ref, { maxLength: 4 }),
        generate_audio: fc.boolean(),
        watermark: fc.boolean(),
        return_last_frame: fc.boolean(),
        duration: fc.integer({ min: 1, max: 20 }),
        resolution: fc.constantFrom('480p', '720p', '1080p'),
        image: ref,
        notifications: notifications(fixtures),
        client_reference_id: clientReferenceId,
        extra: extraFields,
      },
      { requiredKeys: ['model', 'references', 'extra'] },
    )
    .map(({ extra, references, ...fields }) => {
      const body: Body = { ...extra, ...fields };
      if (typeof body.prompt === 'string' && references) body.prompt += referencesFor(body);
      return body;
    });
}

/** One breaker per rule that applies to `vidmodel-2.0` and `vidmodel-2.0-fast`. */
export function videoLegacyRules(fixtures: Fixtures): Rule[] {
  return [
    badValue('model is one of the video models', 'model', 'vidmodel-2', 'vidmodel-2.0-turbo'),
    {
      rule: 'booleans are JSON booleans',
      bad: fc.tuple(
        fc.constantFrom(
          'generate_audio',
          'watermark',
          'return_last_frame',
          'nsfw_check',
          'draft',
          'camerafixed',
        ),
        fc.constantFrom('true', 'no', 1),
      ),
      apply: (body, bad) => {
        const [field, value] = bad as [string, unknown];
        return { input: { ...body, [field]: value }, path: field };
      },
    },
    {
      rule: 'media lists hold http(s):// or asset:// URLs, never inline data',
      bad: fc.tuple(fc.constantFrom('image_urls', 'video_urls', 'audio_urls'), inlineData),
      apply: (body, bad) => {
        const [field, value] = bad as [string, string];
        const list = Array.isArray(body[field]) ? [...(body[field] as string[])] : [];
        if (list.length === 0) list.push(value);
        else list[0] = value;
        return { input: { ...body, [field]: list }, path: `${field}[0]` };
      },
    },
    {
      rule: 'video_list entries are URLs',
      bad: inlineData,
      apply: (body, bad) => ({ input: { ...body, video_list: [bad] }, path: 'video_list[0]' }),
    },
    badValue('prompt is a string', 'prompt', 42, ['a']),
    ...sharedVideoRules(fixtures),
  ];
}
