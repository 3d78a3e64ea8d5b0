// Covers: src/schemas/images/requests.ts, src/schemas/video/index.ts
import { describe, expect, test } from 'vitest';
import { RequestValidationError, type ValidationIssue, validateRequest } from '../../src/index.js';
import { parseImageEditAsyncParams, parseImageEditParams } from '../../src/schemas/images/requests.js';
import { pngImage } from '../../src/testing/index.js';

// A body with several broken rules is refused once, with every rule it breaks: the rules of each
// field and the rules across fields alike. Each case takes a valid body and patches that each
// break rules on their own (on fields no other patch touches). The body with all patches must
// name every issue each patch names alone, so that fixing what one refusal says never brings a
// refusal for something that was already wrong.

type Check = (body: Record<string, unknown>) => ValidationIssue[];

const viaValidate =
  (operation: Parameters<typeof validateRequest>[0]): Check =>
  (body) =>
    validateRequest(operation, body);

const viaParse =
  (parse: (body: unknown) => unknown): Check =>
  (body) => {
    try {
      parse(body);
      return [];
    } catch (error) {
      if (error instanceof RequestValidationError) return error.issues;
      throw error;
    }
  };

const url = (name: string) => `https://cdn.example.com/${name}`;
const notifications = { webhook: { endpoint_id: 'whep_1', events: ['task.completed'] } };

interface Case {
  check: Check;
  valid: Record<string, unknown>;
  /** Patches that break a rule of one field each: a wrong type or value. */
  fields: Record<string, unknown>[];
  /** Patches that break a rule across fields (or of fields together). */
  across: Record<string, unknown>[];
}

