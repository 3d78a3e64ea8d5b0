import fc from 'fast-check';
import { SUBSCRIBABLE_EVENTS } from '../../../src/schemas/shared/constants.js';
import { utf8Length } from '../../../src/schemas/shared/fast-rules.js';

/**
 * IDs that exist on the mock gateway the samples are sent to, so that a valid request is also
 * one the mock accepts (a verified endpoint, an existing group, a succeeded preview...).
 */
export interface Fixtures {
  /** Verified, enabled webhook endpoints of the sending account, for `notifications`. */
  endpointIds: readonly string[];
  /** Other endpoints of the sending account, which requests may pause and resume. */
  spareEndpointIds: readonly string[];
  /** Groups of the sending account. */
  groupIds: readonly string[];
  /** `Active` materials of the sending account. */
  assetIds: readonly string[];
  /** Succeeded `vidmodel-2.5` previews of the sending account, under 7 days old. */
  previewIds: readonly string[];
  /** Tasks of the sending account. */
  taskIds: readonly string[];
}

/** A field that may be left out: `fc.record` leaves a key out when its value is this. */
export const OMIT = Symbol('omit');

/** `arb` or nothing, for optional fields; see {@link compact}. */
export function maybe<T>(arb: fc.Arbitrary<T>): fc.Arbitrary<T | typeof OMIT> {
  return fc.oneof({ arbitrary: fc.constant(OMIT), weight: 1 }, { arbitrary: arb, weight: 1 });
}

/** Drops the fields whose value is {@link OMIT}. */
export function compact<T extends Record<string, unknown>>(record: T): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) if (value !== OMIT) out[key] = value;
  return out;
}

const WORDS = [
  'kite',
  'harbour',
  'lighthouse',
  'fox',
  'snow',
  'dusk',
  'river',
  'paper',
  'crane',
  'slow pan',
  '灯塔',
  '夕阳',
  'café',
  'ночь',
  '🌊',
  'naïve',
  '"quoted"',
  'back\\slash',
  'tab\there',
  'new\nline',
];

/** Free text that holds no prompt reference (`@`) and no mock trigger (`mock:`). */
const freeText = fc
  .string({ unit: 'grapheme', minLength: 1, maxLength: 40 })
  .filter((s) => s.trim().length > 0 && !s.includes('@') && !/mock/i.test(s));

/** A non-blank prompt without references. */
export const prompt = fc.oneof(
  fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 8 }).map((words) => words.join(' ')),
  freeText,
);

/** Any string (for free-text fields with no rule), kept short. */
export const anyText = fc.string({ unit: 'grapheme', maxLength: 30 }).filter((s) => !/mock/i.test(s));

/** A public http(s) URL. */
export const httpUrl = fc
  .webUrl({ validSchemes: ['http', 'https'], withQueryParameters: true, withFragments: true })
  .filter((url) => !/mock/i.test(url) && url.length <= 2000);

/** An `asset://` reference. */
export const assetRef = fc.stringMatching(/^[a-z0-9_]{4,24}$/).map((id) => `asset://asset_${id}`);

/** A media reference: an http(s) URL or an `asset://` reference. */
export const mediaRef = fc.oneof({ arbitrary: httpUrl, weight: 3 }, { arbitrary: assetRef, weight: 1 });

/**
 * A media reference a valid request may send to the mock: an http(s) URL or one of the fixtures'
 * `Active` materials (the mock refuses unknown, foreign and non-Active ones, as the gateway does).
 */
export function mediaRefOf(fixtures: Fixtures): fc.Arbitrary<string> {
  const asset = fc.constantFrom(...fixtures.assetIds.map((id) => `asset://${id}`));
  return fc.oneof({ arbitrary: httpUrl, weight: 3 }, { arbitrary: asset, weight: 1 });
}

/** A data URL, which no media field accepts. */
export const inlineData = fc.constantFrom(
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  '/home/me/picture.png',
  'ftp://files.example.com/a.png',
);

/** `notifications` naming one of the fixtures' verified endpoints. */
export function notifications(fixtures: Fixtures) {
  return fc.record({
    webhook: fc.record({
      endpoint_id: fc.constantFrom(...fixtures.endpointIds),
      events: fc.subarray([...SUBSCRIBABLE_EVENTS], { minLength: 1 }),
    }),
  });
}

/** A `client_reference_id` of at most 128 bytes of UTF-8, the limits included. */
export const clientReferenceId = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 40 }).filter((s) => utf8Length(s) <= 128),
  fc.constantFrom('a'.repeat(128), 'é'.repeat(64), '🌊'.repeat(32), ''),
);

/** Extra fields the SDK passes through unchanged (the spec lets routes take more fields). */
export const extraFields = fc.dictionary(
  fc.stringMatching(/^x_[a-z]{1,8}$/),
  fc.oneof(fc.integer(), fc.boolean(), anyText, fc.constant(null)),
  { maxKeys: 2 },
);

/** One value picked from `values`, by fast-check. */
export const oneOf = <T>(...values: T[]) => fc.constantFrom(...values);

/** Text of exactly `count` code points (some of them outside the BMP). */
export function codePoints(count: number): string {
  return '🌊'.repeat(Math.floor(count / 2)) + 'a'.repeat(count - Math.floor(count / 2));
}
