// Covers: src/schemas/images/fast.ts, src/schemas/library/fast.ts, src/schemas/video/2-5-fast.ts
/**
 * The plain checks that let valid requests through without zod (schemas/*-plain.ts) may only
 * ever defer to the schema: every body one lets through, the schema accepts, unchanged. These
 * hold them to that both ways, on valid requests, on requests with one rule broken, and on
 * requests near the rules with any value anywhere.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { z } from 'zod';
import { largestV25Request } from '../../bench/validation.js';
import { largestAssetSubmitRequest, largestImageRequest } from '../../bench/validation-cold.js';
import { plainImageGenerateRequest } from '../../src/schemas/images/fast.js';
import { imageGenerateAsyncSchema, imageGenerateSchema } from '../../src/schemas/images/requests.js';
import { plainAssetSubmitRequest, plainGroupCreateRequest } from '../../src/schemas/library/fast.js';
import { assetSubmitSchema, groupCreateSchema } from '../../src/schemas/library/index.js';
import { checkParams } from '../../src/schemas/shared/validate.js';
import { plainVideo25Request } from '../../src/schemas/video/2-5-fast.js';
import { videoRequestSchema } from '../../src/schemas/video/index.js';
import type { Fixtures } from '../reliability/arbitraries/common.js';
import { imageGenerate, imageGenerateRules } from '../reliability/arbitraries/images.js';
import {
  assetSubmit,
  assetSubmitRules,
  groupCreate,
  groupCreateRules,
} from '../reliability/arbitraries/management.js';
import { type Body, mutations, type Rule } from '../reliability/arbitraries/rules.js';
import {
  video25,
  video25PreviewRules,
  video25Rules,
  video25Upgrade,
} from '../reliability/arbitraries/video-25.js';
import { PROPERTY_RUNS, PROPERTY_SEED } from '../reliability/property-settings.js';

const settings = { seed: PROPERTY_SEED, numRuns: PROPERTY_RUNS };

const fixtures: Fixtures = {
  endpointIds: ['whep_a', 'whep_b'],
  spareEndpointIds: ['whep_c'],
  groupIds: ['grp_1'],
  assetIds: ['asset_1', 'asset_2'],
  previewIds: ['task_preview_1'],
  taskIds: ['task_1'],
};

interface Case {
  name: string;
  plain: (params: unknown) => unknown;
  schema: z.ZodType;
  valid: fc.Arbitrary<Body>;
  rules: Rule[];
  largest: Body;
  /** Share of valid requests (as the arbitrary makes them) the plain check must let through. */
  through: number;
  /** Valid requests without the fields the plain check leaves to the schema: it lets all through. */
  plainValid: fc.Arbitrary<Body>;
}

/** Drops the extra fields the arbitraries add (`x_...`), which only the schema passes through. */
const withoutExtras = (body: Body): Body =>
  Object.fromEntries(Object.entries(body).filter(([key]) => !key.startsWith('x_')));

const VIDEO_ALIASES = [
  'first_frame_image',
  'last_frame_image',
  'seconds',
  'images',
  'image',
  'input_reference',
  'video_list',
];

const CASES: Case[] = [
  {
    name: 'vidmodel-2.5 (videos.create)',
    plain: plainVideo25Request,
    schema: videoRequestSchema,
    valid: video25(fixtures, 'ordinary'),
    rules: video25Rules(fixtures),
    largest: largestV25Request(),
    // The arbitrary adds aliases, `size` and extra fields to many requests; those go to the schema.
    through: 0.01,
    plainValid: video25(fixtures, 'ordinary')
      .filter((body) => !VIDEO_ALIASES.some((alias) => alias in body))
      .map((body) => {
        const { size, ...rest } = withoutExtras(body);
        return rest;
      }),
  },
  {
    name: 'images.generate',
    plain: (params) => plainImageGenerateRequest(params, false),
    schema: imageGenerateSchema,
    valid: imageGenerate(fixtures, false),
    rules: imageGenerateRules(fixtures, false),
    largest: (({ notifications, client_reference_id, ...body }) => body)(largestImageRequest()),
    through: 0.2,
    plainValid: imageGenerate(fixtures, false).map(withoutExtras),
  },
  {
    name: 'images.generateAsync',
    plain: (params) => plainImageGenerateRequest(params, true),
    schema: imageGenerateAsyncSchema,
    valid: imageGenerate(fixtures, true),
    rules: imageGenerateRules(fixtures, true),
    largest: largestImageRequest(),
    through: 0.2,
    plainValid: imageGenerate(fixtures, true).map(withoutExtras),
  },
  {
    name: 'library.groups.create',
    plain: plainGroupCreateRequest,
    schema: groupCreateSchema,
    valid: groupCreate(),
    rules: groupCreateRules(),
    largest: { model: 'vidmodel-2.5', name: 'n'.repeat(255), description: 'd'.repeat(4000) },
    through: 0.9,
    plainValid: groupCreate(),
  },
  {
    name: 'library.assets.submit',
    plain: plainAssetSubmitRequest,
    schema: assetSubmitSchema,
    valid: assetSubmit(fixtures),
    rules: assetSubmitRules(fixtures),
    largest: largestAssetSubmitRequest(),
    through: 0.9,
    plainValid: assetSubmit(fixtures),
  },
];

