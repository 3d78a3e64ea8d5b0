// Covers: error body parsing under hostile input (src/core/errors/api.ts)
/**
 * Any error answer becomes an APIError: no status and no body (parsed JSON of any shape, or
 * text) makes `APIError.fromResponse` throw, its message stays short, and parsing it grows
 * linearly with the body.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { APIError, ContentModerationError, MediaLibraryError } from '../../src/core/errors.js';
import { expectLinear } from '../security/linear-time.js';
import { hostileJson, hostileString, shaped } from './hostile-json.js';
import { FUZZ_SHAPES, fuzz } from './settings.js';

const OPERATION = 'POST /v1/videos/generations';
const fromResponse = (status: number, body: unknown) =>
  APIError.fromResponse({ status, body, headers: {}, requestId: 'req_1', operation: OPERATION });

// spec: Errors, Body shapes — the three the gateway sends, every field open to hostile values.
const errorBody = fc.oneof(
  shaped({ code: 'nsfw_content_detected', message: 'Flagged categories: sexual, violence', data: null }),
  shaped({ code: 'invalid_request', message: 'bad field', data: null }),
  shaped({
    error: { message: 'invalid_asset_material: assets[2] is not an image', type: 'media_library_error' },
  }),
  hostileString,
  hostileJson,
);
const status = fc.oneof(
  fc.constantFrom(400, 401, 403, 404, 409, 410, 413, 429, 500, 502, 503),
  fc.integer({ min: 100, max: 599 }),
);

describe('APIError.fromResponse', () => {
  test('builds an APIError for any status and body, with a bounded message', () => {
    fc.assert(
      fc.property(status, errorBody, (code, body) => {
        const error = fromResponse(code, body);
        expect(error).toBeInstanceOf(APIError);
        expect(error.status).toBe(code);
        expect(error.body).toBe(body);
        expect(error.message.startsWith(`${OPERATION} failed with ${code}`)).toBe(true);
        expect(error.message.length).toBeLessThan(OPERATION.length + 700 + (error.code?.length ?? 0));
        expect(() => JSON.stringify(error.toJSON())).not.toThrow();
        if (error instanceof ContentModerationError) {
          expect(error.categories.length).toBeLessThanOrEqual(64);
          for (const name of error.categories) expect(name.length).toBeLessThan(64);
        }
        if (error instanceof MediaLibraryError && error.assetIndex !== undefined) {
          expect(Number.isInteger(error.assetIndex)).toBe(true);
        }
      }),
      fuzz(),
    );
  });

  test('parsing grows linearly: any short pattern, repeated, as a moderation or library message', () => {
    fc.assert(
      fc.property(
        hostileString.filter((s) => s.length > 0 && s.length < 16),
        fc.boolean(),
        (unit, library) => {
          const build = (n: number) => {
            const message = unit.repeat(Math.ceil(n / unit.length));
            return library
              ? { error: { message, type: 'media_library_error' } }
              : { code: 'nsfw_content_detected', message, data: null };
          };
          expectLinear(build, (body) => fromResponse(400, body), { n: 16_384, floorMs: 100 });
        },
      ),
      fuzz(FUZZ_SHAPES),
    );
  });
});
