// Covers: src/core/errors.ts
import { describe, expect, test } from 'vitest';
import {
  APIError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  ContentModerationError,
  InternalServerError,
  MediaExpiredError,
  MediaGatewayError,
  MediaLibraryError,
  NotFoundError,
  PayloadTooLargeError,
  PermissionDeniedError,
  ProgressCallbackError,
  parseRetryAfter,
  RateLimitError,
  TaskFailedError,
  WaitTimeoutError,
} from '../../src/core/errors.js';

const init = (status: number, body: unknown, headers: Record<string, string> = {}) => ({
  status,
  body,
  headers,
  requestId: 'req_1',
  operation: 'POST /v1/videos/generations',
});

describe('APIError.fromResponse', () => {
  test.each([
    [400, BadRequestError],
    [401, AuthenticationError],
    [403, PermissionDeniedError],
    [404, NotFoundError],
    [409, ConflictError],
    [410, MediaExpiredError],
    [413, PayloadTooLargeError],
    [429, RateLimitError],
    [500, InternalServerError],
    [502, InternalServerError],
    [503, InternalServerError],
    [418, APIError],
  ])('%i → %o', (status, cls) => {
    const error = APIError.fromResponse(init(status, { code: 'x', message: 'm', data: null }));
    expect(error).toBeInstanceOf(cls);
    expect(error.status).toBe(status);
    expect(error.requestId).toBe('req_1');
  });

  test('reads the parameter-validation shape {code, message, data:null}', () => {
    const error = APIError.fromResponse(
      init(400, { code: 'invalid_request', message: 'bad duration', data: null }),
    );
    expect(error.code).toBe('invalid_request');
    expect(error.message).toContain('bad duration');
    expect(error.message).toContain('POST /v1/videos/generations');
    expect(error.message).toContain('req_1');
  });

  test('reads the {error:{message,type}} shape', () => {
    const error = APIError.fromResponse(
      init(410, { error: { message: 'media has expired', type: 'expired' } }),
    );
    expect(error).toBeInstanceOf(MediaExpiredError);
    expect(error.code).toBe('expired');
    expect(error.message).toContain('media has expired');
  });

  test('keeps any other body as it came', () => {
    const error = APIError.fromResponse(init(502, '<html>bad gateway</html>'));
    expect(error.code).toBeUndefined();
    expect(error.body).toBe('<html>bad gateway</html>');
    expect(error.message).toContain('bad gateway');
    const empty = APIError.fromResponse(init(503, undefined));
    expect(empty.message).toContain('no message');
  });

  test('a moderation rejection parses the flagged categories', () => {
    const error = APIError.fromResponse(
      init(400, {
        code: 'nsfw_content_detected',
        message: 'Flagged categories: sexual, violence and hate',
        data: null,
      }),
    );
    expect(error).toBeInstanceOf(ContentModerationError);
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as ContentModerationError).categories).toEqual(['sexual', 'violence', 'hate']);
  });

  test('a library input error names the asset index', () => {
    const error = APIError.fromResponse(
      init(400, {
        error: { message: 'invalid_asset_material: assets[3] url unreachable', type: 'media_library_error' },
      }),
    );
    expect(error).toBeInstanceOf(MediaLibraryError);
    expect((error as MediaLibraryError).assetIndex).toBe(3);
    const noIndex = APIError.fromResponse(
      init(400, { error: { message: 'invalid_asset_material', type: 'media_library_error' } }),
    );
    expect((noIndex as MediaLibraryError).assetIndex).toBeUndefined();
  });

  test('headers are kept but left out of JSON', () => {
    const error = APIError.fromResponse(
      init(429, { code: 'rate_limited', message: 'slow', data: null }, { 'retry-after': '2' }),
    );
    expect(error.headers['retry-after']).toBe('2');
    expect((error as RateLimitError).retryAfterMs).toBe(2000);
    const json = JSON.parse(JSON.stringify(error));
    expect(json).toMatchObject({
      name: 'RateLimitError',
      status: 429,
      code: 'rate_limited',
      requestId: 'req_1',
    });
    expect(json.headers).toBeUndefined();
  });
});

