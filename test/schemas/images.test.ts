// Covers: src/schemas/images/requests.ts, src/schemas/images/edit-files.ts
import { describe, expect, test } from 'vitest';
import { RequestValidationError } from '../../src/core/errors.js';
import { toUploadFile } from '../../src/internal/upload-file.js';
import { checkEditFiles } from '../../src/schemas/images/edit-files.js';
import {
  isImageModel25,
  parseImageEditAsyncParams,
  parseImageEditParams,
  parseImageGenerateAsyncParams,
  parseImageGenerateParams,
} from '../../src/schemas/images/requests.js';
import { IMAGE_MODELS } from '../../src/schemas/shared/constants.js';
import { mp4Video } from '../../src/testing/index.js';
import { jpeg, png } from '../core/image-fixtures.js';

type Parse = (params: unknown) => unknown;

function issuesOf(parse: Parse, params: unknown) {
  try {
    parse(params);
  } catch (error) {
    expect(error).toBeInstanceOf(RequestValidationError);
    return (error as RequestValidationError).issues;
  }
  throw new Error('expected the request to be refused');
}

const gen = (over: Record<string, unknown> = {}) => ({
  model: 'imgmodel-2',
  prompt: 'a lighthouse at dusk',
  ...over,
});
const edit = (over: Record<string, unknown> = {}) => gen({ image: png(8, 8), ...over });
const notifications = { webhook: { endpoint_id: 'whep_1', events: ['task.completed'] } };

const generateOps: Array<[string, Parse]> = [
  ['images.generate', parseImageGenerateParams],
  ['images.generateAsync', parseImageGenerateAsyncParams],
];
const editOps: Array<[string, Parse]> = [
  ['images.edit', parseImageEditParams],
  ['images.editAsync', parseImageEditAsyncParams],
];

const sharedRefusals: Array<[string, Record<string, unknown>, string, string]> = [
  ['an unknown model', { model: 'imgmodel-3' }, 'model', 'must be one of imgmodel-2, imgmodel-2.5-sunburst'],
  ['a missing model', { model: undefined }, 'model', 'must be one of'],
  ['a missing prompt', { prompt: undefined }, 'prompt', 'is required'],
  ['an empty prompt', { prompt: '' }, 'prompt', 'must not be empty'],
  ['a blank prompt', { prompt: '  \n' }, 'prompt', 'must not be empty'],
  ['a numeric prompt', { prompt: 7 }, 'prompt', 'must be a non-empty string'],
  ['n = 0', { n: 0 }, 'n', 'positive integer'],
  ['n = -1', { n: -1 }, 'n', 'positive integer'],
  ['n = 1.5', { n: 1.5 }, 'n', 'positive integer'],
  ['n as a string', { n: '2' }, 'n', 'positive integer'],
  ['size without x', { size: '1024' }, 'size', '<W>x<H>'],
  ['size with a zero', { size: '0x1024' }, 'size', '<W>x<H>'],
  ['size with a capital X', { size: '1024X1024' }, 'size', '<W>x<H>'],
  ['size with spaces', { size: '1024 x 1024' }, 'size', '<W>x<H>'],
  ['size as a ratio', { size: '16:9' }, 'size', '<W>x<H>'],
  ['size as a number', { size: 1024 }, 'size', '<W>x<H>'],
  ['quality as a number', { quality: 3 }, 'quality', 'must be a string'],
  ['output_compression as a string', { output_compression: '80' }, 'output_compression', 'must be a number'],
  [
    'image_urls with imgmodel-2.5-sunburst',
    { model: 'imgmodel-2.5-sunburst', image_urls: ['https://example.com/a.png'] },
    'image_urls',
    'not supported by imgmodel-2.5-sunburst',
  ],
  [
    'image_urls with imgmodel-2.5-flare',
    { model: 'imgmodel-2.5-flare', image_urls: ['https://example.com/a.png'] },
    'image_urls',
    'images.edit',
  ],
  ['image_urls with a data URL', { image_urls: ['data:image/png;base64,AAAA'] }, 'image_urls[0]', 'upload'],
  ['image_urls as a string', { image_urls: 'https://example.com/a.png' }, 'image_urls', 'must be an array'],
];

describe.each(generateOps)('%s refuses', (operation, parse) => {
  test.each([
    ...sharedRefusals,
    ['an image field', { image: 'https://example.com/a.png' }, 'image', 'call images.edit'],
    ['an images field', { images: ['https://example.com/a.png'] }, 'images', 'call images.edit'],
    ['an image field set to null', { image: null }, 'image', 'fileFromPath'],
  ])('%s', (_, over, path, fragment) => {
    expect(issuesOf(parse, gen(over))).toEqual([{ path, message: expect.stringContaining(fragment) }]);
  });

  test('the error names the operation and says nothing was sent', () => {
    expect(() => parse(gen({ n: 0 }))).toThrow(`${operation} was not sent`);
  });
});

