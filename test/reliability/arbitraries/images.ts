/**
 * Image requests (spec: Images): JSON generation (sync and async) and multipart edits with real
 * files (sync and async), valid ones and one breaker per rule.
 */

import fc from 'fast-check';
import { IMAGE_MODELS } from '../../../src/schemas/shared/constants.js';
import { pngImage } from '../../../src/testing/index.js';
import {
  assetRef,
  clientReferenceId,
  type Fixtures,
  httpUrl,
  inlineData,
  notifications,
  prompt,
} from './common.js';
import { type Body, badValue, missing, type Rule, unknownField } from './rules.js';
import { sharedVideoRules } from './video-shared.js';

const outputFields = {
  n: fc.integer({ min: 1, max: 4 }),
  size: fc
    .tuple(fc.integer({ min: 1, max: 4096 }), fc.integer({ min: 1, max: 4096 }))
    .map(([w, h]) => `${w}x${h}`),
  resolution: fc.constantFrom('1k', '2k', '4k'),
  quality: fc.constantFrom('low', 'medium', 'high', 'hd', 'standard'),
  background: fc.constantFrom('transparent', 'opaque', 'auto'),
  output_format: fc.constantFrom('png', 'jpeg', 'webp'),
  output_compression: fc.integer({ min: 0, max: 100 }),
  response_format: fc.constantFrom('url', 'b64_json'),
  nsfw_check: fc.boolean(),
};

const taskFields = (fixtures: Fixtures) => ({
  notifications: notifications(fixtures),
  client_reference_id: clientReferenceId,
});

/** Valid `images.generate` (sync) or `images.generateAsync` requests. */
export function imageGenerate(fixtures: Fixtures, async: boolean): fc.Arbitrary<Body> {
  return fc
    .record(
      {
        model: fc.constantFrom(...IMAGE_MODELS),
        prompt,
        ...outputFields,
        image_urls: fc.array(httpUrl, { minLength: 1, maxLength: 4 }),
        ...(async ? taskFields(fixtures) : {}),
      },
      // spec: Images lists the routes' fields; no others pass through.
      { requiredKeys: ['model', 'prompt'] },
    )
    .map((fields) => {
      const body: Body = { ...fields };
      // spec: Images — image_urls is an imgmodel-2 extension; it must not be assumed for 2.5.
      if (String(body.model).startsWith('imgmodel-2.5-')) delete body.image_urls;
      return body;
    });
}

type FileForm = 'buffer' | 'uint8array' | 'blob' | 'file';

function asUploadable(bytes: Buffer, form: FileForm, name: string): unknown {
  if (form === 'buffer') return bytes;
  if (form === 'uint8array') return new Uint8Array(bytes);
  if (form === 'blob') return new Blob([new Uint8Array(bytes)], { type: 'image/png' });
  return new File([new Uint8Array(bytes)], name, { type: 'image/png' });
}

const files = fc.record({
  count: fc.integer({ min: 1, max: 3 }),
  asArray: fc.boolean(),
  width: fc.integer({ min: 8, max: 48 }),
  height: fc.integer({ min: 8, max: 48 }),
  form: fc.constantFrom<FileForm>('buffer', 'uint8array', 'blob', 'file'),
  mask: fc.boolean(),
});

/** Valid `images.edit` (sync) or `images.editAsync` requests, with real PNG files. */
export function imageEdit(fixtures: Fixtures, async: boolean): fc.Arbitrary<Body> {
  return fc
    .record(
      {
        model: fc.constantFrom(...IMAGE_MODELS),
        prompt,
        ...outputFields,
        ...(async ? taskFields(fixtures) : {}),
        files,
      },
      { requiredKeys: ['model', 'prompt', 'files'] },
    )
    .map(({ files: f, ...fields }) => {
      const body: Body = { ...fields };
      const images = Array.from({ length: f.count }, (_, i) =>
        asUploadable(pngImage({ width: f.width, height: f.height, seed: i }), f.form, `input-${i}.png`),
      );
      body.image = images.length === 1 && !f.asArray ? images[0] : images;
      // spec: Images, edits — a mask is a PNG with alpha of the input's size, for imgmodel-2 only.
      if (f.mask && body.model === 'imgmodel-2') {
        body.mask = asUploadable(pngImage({ width: f.width, height: f.height, seed: 9 }), f.form, 'mask.png');
      }
      return body;
    });
}

