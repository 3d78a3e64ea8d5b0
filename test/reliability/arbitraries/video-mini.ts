/**
 * `vidmodel-2.0-mini` requests (spec: Video, "`vidmodel-2.0-mini` fields"): valid ones built
 * from the spec's rules, and one breaker per rule.
 */

import fc from 'fast-check';
import { VIDEO_RATIOS } from '../../../src/schemas/shared/constants.js';
import {
  clientReferenceId,
  extraFields,
  type Fixtures,
  inlineData,
  mediaRefOf,
  notifications,
  prompt,
} from './common.js';
import { type Body, badValue, missing, type Rule } from './rules.js';
import {
  CLIP,
  counts,
  FIXED_RATIOS,
  referencesFor,
  SOUND,
  sharedVideoRules,
  stripReferences,
  URL_A,
  URL_B,
  urls,
  withoutFrameRoles,
} from './video-shared.js';

const MODEL = 'vidmodel-2.0-mini';
const RATIO_FIELDS = ['aspect_ratio', 'ratio', 'size'] as const;

/** Valid `vidmodel-2.0-mini` requests. */
export function videoMini(fixtures: Fixtures): fc.Arbitrary<Body> {
  const ref = mediaRefOf(fixtures);
  return fc
    .record({
      base: prompt,
      references: fc.boolean(),
      imageMode: fc.constantFrom('none', 'urls', 'roles', 'frames'),
      images: fc.array(ref, { minLength: 1, maxLength: 9 }),
      lastFrame: fc.boolean(),
      videos: fc.array(ref, { maxLength: 3 }),
      audios: fc.array(ref, { maxLength: 3 }),
      ratio: fc.constantFrom(...VIDEO_RATIOS),
      ratioFields: fc.subarray([...RATIO_FIELDS]),
      optional: fc.record(
        {
          duration: fc.integer({ min: 4, max: 15 }),
          resolution: fc.constantFrom('480p', '720p'),
          seed: fc.integer(),
          generate_audio: fc.boolean(),
          return_last_frame: fc.boolean(),
          nsfw_check: fc.boolean(),
          tools: fc.array(fc.constant({ type: 'web_search' }), { maxLength: 2 }),
          notifications: notifications(fixtures),
          client_reference_id: clientReferenceId,
        },
        { requiredKeys: [] },
      ),
      extra: extraFields,
    })
    .map((g) => {
      const body: Body = { model: MODEL, ...g.extra, ...g.optional };
      const frames = g.imageMode === 'frames';
      if (g.imageMode === 'urls') body.image_urls = g.images;
      if (g.imageMode === 'roles')
        body.image_with_roles = g.images.map((url) => ({ url, role: 'reference_image' }));
      if (frames) {
        const roles = [{ url: g.images[0], role: 'first_frame' }];
        if (g.lastFrame && g.images.length > 1) roles.push({ url: g.images[1], role: 'last_frame' });
        for (const url of g.images.slice(roles.length)) roles.push({ url, role: 'reference_image' });
        body.image_with_roles = roles;
      } else {
        // spec: Video — first/last-frame tasks omit video_urls and audio_urls; audio needs an image or video.
        if (g.videos.length > 0) body.video_urls = g.videos;
        if (g.audios.length > 0 && (g.imageMode !== 'none' || g.videos.length > 0))
          body.audio_urls = g.audios;
      }
      // spec: Video — a first/last-frame task needs aspect_ratio 'adaptive' (mini's default is 16:9).
      const fields = frames && g.ratioFields.length === 0 ? ['aspect_ratio'] : g.ratioFields;
      for (const field of fields) body[field] = frames ? 'adaptive' : g.ratio;
      body.prompt = g.base + (g.references ? referencesFor(body) : '');
      return body;
    });
}

/** Makes `body` a first-frame task with these roles: adaptive ratio, no video or audio. */
function asFrameTask(body: Body, roles: string[]): Body {
  stripReferences(body);
  delete body.image_urls;
  delete body.video_urls;
  delete body.audio_urls;
  for (const field of RATIO_FIELDS) delete body[field];
  body.aspect_ratio = 'adaptive';
  body.image_with_roles = roles.map((role, i) => ({ url: `https://media.example.com/frame-${i}.png`, role }));
  return body;
}

