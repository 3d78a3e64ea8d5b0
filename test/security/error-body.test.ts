// Covers: src/core/errors/api.ts
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  APIError,
  type APIErrorInit,
  ContentModerationError,
  type MediaLibraryError,
} from '../../src/core/errors.js';
import { PROPERTY_SEED } from '../reliability/property-settings.js';
import { expectLinear } from './linear-time.js';

const answer = (body: unknown, status = 400): APIErrorInit => ({
  status,
  body,
  headers: {},
  requestId: 'req_1',
  operation: 'POST /v1/videos/generations',
});
const moderation = (message: string) =>
  APIError.fromResponse(answer({ code: 'nsfw_content_detected', message, data: null }));

// Texts a hostile or broken gateway could send: long runs of the characters the category
// parser trims or splits on, with something else at the end so no pattern matches early.
const ADVERSARIAL: ReadonlyArray<[string, (n: number) => string]> = [
  ['dots', (n) => `Flagged: a${'.'.repeat(n)}a`],
  ['dots, no colon', (n) => `a${'.'.repeat(n)}a`],
  ['brackets and quotes', (n) => `: ${'[\'"`'.repeat(n / 4)}x`],
  ['spaces', (n) => `:${' '.repeat(n)}x`],
  ['separators', (n) => `:${',|'.repeat(n / 2)}`],
  ['"and" without word breaks', (n) => `:${'andand'.repeat(n / 6)}x`],
  ['colons', (n) => ':'.repeat(n)],
  ['assets[ digits', (n) => `invalid_asset_material assets[${'9'.repeat(n)}`],
];

/** The three body shapes of spec: Errors, each carrying `message`. */
const SHAPES: ReadonlyArray<[string, (message: string) => APIErrorInit]> = [
  ['moderation {code, message}', (m) => answer({ code: 'nsfw_content_detected', message: m, data: null })],
  ['library {error: {message, type}}', (m) => answer({ error: { message: m, type: 'media_library_error' } })],
  ['plain text', (m) => answer(m, 502)],
];

describe('parsing an error body takes time linear in its size', () => {
  test.each(ADVERSARIAL)('a moderation message of %s', (_, text) => {
    expectLinear(text, (message) => moderation(message), { n: 16_384 });
  });

  test.each(SHAPES)('a 1 MiB adversarial body as %s is parsed at once', (_, shape) => {
    for (const [, text] of ADVERSARIAL) {
      const init = shape(text(1 << 20));
      // Very loose: the old parser took minutes on this input, the linear one about a millisecond.
      const started = performance.now();
      const error = APIError.fromResponse(init);
      expect(performance.now() - started).toBeLessThan(2_000);
      expect(error.message.length).toBeLessThan(1_000);
    }
  });
});

describe('the category parser still reads what the gateway sends', () => {
  test.each([
    ['Flagged categories: sexual, violence and hate', ['sexual', 'violence', 'hate']],
    ['Flagged: [\'sexual\', "violence"].', ['sexual', 'violence']],
    ['Content flagged: self-harm | weapons.', ['self-harm', 'weapons']],
    ['Flagged categories: [ "violence" ]', ['violence']],
    ['flagged', ['flagged']],
    ['Flagged:', []],
  ])('%j → %j', (message, categories) => {
    const error = moderation(message);
    expect(error).toBeInstanceOf(ContentModerationError);
    expect((error as ContentModerationError).categories).toEqual(categories);
  });

  test('a long list is cut at 64 categories, read from the first 4096 characters', () => {
    const many = moderation(`Flagged: ${Array.from({ length: 500 }, (_, i) => `c${i}`).join(', ')}`);
    expect((many as ContentModerationError).categories).toHaveLength(64);
    const late = moderation(`Flagged: ${' '.repeat(5_000)}violence`);
    expect((late as ContentModerationError).categories).toEqual([]);
  });

  test('any message gives a list of short, trimmed, non-empty names', () => {
    const alphabet = fc.constantFrom(...'.,|:[]"\'` and violence'.split(''));
    fc.assert(
      fc.property(fc.string({ unit: alphabet, maxLength: 300 }), (message) => {
        const { categories } = moderation(message) as ContentModerationError;
        expect(categories.length).toBeLessThanOrEqual(64);
        for (const name of categories) {
          expect(name.length).toBeGreaterThan(0);
          expect(name.length).toBeLessThan(64);
          expect(name).toBe(name.trim());
          expect(name).not.toMatch(/^["'`[\]]|["'`[\].]$/);
        }
      }),
      { seed: PROPERTY_SEED, numRuns: 500 },
    );
  });

  test('a library message still names its asset', () => {
    const error = APIError.fromResponse(
      answer({
        error: { message: 'invalid_asset_material: assets[3] is not an image', type: 'media_library_error' },
      }),
    );
    expect((error as MediaLibraryError).assetIndex).toBe(3);
  });
});