describe('parseRetryAfter', () => {
  test('seconds', () => expect(parseRetryAfter('3')).toBe(3000));
  test('an HTTP date', () => {
    const now = Date.parse('2026-11-22T10:00:00Z');
    expect(parseRetryAfter('Sun, 22 Nov 2026 10:00:05 GMT', now)).toBe(5000);
  });
  test('a date in the past is 0', () => {
    expect(parseRetryAfter('Sun, 22 Nov 2026 09:00:00 GMT', Date.parse('2026-11-22T10:00:00Z'))).toBe(0);
  });
  test('a date is counted from the answer’s Date, not from this clock', () => {
    const later = Date.parse('2026-11-22T12:00:00Z');
    expect(parseRetryAfter('Sun, 22 Nov 2026 10:00:05 GMT', later, 'Sun, 22 Nov 2026 10:00:00 GMT')).toBe(
      5000,
    );
    const earlier = Date.parse('2026-11-22T08:00:00Z');
    expect(parseRetryAfter('Sun, 22 Nov 2026 10:00:05 GMT', earlier, 'Sun, 22 Nov 2026 10:00:00 GMT')).toBe(
      5000,
    );
  });
  test('an unreadable Date is left out: the date is counted from this clock', () => {
    const now = Date.parse('2026-11-22T10:00:00Z');
    expect(parseRetryAfter('Sun, 22 Nov 2026 10:00:05 GMT', now, 'yesterday')).toBe(5000);
  });
  test('garbage is undefined', () => expect(parseRetryAfter('soon')).toBeUndefined());
  // Date.parse reads each of these as a date long past: taken as one, they would retry at once.
  test.each(['-5', '+2', '2.', '1 5', 'a 1', '1e3'])('%s is not a date: undefined', (value) =>
    expect(parseRetryAfter(value)).toBeUndefined(),
  );
  test('the obsolete RFC 850 form is read', () => {
    expect(parseRetryAfter('Sunday, 22-Nov-26 10:00:05 GMT', Date.parse('2026-11-22T10:00:00Z'))).toBe(5000);
  });
});

describe('instanceof MediaGatewayError across entry points', () => {
  // Each entry point is bundled with its own copy of the base class; the brand stands in for it.
  const brand: unique symbol = Symbol.for('mediagw.error');
  class OtherCopy extends Error {
    static readonly [brand] = 'MediaGatewayError';
  }

  test("an error of another entry's copy of the class is a MediaGatewayError", () => {
    expect(new OtherCopy('from mediagw/webhooks')).toBeInstanceOf(MediaGatewayError);
  });

  test('plain errors and non-objects are not', () => {
    expect(new Error('x')).not.toBeInstanceOf(MediaGatewayError);
    expect(MediaGatewayError[Symbol.hasInstance]('MediaGatewayError')).toBe(false);
    expect(MediaGatewayError[Symbol.hasInstance](null)).toBe(false);
  });

  test('subclasses keep their own prototype check', () => {
    const base = new MediaGatewayError('m');
    expect(base).toBeInstanceOf(MediaGatewayError);
    expect(base).not.toBeInstanceOf(APIError);
    expect(new OtherCopy('x')).not.toBeInstanceOf(APIError);
  });
});

describe('the wait errors carry the kind of their task', () => {
  const videoTask = { id: 'task_1', object: 'video' as const, status: 'failed', progress: '40%' };

  test('each is an instance of its own class only, and of MediaGatewayError', () => {
    const failed = new TaskFailedError('task_1', videoTask, 'task_failed', 'no', 'video');
    const timedOut = new WaitTimeoutError('task_1', 1000, undefined, 'image');
    const progress = new ProgressCallbackError('task_1', videoTask, new Error('x'), 'video');
    expect(failed).toBeInstanceOf(TaskFailedError);
    expect(failed).toBeInstanceOf(MediaGatewayError);
    expect(failed).not.toBeInstanceOf(WaitTimeoutError);
    expect(timedOut).toBeInstanceOf(WaitTimeoutError);
    expect(timedOut).not.toBeInstanceOf(TaskFailedError);
    expect(progress).toBeInstanceOf(ProgressCallbackError);
    expect(new MediaGatewayError('m')).not.toBeInstanceOf(TaskFailedError);
    expect(TaskFailedError[Symbol.hasInstance](null)).toBe(false);
  });

  test('kind and the task are kept, and shown in the JSON form', () => {
    const failed = new TaskFailedError('task_1', videoTask, 'task_failed', 'no', 'video');
    expect(failed.kind).toBe('video');
    expect(failed.task).toBe(videoTask);
    expect(failed.toJSON()).toMatchObject({ name: 'TaskFailedError', kind: 'video', taskId: 'task_1' });
    expect(new WaitTimeoutError('task_2', 1500, undefined, 'review')).toMatchObject({
      kind: 'review',
      lastTask: undefined,
      message: expect.stringContaining('1500 ms'),
    });
  });
});
