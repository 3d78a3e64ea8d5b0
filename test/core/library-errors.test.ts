// Covers: src/core/errors/api.ts
import { describe, expect, test } from 'vitest';
import {
  APIError,
  BadRequestError,
  ConflictError,
  ContentModerationError,
  InternalServerError,
  MediaLibraryError,
  NotFoundError,
} from '../../src/core/errors.js';

const init = (status: number, body: unknown) => ({
  status,
  body,
  headers: {},
  requestId: 'req_1',
  operation: 'GET /v1/vidmodel2/private-avatar/assets',
});
const library = (message: string) => ({ error: { message, type: 'media_library_error' } });

// spec: Errors — library errors carry `{error: {message, type: media_library_error}}` under the
// status of the condition: 400 input error, 404 unknown material, 409 not ready, 502/503 review.
describe('a library error is also the error of its status', () => {
  test.each([
    [400, BadRequestError, 'invalid_asset_material: assets[2] url unreachable', 2],
    [404, NotFoundError, 'invalid_asset_material: asset asset_1 not found', undefined],
    [409, ConflictError, 'invalid_asset_material: assets[0] is Pending', 0],
    [503, InternalServerError, 'invalid_asset_material: review service unavailable', undefined],
  ] as const)('%i is a MediaLibraryError and a %o', (status, cls, message, assetIndex) => {
    const error = APIError.fromResponse(init(status, library(message)));
    expect(error).toBeInstanceOf(MediaLibraryError);
    expect(error).toBeInstanceOf(cls);
    expect(error).toBeInstanceOf(APIError);
    expect(error.status).toBe(status);
    expect(error.name).toBe('MediaLibraryError');
    expect((error as MediaLibraryError).assetIndex).toBe(assetIndex);
    expect(error.toJSON()).toMatchObject({ name: 'MediaLibraryError', status, assetIndex });
  });

  test.each([
    [404, NotFoundError, { code: 'not_found', message: 'no such task', data: null }],
    [400, BadRequestError, { code: 'invalid_request', message: 'bad', data: null }],
    [400, ContentModerationError, { code: 'nsfw_content_detected', message: 'flagged: hate', data: null }],
  ] as const)('another %i body is a %o, not a MediaLibraryError', (status, cls, body) => {
    const error = APIError.fromResponse(init(status, body));
    expect(error).toBeInstanceOf(cls);
    expect(error).not.toBeInstanceOf(MediaLibraryError);
    expect(error).not.toHaveProperty('assetIndex');
  });
});