const CASES: Record<string, Case> = {
  'vidmodel-2.0-mini': {
    check: viaValidate('videos.create'),
    valid: { model: 'vidmodel-2.0-mini', prompt: 'a kite over the sea' },
    fields: [{ prompt: 5 }, { resolution: '1080p' }, { seed: 'x' }, { generate_audio: 'yes' }],
    across: [
      { draft: true },
      { notifications, callback_url: url('callback') },
      { audio_urls: [url('a.mp3')] },
    ],
  },
  'vidmodel-2.5 ordinary': {
    check: viaValidate('videos.create'),
    valid: { model: 'vidmodel-2.5', prompt: 'a kite over the sea' },
    fields: [{ prompt: 5 }, { output_format: 'avi' }, { seed: 'x' }, { watermark: 'no' }],
    across: [
      { ratio: '16:9', aspect_ratio: '9:16' },
      { audio: true, generate_audio: false },
      { notifications, webhook: url('hook') },
    ],
  },
  'vidmodel-2.5 preview': {
    check: viaValidate('videos.create'),
    valid: { model: 'vidmodel-2.5', prompt: 'a kite over the sea', draft: true },
    fields: [{ prompt: 5 }, { output_format: 'avi' }, { seed: 'x' }],
    across: [{ camerafixed: true }, { generation_type: 'text' }, { ratio: '16:9', aspect_ratio: '9:16' }],
  },
  'vidmodel-2.5 upgrade': {
    check: viaValidate('videos.create'),
    valid: { model: 'vidmodel-2.5', draft_task_id: 'cgt-1' },
    fields: [{ output_format: 'avi' }, { resolution: '720p' }, { watermark: 'no' }],
    across: [{ prompt: 'again' }, { duration: 5 }, { notifications, callback_url: url('callback') }],
  },
  'motion-v3-motion-control': {
    check: viaValidate('videos.create'),
    valid: {
      model: 'motion-v3-motion-control',
      image_url: url('still.png'),
      video_url: url('dance.mp4'),
      character_orientation: 'video',
      mode: 'std',
    },
    fields: [{ mode: 'turbo' }, { keep_original_sound: true }, { character_orientation: 'side' }],
    across: [{ notifications, callback_url: url('callback') }],
  },
  'vidmodel-2.0 (legacy)': {
    check: viaValidate('videos.create'),
    valid: { model: 'vidmodel-2.0', prompt: 'a kite over the sea' },
    fields: [{ watermark: 'no' }, { return_last_frame: 1 }],
    across: [{ notifications, webhook: url('hook') }],
  },
  'images.generate': {
    check: viaValidate('images.generate'),
    valid: { model: 'imgmodel-2.5-flare', prompt: 'a kite' },
    fields: [{ prompt: 7 }, { n: 'two' }],
    across: [{ image_urls: [url('a.png')] }, { notifications }, { image: url('b.png') }],
  },
  'images.generateAsync': {
    check: viaValidate('images.generateAsync'),
    valid: { model: 'imgmodel-2.5-sunburst', prompt: 'a kite' },
    fields: [{ prompt: 7 }, { n: 'two' }],
    across: [{ image_urls: [url('a.png')] }, { notifications, callback_url: url('callback') }],
  },
  'images.edit': {
    check: viaParse(parseImageEditParams),
    valid: { model: 'imgmodel-2.5-flare', prompt: 'at night', image: pngImage() },
    fields: [{ prompt: 7 }, { n: 'two' }],
    across: [{ mask: pngImage() }, { images: [pngImage()] }, { client_reference_id: 'r1' }],
  },
  'images.editAsync': {
    check: viaParse(parseImageEditAsyncParams),
    valid: { model: 'imgmodel-2.5-flare', prompt: 'at night', image: pngImage() },
    fields: [{ prompt: 7 }, { n: 'two' }],
    across: [{ mask: pngImage() }, { notifications, webhook: url('hook') }],
  },
  'embeddings.create': {
    check: viaValidate('embeddings.create'),
    valid: { model: 'bge-m3', input: 'hello' },
    fields: [{ encoding_format: 'bin' }, { input: 5 }],
    across: [{ dimensions: 512 }, { messages: [{ role: 'user', content: 'hi' }] }],
  },
  'library.assets.submit': {
    check: viaValidate('library.assets.submit'),
    valid: { group_id: 'grp_1', assets: [{ url: url('face.png') }] },
    fields: [{ asset_type: 5 }, { project_name: 'other' }],
    across: [{ group: { name: 'new group' } }],
  },
  'midjourney.generate': {
    check: viaValidate('midjourney.generate'),
    valid: { prompt: 'a lighthouse' },
    fields: [{ client_reference_id: 5 }],
    across: [{ notifications, callback_url: url('callback') }],
  },
};

const key = (issue: ValidationIssue) => `${issue.path}: ${issue.message}`;

describe.each(Object.entries(CASES))('%s', (_family, { check, valid, fields, across }) => {
  test('the valid body passes, and each patch alone breaks a rule', () => {
    expect(check(valid)).toEqual([]);
    for (const patch of [...fields, ...across])
      expect(check({ ...valid, ...patch }), JSON.stringify(patch)).not.toEqual([]);
  });

  test('one refusal names what every patch breaks alone, field rules and cross-field rules together', () => {
    const everything = Object.assign({}, valid, ...fields, ...across);
    const named = check(everything).map(key);
    for (const patch of [...fields, ...across]) {
      for (const issue of check({ ...valid, ...patch }))
        expect(named, JSON.stringify(patch)).toContain(key(issue));
    }
  });
});

test('a rule across fields that reads a field of the wrong type is not judged: nothing is said on a guess', () => {
  // image_urls is not a list, so whether audio has an image reference to go with cannot be told.
  const issues = validateRequest('videos.create', {
    model: 'vidmodel-2.0-mini',
    prompt: 'a kite',
    image_urls: 'https://cdn.example.com/a.png',
    audio_urls: [url('a.mp3')],
    draft: true,
  });
  expect(issues.map((i) => i.path)).toEqual(['image_urls', 'draft']);
});