/** The body the schema returns for `params`, or the issues it finds. */
function schemaSays(schema: z.ZodType, params: unknown): unknown {
  const result = schema.safeParse(params);
  return result.success ? result.data : checkParams(schema, params);
}

/** Asserts what the plain check may do with `params`: defer, or agree with the schema exactly. */
function holdsToSchema(c: Case, params: unknown): boolean {
  const before = structuredClone(params);
  const body = c.plain(params);
  expect(params).toEqual(before); // the caller's object is left as it was
  if (body === undefined) return false;
  expect(checkParams(c.schema, params)).toEqual([]);
  expect(body).toEqual(schemaSays(c.schema, params));
  expect(body).not.toBe(params);
  return true;
}

/** A valid value most of the time, else anything at all. */
const mostly = (valid: fc.Arbitrary<unknown>) =>
  fc.oneof({ arbitrary: valid, weight: 6 }, { arbitrary: fc.anything(), weight: 1 });

/**
 * Valid requests with some of their fields (and some items of their lists) swapped for anything,
 * deleted, or set to `undefined`: the edges of every field's rule.
 */
function nearRequests(valid: fc.Arbitrary<Body>): fc.Arbitrary<Body> {
  return fc
    .tuple(valid, fc.array(fc.tuple(fc.nat(), mostly(fc.constant(undefined)), fc.nat(3)), { maxLength: 3 }))
    .map(([body, edits]) => {
      const out: Body = structuredClone(body);
      const keys = Object.keys(out);
      for (const [at, value, how] of edits) {
        const key = keys[at % Math.max(keys.length, 1)];
        if (key === undefined) continue;
        const current = out[key];
        if (how === 0) delete out[key];
        else if (how === 1 && Array.isArray(current) && current.length > 0) {
          current[at % current.length] = value;
        } else out[key] = value;
      }
      return out;
    });
}

describe.each(CASES.map((c) => [c.name, c] as const))('the plain check of %s', (_, c) => {
  test('lets the largest legal request through, as a copy the schema accepts unchanged', () => {
    expect(holdsToSchema(c, c.largest)).toBe(true);
    expect(c.plain(c.largest)).toEqual(c.largest);
  });

  test(`the schema accepts, unchanged, every valid request it lets through (${PROPERTY_RUNS} requests)`, () => {
    let through = 0;
    fc.assert(
      fc.property(c.valid, (params) => {
        if (holdsToSchema(c, params)) through++;
      }),
      settings,
    );
    // The property is worth something only if enough requests reach the comparison.
    expect(through).toBeGreaterThan(PROPERTY_RUNS * c.through);
  });

  test('it lets through every valid request without the fields it leaves to the schema, as it is', () => {
    fc.assert(
      fc.property(c.plainValid, (params) => {
        expect(c.plain(params)).toEqual(params);
      }),
      settings,
    );
  });

  test('it lets through no request that breaks a rule', () => {
    fc.assert(
      fc.property(mutations(c.valid, c.rules), ({ input, rule }) => {
        expect(c.plain(input), rule).toBeUndefined();
      }),
      settings,
    );
  });

  test(`the schema accepts, unchanged, every near-rule request it lets through (${PROPERTY_RUNS} requests)`, () => {
    fc.assert(
      fc.property(nearRequests(c.valid), (params) => {
        holdsToSchema(c, params);
      }),
      settings,
    );
  });
});

describe('the plain check of vidmodel-2.5 leaves to the schema', () => {
  test('previews, upgrades and their rules', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          video25(fixtures, 'preview'),
          video25Upgrade(fixtures),
          mutations(video25(fixtures, 'preview'), video25PreviewRules(fixtures)).map((m) => m.input as Body),
        ),
        (params) => {
          expect(plainVideo25Request(params)).toBeUndefined();
        },
      ),
      settings,
    );
  });

  test.each([
    ['another model', { model: 'vidmodel-2.0-mini', prompt: 'a kite' }],
    ['an input alias', { model: 'vidmodel-2.5', prompt: 'a kite', seconds: 5 }],
    [
      'a frame alias',
      { model: 'vidmodel-2.5', prompt: 'a kite', first_frame_image: 'https://a.example/x.png' },
    ],
    ['an unknown field', { model: 'vidmodel-2.5', prompt: 'a kite', x_trace: 1 }],
    [
      'a class instance',
      Object.assign(new (class Request {})(), { model: 'vidmodel-2.5', prompt: 'a kite' }),
    ],
    ['a prompt naming an absent image', { model: 'vidmodel-2.5', prompt: '@图片1 in the rain' }],
    [
      'a role item with an extra key',
      {
        model: 'vidmodel-2.5',
        prompt: 'x',
        image_with_roles: [{ url: 'https://a.example/x.png', role: 'reference_image', w: 1 }],
      },
    ],
    ['a seed past the safe integers', { model: 'vidmodel-2.5', prompt: 'x', seed: 2 ** 60 }],
    ['null', null],
  ])('%s', (_, params) => {
    expect(plainVideo25Request(params)).toBeUndefined();
  });
});