/** One breaker per rule of `vidmodel-2.0-mini`. */
export function videoMiniRules(fixtures: Fixtures): Rule[] {
  return [
    badValue('model is one of the video models', 'model', 'vidmodel-3', 'VIDMODEL-2.0-MINI', '', 42),
    missing('prompt is required', 'prompt'),
    badValue('prompt is not empty', 'prompt', '', '   ', '\n\t'),
    badValue(
      'duration is an integer from 4 to 15 (-1 unsupported)',
      'duration',
      3,
      16,
      -1,
      0,
      4.5,
      '5',
      null,
    ),
    badValue('resolution is 480p or 720p', 'resolution', '1080p', '720P', 720, ''),
    {
      rule: 'aspect_ratio is one of the seven ratios',
      bad: fc.constantFrom('5:4', '16x9', 'auto', 1.77),
      apply: (body, bad) => {
        const { ratio: _r, size: _s, ...rest } = body;
        return { input: { ...rest, aspect_ratio: bad }, path: 'aspect_ratio' };
      },
    },
    ...(['ratio', 'size'] as const).map(
      (alias): Rule => ({
        rule: `${alias} matches aspect_ratio when both are set`,
        apply: (body) => {
          const value = (body.aspect_ratio ?? body.ratio ?? body.size ?? '16:9') as string;
          const other = value === '1:1' ? '9:16' : '1:1';
          const input: Body = { ...body, aspect_ratio: value, [alias]: other };
          const third = alias === 'ratio' ? 'size' : 'ratio';
          if (input[third] !== undefined) input[third] = value;
          // A frame task needs 'adaptive' in the field read first; aspect_ratio is that field.
          return { input, path: alias };
        },
      }),
    ),
    badValue('seed is an integer', 'seed', 1.5, '7', true),
    {
      rule: 'booleans are JSON booleans, not strings or numbers',
      bad: fc.tuple(
        fc.constantFrom('generate_audio', 'return_last_frame', 'nsfw_check'),
        fc.constantFrom('true', 'false', 1, 0, null),
      ),
      apply: (body, bad) => {
        const [field, value] = bad as [string, unknown];
        return { input: { ...body, [field]: value }, path: field };
      },
    },
    {
      rule: 'image_urls holds at most 9 images',
      apply: (body) => {
        const { image_with_roles: _roles, ...rest } = body;
        return { input: { ...rest, image_urls: urls(10) }, path: 'image_urls' };
      },
    },
    {
      rule: 'image_urls entries are http(s):// or asset://, never inline data',
      bad: inlineData,
      apply: (body, bad) => {
        const n = Math.max(1, counts(body).images);
        const { image_with_roles: _roles, ...rest } = body;
        const list = urls(n);
        const at = n - 1;
        list[at] = bad as string;
        return { input: { ...rest, image_urls: list }, path: `image_urls[${at}]` };
      },
    },
    {
      rule: 'image_with_roles is not combined with image_urls',
      apply: (body) => {
        const input = { ...body };
        if (input.image_urls === undefined) input.image_urls = [URL_A];
        if (input.image_with_roles === undefined)
          input.image_with_roles = [{ url: URL_B, role: 'reference_image' }];
        return { input, path: 'image_with_roles' };
      },
    },
    {
      rule: 'first_frame appears at most once',
      apply: (body) => ({
        input: asFrameTask(body, ['first_frame', 'first_frame']),
        path: 'image_with_roles[1].role',
      }),
    },
    {
      rule: 'a last_frame needs a first_frame',
      apply: (body) => ({ input: asFrameTask(body, ['last_frame']), path: 'image_with_roles[0].role' }),
    },
    {
      rule: "a first/last-frame task has aspect_ratio 'adaptive'",
      bad: fc.constantFrom(...FIXED_RATIOS, undefined),
      apply: (body, bad) => {
        const input = asFrameTask(body, ['first_frame']);
        if (bad === undefined) delete input.aspect_ratio;
        else input.aspect_ratio = bad;
        return { input, path: 'aspect_ratio' };
      },
    },
    {
      rule: 'a first/last-frame task omits video_urls and audio_urls',
      bad: fc.constantFrom('video_urls', 'audio_urls'),
      apply: (body, field) => {
        const input = asFrameTask(body, ['first_frame', 'last_frame']);
        input[field as string] = [field === 'video_urls' ? CLIP : SOUND];
        return { input, path: field as string };
      },
    },
    {
      rule: 'audio references need an image or video reference',
      apply: (body) => {
        const input = stripReferences({ ...body });
        delete input.image_urls;
        delete input.image_with_roles;
        delete input.video_urls;
        input.audio_urls = [SOUND];
        return { input, path: 'audio_urls' };
      },
    },
    {
      rule: 'video_urls holds at most 3 videos',
      apply: (body) => ({
        input: withoutFrameRoles({ ...body, video_urls: urls(4, 'clip') }),
        path: 'video_urls',
      }),
    },
    {
      rule: 'audio_urls holds at most 3 audios',
      apply: (body) => {
        const input = withoutFrameRoles({ ...body, audio_urls: urls(4, 'sound') });
        if (input.video_urls === undefined) input.video_urls = [CLIP];
        return { input, path: 'audio_urls' };
      },
    },
    {
      rule: 'draft and draft_task_id are not sent to this model, whatever their value',
      bad: fc.tuple(
        fc.constantFrom('draft', 'draft_task_id'),
        fc.constantFrom(true, false, null, 0, 'cgt-1'),
      ),
      apply: (body, bad) => {
        const [field, value] = bad as [string, unknown];
        return { input: { ...body, [field]: value }, path: field };
      },
    },
    {
      rule: "tools items are { type: 'web_search' }",
      bad: fc.constantFrom({ type: 'search' }, { type: 'WEB_SEARCH' }),
      apply: (body, tool) => ({ input: { ...body, tools: [tool] }, path: 'tools[0].type' }),
    },
    ...sharedVideoRules(fixtures),
  ];
}