describe.each(generateOps)('%s accepts', (_, parse) => {
  test.each([
    ['each model', IMAGE_MODELS.map((model) => gen({ model }))],
    ['n and size', [gen({ n: 4, size: '1536x1024' })]],
    // spec: `size` is "Pixel dimensions such as <W>x<H>; supported values depend on route".
    ['size as a word the route supports', [gen({ size: 'auto' }), gen({ size: 'match_input' })]],
    [
      'the optional fields',
      [
        gen({
          resolution: '2k',
          quality: 'high',
          background: 'transparent',
          output_format: 'webp',
          output_compression: 80,
        }),
      ],
    ],
    [
      'image_urls with imgmodel-2',
      [gen({ image_urls: ['https://example.com/a.png', 'http://example.com/b.jpg'] })],
    ],
    [
      'the route fields nsfw_check and response_format',
      [gen({ nsfw_check: true, response_format: 'b64_json' })],
    ],
    ['a field set to undefined (JSON leaves it out)', [gen({ style: undefined })]],
  ])('%s', (__, requests) => {
    for (const request of requests) expect(parse(request)).toEqual(request);
  });
});

describe('notifications on generation', () => {
  test.each([
    ['notifications', { notifications }, 'notifications', 'images.generateAsync'],
    ['client_reference_id', { client_reference_id: 'x' }, 'client_reference_id', 'produces no task events'],
  ])('images.generate refuses %s (synchronous routes produce no task events)', (_, over, path, fragment) => {
    expect(issuesOf(parseImageGenerateParams, gen(over))).toEqual([
      { path, message: expect.stringContaining(fragment) },
    ]);
  });

  test('images.generateAsync accepts notifications and client_reference_id', () => {
    const request = gen({ notifications, client_reference_id: 'order-1' });
    expect(parseImageGenerateAsyncParams(request)).toEqual(request);
  });
});

const asyncAdditionRefusals: Array<[string, Record<string, unknown>, string, string]> = [
  [
    'client_reference_id over 128 bytes',
    { client_reference_id: 'é'.repeat(65) },
    'client_reference_id',
    '128 bytes',
  ],
  [
    'notifications with legacy webhook',
    { notifications, webhook: 'https://example.com/hook' },
    'notifications',
    'legacy `webhook`',
  ],
  [
    'notifications with callback_url',
    { notifications, callback_url: 'https://example.com/hook' },
    'notifications',
    'legacy `callback_url`',
  ],
  ['notifications without webhook', { notifications: {} }, 'notifications.webhook', ''],
  [
    'an unknown event',
    { notifications: { webhook: { endpoint_id: 'whep_1', events: ['task.done'] } } },
    'notifications.webhook.events[0]',
    'must be one of',
  ],
  [
    'an empty endpoint_id',
    { notifications: { webhook: { endpoint_id: '', events: [] } } },
    'notifications.webhook.endpoint_id',
    'verified webhook endpoint',
  ],
  ['notifications as a JSON string', { notifications: JSON.stringify(notifications) }, 'notifications', ''],
];

describe('task additions', () => {
  test.each(asyncAdditionRefusals)('images.generateAsync refuses %s', (_, over, path, fragment) => {
    expect(issuesOf(parseImageGenerateAsyncParams, gen(over))).toEqual([
      { path, message: expect.stringContaining(fragment) },
    ]);
  });

  test.each(asyncAdditionRefusals)('images.editAsync refuses %s', (_, over, path, fragment) => {
    expect(issuesOf(parseImageEditAsyncParams, edit(over))).toEqual([
      { path, message: expect.stringContaining(fragment) },
    ]);
  });

  test.each([
    ['client_reference_id of exactly 128 bytes', { client_reference_id: 'é'.repeat(64) }],
    ['a legacy webhook alone (passed through)', { webhook: 'https://example.com/hook' }],
    [
      'every subscribable event',
      {
        notifications: {
          webhook: { endpoint_id: 'whep_1', events: ['task.completed', 'task.failed', 'batch.completed'] },
        },
      },
    ],
  ])('accept %s', (_, over) => {
    expect(parseImageGenerateAsyncParams(gen(over))).toEqual(gen(over));
    expect(parseImageEditAsyncParams(edit(over))).toMatchObject(over);
  });
});