const generationRules: Rule[] = [
  badValue(
    'model is imgmodel-2, imgmodel-2.5-sunburst or imgmodel-2.5-flare',
    'model',
    'imgmodel-3',
    'gpt-image-1',
    '',
  ),
  missing('prompt is required', 'prompt'),
  unknownField,
  badValue('prompt is not empty', 'prompt', '', '   '),
  badValue('n is a positive integer', 'n', 0, -1, 1.5, '2'),
  badValue('size is <W>x<H> with positive pixel counts', 'size', '1024', '0x512', '1024X1024', '1024x', 1024),
  badValue('output_compression is a number', 'output_compression', 'high', '80'),
  {
    rule: 'route-specific tiers are strings',
    bad: fc.constantFrom('resolution', 'quality', 'background', 'output_format'),
    apply: (body, field) => ({ input: { ...body, [field as string]: 5 }, path: field as string }),
  },
];

const jsonRules: Rule[] = [
  {
    rule: 'image_urls is not used with imgmodel-2.5-*',
    bad: fc.constantFrom('imgmodel-2.5-sunburst', 'imgmodel-2.5-flare'),
    apply: (body, model) => ({
      input: { ...body, model, image_urls: ['https://media.example.com/ref.png'] },
      path: 'image_urls',
    }),
  },
  {
    rule: 'image_urls entries are public http(s) URLs',
    bad: fc.oneof(assetRef, inlineData),
    apply: (body, bad) => ({
      input: { ...body, model: 'imgmodel-2', image_urls: [bad] },
      path: 'image_urls[0]',
    }),
  },
  {
    rule: 'a JSON generation body holds no image or images (it attaches no file)',
    bad: fc.tuple(
      fc.constantFrom('image', 'images'),
      fc.constantFrom('https://media.example.com/a.png', [], null),
    ),
    apply: (body, bad) => {
      const [field, value] = bad as [string, unknown];
      return { input: { ...body, [field]: value }, path: field };
    },
  },
];

const syncRules = (route: string): Rule[] => [
  {
    rule: `notifications and client_reference_id are not sent to the synchronous ${route} route`,
    bad: fc.constantFrom<[string, unknown]>(
      ['notifications', { webhook: { endpoint_id: 'whep_1', events: ['task.completed'] } }],
      ['client_reference_id', 'order-1'],
      ['client_reference_id', ''],
    ),
    apply: (body, bad) => {
      const [field, value] = bad as [string, unknown];
      return { input: { ...body, [field]: value }, path: field };
    },
  },
];

const asyncRules = (fixtures: Fixtures): Rule[] =>
  sharedVideoRules(fixtures).filter((rule) => /notifications|client_reference_id/.test(rule.rule));

/** One breaker per rule of `images.generate` or `images.generateAsync`. */
export function imageGenerateRules(fixtures: Fixtures, async: boolean): Rule[] {
  return [...generationRules, ...jsonRules, ...(async ? asyncRules(fixtures) : syncRules('generate'))];
}

const PNG_WITHOUT_ALPHA = (() => {
  const png = pngImage({ width: 8, height: 8 });
  png[25] = 2; // IHDR colour type: truecolour without alpha
  return png;
})();

/** One breaker per rule of `images.edit` or `images.editAsync`. */
export function imageEditRules(fixtures: Fixtures, async: boolean): Rule[] {
  return [
    ...generationRules,
    missing('image is required: one file or an array of files', 'image'),
    badValue(
      'image is a file, never a bare string, number or empty list',
      'image',
      '/home/me/photo.png',
      'https://media.example.com/a.png',
      42,
      [],
    ),
    {
      rule: 'every entry of an image list is a file',
      bad: fc.constantFrom('photo.png', null, 3),
      apply: (body, bad) => {
        const list = Array.isArray(body.image) ? [...body.image] : [body.image];
        return { input: { ...body, image: [...list, bad] }, path: `image[${list.length}]` };
      },
    },
    {
      rule: 'a mask is refused by imgmodel-2.5-*',
      bad: fc.constantFrom('imgmodel-2.5-sunburst', 'imgmodel-2.5-flare'),
      apply: (body, model) => ({
        input: { ...body, model, mask: pngImage({ width: 8, height: 8 }) },
        path: 'mask',
      }),
    },
    {
      rule: 'a mask is a PNG with an alpha channel, the size of the first input',
      bad: fc.constantFrom('text', 'no-alpha', 'size', 'string'),
      apply: (body, kind) => {
        const mask =
          kind === 'text'
            ? Buffer.from('not an image at all')
            : kind === 'no-alpha'
              ? PNG_WITHOUT_ALPHA
              : kind === 'string'
                ? 'mask.png'
                : pngImage({ width: 200, height: 3 });
        const image = kind === 'no-alpha' ? pngImage({ width: 8, height: 8 }) : body.image;
        return { input: { ...body, model: 'imgmodel-2', image, mask }, path: 'mask' };
      },
    },
    {
      rule: 'edits take the files as image, not images',
      apply: (body) => ({ input: { ...body, images: [pngImage()] }, path: 'images' }),
    },
    ...(async ? asyncRules(fixtures) : syncRules('edit')),
  ];
}
