/**
 * `vidmodel-2.5` requests (spec: Video, "`vidmodel-2.5` fields", task-type validation, preview
 * and upgrade): valid ordinary, preview and upgrade bodies, and one breaker per rule.
 */

import fc from 'fast-check';
import { UPGRADE_INHERITED_FIELDS, VIDEO_RATIOS } from '../../../src/schemas/shared/constants.js';
import {
  anyText,
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
  sharedVideoRules,
  stripReferences,
  URL_A,
  urls,
} from './video-shared.js';

const MODEL = 'vidmodel-2.5';
const FRAME_MODES = [
  'none',
  'role-first',
  'role-first-last',
  'alias-first',
  'alias-first-last',
  'role-first-alias-last',
];

type Kind = 'ordinary' | 'preview';

/** Valid `vidmodel-2.5` generation requests: ordinary, or a 480p preview (`draft: true`). */
export function video25(fixtures: Fixtures, kind: Kind): fc.Arbitrary<Body> {
  const ref = mediaRefOf(fixtures);
  return fc
    .record({
      base: prompt,
      references: fc.boolean(),
      imageUrls: fc.array(ref, { maxLength: 30 }),
      roleImages: fc.array(ref, { maxLength: 4 }),
      frameMode: fc.constantFrom(...FRAME_MODES),
      frameUrls: fc.tuple(ref, ref),
      videos: fc.array(ref, { maxLength: 10 }),
      audios: fc.array(ref, { maxLength: 10 }),
      type: fc.constantFrom(undefined, 'auto', 'reference', 'edit', 'extend'),
      ratio: fc.constantFrom(...VIDEO_RATIOS),
      ratioFields: fc.subarray(['aspect_ratio', 'ratio']),
      audioFlag: fc.boolean(),
      audioFields: fc.subarray(['generate_audio', 'audio']),
      duration: fc.oneof(fc.constant(undefined), fc.constant(-1), fc.integer({ min: 4, max: 30 })),
      optional: fc.record(
        {
          resolution: kind === 'preview' ? fc.constant('480p') : fc.constantFrom('480p', '720p', '1080p'),
          size: anyText,
          seed: fc.integer(),
          watermark: fc.boolean(),
          output_format: fc.constantFrom('mp4', 'mov'),
          return_last_frame: fc.boolean(),
          nsfw_check: fc.boolean(),
          negative_prompt: anyText,
          generation_type: anyText,
          camerafixed: fc.boolean(),
          service_tier: anyText,
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
      if (kind === 'preview') {
        body.draft = true;
        // spec: Video — service_tier is rejected for preview; generation_type and camerafixed are ordinary only.
        delete body.service_tier;
        delete body.generation_type;
        delete body.camerafixed;
      }
      const roles = g.roleImages.map((url) => ({ url, role: 'reference_image' }));
      const [first, last] = g.frameUrls;
      if (g.frameMode.startsWith('role-first')) roles.unshift({ url: first, role: 'first_frame' });
      if (g.frameMode === 'role-first-last') roles.push({ url: last, role: 'last_frame' });
      if (g.frameMode.startsWith('alias-first')) body.first_frame_image = first;
      if (g.frameMode.endsWith('last') && g.frameMode !== 'role-first-last') body.last_frame_image = last;
      if (roles.length > 0) body.image_with_roles = roles;
      // spec: Video — at most 30 images counting image_urls, image_with_roles and the frame aliases.
      const room = 30 - counts(body).images;
      if (g.imageUrls.length > 0 && room > 0) body.image_urls = g.imageUrls.slice(0, room);
      const videos = [...g.videos];
      // spec: Video — edit and extend need at least one video_urls entry (the source video).
      if ((g.type === 'edit' || g.type === 'extend') && videos.length === 0) videos.push(CLIP);
      if (videos.length > 0) body.video_urls = videos;
      if (g.audios.length > 0) body.audio_urls = g.audios;
      if (g.type !== undefined) body.omni_reference_task_type = g.type;
      // spec: Video — frame, edit and extend tasks need 'adaptive' (or the ratio left out).
      const needsAdaptive = g.frameMode !== 'none' || g.type === 'edit' || g.type === 'extend';
      for (const field of g.ratioFields) body[field] = needsAdaptive ? 'adaptive' : g.ratio;
      for (const field of g.audioFields) body[field] = g.audioFlag;
      // spec: Video — an edit accepts only duration -1 or omitted.
      const duration = g.type === 'edit' && g.duration !== undefined ? -1 : g.duration;
      if (duration !== undefined) body.duration = duration;
      body.prompt = g.base + (g.references ? referencesFor(body) : '');
      return body;
    });
}

/** Valid preview upgrades (`draft_task_id` naming a succeeded preview). */
export function video25Upgrade(fixtures: Fixtures): fc.Arbitrary<Body> {
  return fc
    .record(
      {
        draft_task_id: fc.constantFrom(...fixtures.previewIds),
        output_format: fc.constantFrom('mp4', 'mov'),
        return_last_frame: fc.boolean(),
        watermark: fc.boolean(),
        resolution: fc.constant('1080p'),
        notifications: notifications(fixtures),
        client_reference_id: clientReferenceId,
      },
      { requiredKeys: ['draft_task_id'] },
    )
    .map((fields) => ({ model: MODEL, ...fields }));
}

/** Makes `body` a task with a first frame (keeping its image count where it can) and `ratio` set. */
function withFirstFrame(body: Body): Body {
  const roles = Array.isArray(body.image_with_roles) ? (body.image_with_roles as Body[]) : [];
  const hasFrame =
    roles.some((r) => r.role === 'first_frame' || r.role === 'last_frame') ||
    body.first_frame_image !== undefined ||
    body.last_frame_image !== undefined;
  if (hasFrame) return body;
  if (roles.length > 0) body.image_with_roles = [{ ...roles[0], role: 'first_frame' }, ...roles.slice(1)];
  else if (Array.isArray(body.image_urls) && body.image_urls.length > 0) {
    const [head, ...rest] = body.image_urls as string[];
    body.first_frame_image = head;
    if (rest.length > 0) body.image_urls = rest;
    else delete body.image_urls;
  } else body.first_frame_image = URL_A;
  return body;
}

const generationRules = (fixtures: Fixtures, kind: Kind): Rule[] => [
  badValue('model is one of the video models', 'model', 'vidmodel-2.6', 'vidmodel-25', ''),
  missing('prompt is required for generation', 'prompt'),
  badValue('prompt is not empty', 'prompt', '', '  '),
  badValue('duration is 4-30 or -1', 'duration', 3, 31, 0, -2, 4.5, '5'),
  // spec: Video, "Preview upgrade" — the input aliases are held to the rules of their fields.
  {
    rule: 'seconds, the alias of duration, is 4-30 or -1',
    bad: fc.constantFrom(3, 31, 0, -2, 4.5, '5'),
    apply: (body, bad) => {
      const { duration: _d, ...rest } = body;
      return { input: { ...rest, seconds: bad }, path: 'seconds' };
    },
  },
  {
    rule: 'seconds matches duration when both are set',
    apply: (body) => {
      const duration = (body.duration ?? (body.omni_reference_task_type === 'edit' ? -1 : 5)) as number;
      const seconds = duration === -1 ? 10 : duration === 5 ? 6 : 5;
      return { input: { ...body, duration, seconds }, path: 'seconds' };
    },
  },
  {
    rule: 'video_list, the alias of video_urls, holds at most 10 videos',
    apply: (body) => {
      const { video_urls: _v, ...rest } = body;
      return { input: { ...rest, video_list: Array.from({ length: 11 }, () => CLIP) }, path: 'video_list' };
    },
  },
  {
    rule: 'images, the alias of image_urls, counts toward the 30 images',
    apply: (body) => {
      const { image_urls: _i, ...rest } = body;
      return { input: { ...rest, images: Array.from({ length: 31 }, () => URL_A) }, path: 'images' };
    },
  },
  kind === 'preview'
    ? badValue('a preview renders at 480p only', 'resolution', '720p', '1080p')
    : badValue('resolution is 480p, 720p or 1080p', 'resolution', '2k', '4k', '720P', 1080),
  {
    rule: 'ratio matches aspect_ratio',
    apply: (body) => {
      const needsAdaptive = body.aspect_ratio === 'adaptive' || body.ratio === 'adaptive';
      const value = (body.aspect_ratio ?? body.ratio ?? 'adaptive') as string;
      const other = value === 'adaptive' || needsAdaptive ? '16:9' : value === '1:1' ? '9:16' : '1:1';
      return { input: { ...body, aspect_ratio: value, ratio: other }, path: 'ratio' };
    },
  },
  {
    rule: 'aspect_ratio is one of the seven ratios',
    bad: fc.constantFrom('5:4', 'auto', 'ADAPTIVE'),
    apply: (body, bad) => {
      const { ratio: _r, ...rest } = body;
      return { input: { ...rest, aspect_ratio: bad }, path: 'aspect_ratio' };
    },
  },
  {
    rule: 'audio matches generate_audio',
    bad: fc.boolean(),
    apply: (body, flag) => ({ input: { ...body, generate_audio: flag, audio: !flag }, path: 'audio' }),
  },
  {
    rule: 'booleans are JSON booleans',
    bad: fc.tuple(
      fc.constantFrom(
        'watermark',
        'return_last_frame',
        'nsfw_check',
        ...(kind === 'ordinary' ? ['camerafixed', 'draft'] : []),
      ),
      fc.constantFrom('true', 'false', 1, null),
    ),
    apply: (body, bad) => {
      const [field, value] = bad as [string, unknown];
      return { input: { ...body, [field]: value }, path: field };
    },
  },
  badValue('output_format is mp4 or mov', 'output_format', 'avi', 'MP4', 'webm'),
  badValue(
    'omni_reference_task_type is auto, reference, edit or extend',
    'omni_reference_task_type',
    'remix',
    'EDIT',
    '',
  ),
  {
    rule: 'an edit or extend task needs at least one video_urls entry',
    bad: fc.constantFrom('edit', 'extend'),
    apply: (body, type) => {
      const input = stripReferences({ ...body, omni_reference_task_type: type });
      delete input.video_urls;
      if (type === 'edit') delete input.duration;
      for (const field of ['aspect_ratio', 'ratio'])
        if (input[field] !== undefined) input[field] = 'adaptive';
      return { input, path: 'video_urls' };
    },
  },
  {
    rule: 'an edit accepts only duration -1 or omitted',
    bad: fc.integer({ min: 4, max: 30 }),
    apply: (body, duration) => {
      const input: Body = { ...body, omni_reference_task_type: 'edit', duration };
      if (input.video_urls === undefined) input.video_urls = [CLIP];
      for (const field of ['aspect_ratio', 'ratio'])
        if (input[field] !== undefined) input[field] = 'adaptive';
      return { input, path: 'duration' };
    },
  },
  {
    rule: "frame, edit and extend tasks need aspect_ratio 'adaptive' or omitted",
    bad: fc.tuple(fc.constantFrom('frame', 'edit', 'extend'), fc.constantFrom(...FIXED_RATIOS)),
    apply: (body, bad) => {
      const [task, ratio] = bad as [string, string];
      const { ratio: _r, ...rest } = body;
      const input: Body = { ...rest, aspect_ratio: ratio };
      if (task === 'frame') {
        // spec: Video — frames that come with video or audio references may be general
        // references, so only frames without them make a frame task.
        for (const field of ['video_urls', 'audio_urls', 'omni_reference_task_type']) delete input[field];
        if (typeof input.prompt === 'string') input.prompt = input.prompt.replace(/@(视频|音频)\d+/g, '');
        withFirstFrame(input);
      } else {
        input.omni_reference_task_type = task;
        if (input.video_urls === undefined) input.video_urls = [CLIP];
        if (task === 'edit') delete input.duration;
      }
      return { input, path: 'aspect_ratio' };
    },
  },
  {
    rule: 'first_frame_image is not given again as a first_frame role',
    apply: (body) => {
      const input = { ...body };
      delete input.first_frame_image;
      delete input.last_frame_image;
      const roles = (Array.isArray(input.image_with_roles) ? (input.image_with_roles as Body[]) : []).map(
        (r) => ({
          ...r,
          role: 'reference_image',
        }),
      );
      input.image_with_roles = [{ url: URL_A, role: 'first_frame' }, ...roles.slice(1)];
      if (Array.isArray(input.image_urls)) input.image_urls = (input.image_urls as string[]).slice(0, 20);
      input.first_frame_image = URL_A;
      for (const field of ['aspect_ratio', 'ratio'])
        if (input[field] !== undefined) input[field] = 'adaptive';
      return { input: stripReferences(input), path: 'first_frame_image' };
    },
  },
  {
    rule: 'at most 30 images, counting image_urls, image_with_roles and the frame aliases',
    apply: (body) => {
      const input: Body = { ...body, image_urls: urls(31) };
      delete input.image_with_roles;
      delete input.first_frame_image;
      delete input.last_frame_image;
      return { input, path: 'image_urls' };
    },
  },
  {
    rule: 'image_urls entries are http(s):// or asset://, never inline data',
    bad: inlineData,
    apply: (body, bad) => {
      const list = Array.isArray(body.image_urls) ? [...(body.image_urls as string[])] : [];
      if (list.length === 0 && counts(body).images >= 30) {
        const roles = [...(body.image_with_roles as Body[])];
        roles[0] = { ...roles[0], url: bad };
        return { input: { ...body, image_with_roles: roles }, path: 'image_with_roles[0].url' };
      }
      if (list.length === 0) list.push(bad as string);
      else list[0] = bad as string;
      return { input: { ...body, image_urls: list }, path: 'image_urls[0]' };
    },
  },
  {
    rule: 'video_urls holds at most 10 videos',
    apply: (body) => ({ input: { ...body, video_urls: urls(11, 'clip') }, path: 'video_urls' }),
  },
  {
    rule: 'audio_urls holds at most 10 audios',
    apply: (body) => ({ input: { ...body, audio_urls: urls(11, 'sound') }, path: 'audio_urls' }),
  },
  {
    rule: "tools items are { type: 'web_search' }",
    apply: (body) => ({ input: { ...body, tools: [{ type: 'web_search', query: 'x' }] }, path: 'tools[0]' }),
  },
  ...sharedVideoRules(fixtures),
];

/** One breaker per rule of an ordinary `vidmodel-2.5` request. */
export function video25Rules(fixtures: Fixtures): Rule[] {
  return generationRules(fixtures, 'ordinary');
}

/** One breaker per rule of a `vidmodel-2.5` preview. */
export function video25PreviewRules(fixtures: Fixtures): Rule[] {
  return [
    ...generationRules(fixtures, 'preview'),
    {
      rule: 'service_tier, generation_type and camerafixed are refused in a preview, whatever their value',
      bad: fc.tuple(
        fc.constantFrom('service_tier', 'generation_type', 'camerafixed'),
        fc.constantFrom('default', false, true, 0),
      ),
      apply: (body, bad) => {
        const [field, value] = bad as [string, unknown];
        return { input: { ...body, [field]: value }, path: field };
      },
    },
  ];
}

/** One breaker per rule of a preview upgrade. */
export function video25UpgradeRules(): Rule[] {
  return [
    {
      rule: 'an upgrade does not resend an inherited field, even when equal, false, 0 or null',
      bad: fc.tuple(
        fc.constantFrom(...UPGRADE_INHERITED_FIELDS),
        fc.constantFrom(null, false, 0, '', 'a kite', []),
      ),
      apply: (body, bad) => {
        const [field, value] = bad as [string, unknown];
        return { input: { ...body, [field]: value }, path: field };
      },
    },
    {
      rule: 'draft_task_id and draft: true are not combined (draft: false is accepted)',
      bad: fc.constantFrom(true, null, 'true'),
      apply: (body, draft) => ({ input: { ...body, draft }, path: 'draft' }),
    },
    badValue('service_tier is refused in an upgrade', 'service_tier', 'default', 'flex'),
    badValue('an upgrade renders at 1080p only', 'resolution', '720p', '480p', '4k'),
    badValue('draft_task_id is a non-empty task ID', 'draft_task_id', '', 42),
    badValue('output_format is mp4 or mov', 'output_format', 'gif'),
    badValue('booleans are JSON booleans', 'watermark', 'true', 1),
    {
      rule: 'an upgrade body holds only its own fields',
      bad: fc.constantFrom('x_custom', 'nsfw_check', 'negative_prompt_v2'),
      apply: (body, field) => ({ input: { ...body, [field as string]: 'x' }, path: field as string }),
    },
    badValue('client_reference_id is at most 128 bytes of UTF-8', 'client_reference_id', 'b'.repeat(129)),
  ];
}