describe.each(editOps)('%s refuses', (_, parse) => {
  test.each([
    ...sharedRefusals,
    ['a missing image', { image: undefined }, 'image', 'is required'],
    ['an empty image list', { image: [] }, 'image', 'at least one file'],
    [
      'a path string as image',
      { image: './cat.png' },
      'image',
      'fileFromPath(path), await fileFromURL(url) or fileFromBase64',
    ],
    [
      'a URL in the image list',
      { image: [png(1, 1), 'https://example.com/a.png'] },
      'image[1]',
      'fileFromURL',
    ],
    ['an object as image', { image: { path: 'x' } }, 'image', 'must be one file or an array of files'],
    ['a number in the image list', { image: [7] }, 'image[0]', 'must be a file'],
    ['an images field', { images: [png(1, 1)] }, 'images', 'pass the files as image'],
    ['a string mask', { mask: 'mask.png' }, 'mask', 'fileFromPath'],
    [
      'a mask with imgmodel-2.5-sunburst',
      { model: 'imgmodel-2.5-sunburst', mask: png(8, 8) },
      'mask',
      'only imgmodel-2 takes a mask',
    ],
    [
      'a mask with imgmodel-2.5-flare',
      { model: 'imgmodel-2.5-flare', mask: png(8, 8) },
      'mask',
      'rejects mask files',
    ],
  ])('%s', (__, over, path, fragment) => {
    expect(issuesOf(parse, edit(over))).toEqual([{ path, message: expect.stringContaining(fragment) }]);
  });
});

describe.each(editOps)('%s accepts', (_, parse) => {
  test.each([
    ['one Buffer', { image: png(2, 2) }],
    [
      'several files of different kinds',
      { image: [png(2, 2), new Blob([jpeg(1, 1)]), new Uint8Array(4).buffer] },
    ],
    ['a web ReadableStream', { image: new ReadableStream() }],
    ['a mask with imgmodel-2', { mask: png(8, 8) }],
    ['each 2.5 model without a mask', { model: 'imgmodel-2.5-flare', image: [png(1, 1), png(1, 1)] }],
    ['n, size and the optional fields', { n: 3, size: '512x512', quality: 'high', output_format: 'png' }],
  ])('%s', (__, over) => {
    const request = edit(over);
    expect(parse(request)).toEqual(request);
  });
});

test('images.edit refuses notifications (synchronous edits produce no task events)', () => {
  expect(issuesOf(parseImageEditParams, edit({ notifications }))).toEqual([
    { path: 'notifications', message: expect.stringContaining('use images.editAsync') },
  ]);
});

test('isImageModel25', () => {
  expect(IMAGE_MODELS.map(isImageModel25)).toEqual([false, true, true]);
});

describe('checkEditFiles', () => {
  const files = async (image: Uint8Array | Uint8Array[], mask?: Uint8Array) => ({
    image: Array.isArray(image)
      ? await Promise.all(image.map((b, i) => toUploadFile(b, `image[${i}]`)))
      : await toUploadFile(image, 'image'),
    mask: mask ? await toUploadFile(mask, 'mask') : undefined,
  });

  test.each([
    ['a JPEG mask', png(8, 8), jpeg(8, 8), 'mask', 'this file is a JPEG image'],
    [
      'an RGB PNG mask',
      png(8, 8),
      png(8, 8, { colorType: 2 }),
      'mask',
      'must be a PNG with an alpha channel',
    ],
    ['a grey PNG mask', png(8, 8), png(8, 8, { colorType: 0 }), 'mask', 'this PNG has none'],
    ['a mask smaller than the image', png(16, 16), png(8, 8), 'mask', 'same dimensions as image (16x16)'],
    [
      'a mask of another size than image[0]',
      [jpeg(20, 10), png(5, 5)],
      png(5, 5),
      'mask',
      'image[0] (20x10)',
    ],
  ])('refuses %s', async (_, image, mask, path, fragment) => {
    const error = await checkEditFiles(await files(image, mask), 'images.editAsync').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).message).toContain('images.editAsync was not sent');
    expect((error as RequestValidationError).issues).toEqual([
      { path, message: expect.stringContaining(fragment) },
    ]);
  });

  test.each([
    ['text as the one image', Buffer.from('just some text'), 'image', 'by its bytes'],
    ['an empty image', new Uint8Array(0), 'image', 'must not be empty'],
    ['a video among several', [png(8, 8), mp4Video()], 'image[1]', 'JPEG, PNG, GIF or WebP image'],
    ['a PDF first', [Buffer.from('%PDF-1.7\n'), jpeg(8, 8)], 'image[0]', 'JPEG, PNG, GIF or WebP image'],
  ])('refuses %s, without a mask too', async (_, image, path, fragment) => {
    const error = await checkEditFiles(await files(image), 'images.edit').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).message).toContain('images.edit was not sent');
    expect((error as RequestValidationError).issues).toEqual([
      { path, message: expect.stringContaining(fragment) },
    ]);
  });

  test('every file that is not an image and a bad mask are named in one error', async () => {
    const error = await checkEditFiles(
      await files([Buffer.from('a'), png(8, 8), Buffer.from('b')], jpeg(8, 8)),
    ).catch((e: unknown) => e);
    expect((error as RequestValidationError).issues.map((i) => i.path)).toEqual([
      'image[0]',
      'image[2]',
      'mask',
    ]);
  });

  test('a mask that is neither PNG with alpha nor the right size gets both issues', async () => {
    const error = await checkEditFiles(await files(png(16, 16), png(8, 8, { colorType: 2 }))).catch(
      (e: unknown) => e,
    );
    expect((error as RequestValidationError).issues.map((i) => i.path)).toEqual(['mask', 'mask']);
  });

  test.each([
    ['no mask', png(8, 8), undefined],
    ['an RGBA mask of equal size', png(8, 8), png(8, 8)],
    ['a tRNS palette mask of equal size', jpeg(8, 8), png(8, 8, { colorType: 3, trns: true })],
    ['an input whose size cannot be read', png(8, 8).subarray(0, 12), png(8, 8)],
    [
      'a PNG mask whose alpha cannot be told (no IDAT in the bytes)',
      png(8, 8),
      png(8, 8, { colorType: 2, idat: false }),
    ],
  ])('accepts %s', async (_, image, mask) => {
    await expect(checkEditFiles(await files(image, mask))).resolves.toBeUndefined();
  });
});

// spec: Images lists the fields of each image route, and says of none that other fields pass
// through (unlike the Midjourney-family route): a field outside the list is refused by name.
describe('unknown fields', () => {
  const ops: Array<[string, Parse, (over: Record<string, unknown>) => Record<string, unknown>]> = [
    ['images.generate', parseImageGenerateParams, gen],
    ['images.generateAsync', parseImageGenerateAsyncParams, gen],
    ['images.edit', parseImageEditParams, edit],
    ['images.editAsync', parseImageEditAsyncParams, edit],
  ];

  test.each(ops)('%s refuses a misspelt field, naming it and the field meant', (operation, parse, build) => {
    expect(issuesOf(parse, build({ sise: '1024x1024' }))).toEqual([
      { path: 'sise', message: `is not a field of ${operation}; did you mean size?` },
    ]);
    expect(issuesOf(parse, build({ Quality: 'high' }))).toEqual([
      { path: 'Quality', message: `is not a field of ${operation}; did you mean quality?` },
    ]);
  });

  test.each(ops)(
    '%s refuses a field no image route takes, listing those it takes',
    (operation, parse, build) => {
      expect(issuesOf(parse, build({ style: 'vivid' }))).toEqual([
        {
          path: 'style',
          message: expect.stringContaining(`is not a field of ${operation} (it takes model, prompt, n, size`),
        },
      ]);
    },
  );

  test('a typo is reported beside the other broken rules', () => {
    expect(issuesOf(parseImageGenerateParams, gen({ prompt: '', n: 0, seze: '1x1' }))).toEqual([
      { path: 'prompt', message: 'must not be empty' },
      { path: 'n', message: expect.stringContaining('positive integer') },
      { path: 'seze', message: 'is not a field of images.generate; did you mean size?' },
    ]);
  });

  test('the fields refused with a message of their own are not reported twice', () => {
    expect(issuesOf(parseImageGenerateParams, gen({ images: ['https://example.com/a.png'] }))).toEqual([
      { path: 'images', message: expect.stringContaining('attaches no file') },
    ]);
    expect(issuesOf(parseImageGenerateParams, gen({ client_reference_id: 'x' }))).toEqual([
      { path: 'client_reference_id', message: expect.stringContaining('produces no task events') },
    ]);
  });

  test('the legacy webhook parameters are task fields: refused on the synchronous routes', () => {
    expect(issuesOf(parseImageGenerateParams, gen({ callback_url: 'https://example.com/hook' }))).toEqual([
      { path: 'callback_url', message: expect.stringContaining('is not a field of images.generate') },
    ]);
    expect(parseImageGenerateAsyncParams(gen({ callback_url: 'https://example.com/hook' }))).toMatchObject({
      callback_url: 'https://example.com/hook',
    });
  });
});
