// Covers: src/internal/url.ts
import { describe, expect, test } from 'vitest';
import { MediaGatewayError, RequestValidationError } from '../../src/core/errors.js';
import { buildPath, checkPathId, normalizeBaseURL, path } from '../../src/internal/url.js';

describe('normalizeBaseURL', () => {
  test.each([
    'https://h.example',
    'https://h.example/',
    'https://h.example/v1',
    'https://h.example/v1/',
    'https://h.example//v1//',
  ])('%s → https://h.example', (raw) => {
    expect(normalizeBaseURL(raw)).toBe('https://h.example');
  });

  test('keeps a path prefix other than /v1', () => {
    expect(normalizeBaseURL('https://h.example/gw/v1/')).toBe('https://h.example/gw');
  });

  test.each(['ftp://h.example', 'file:///etc/passwd', 'ws://h.example', 'not a url'])('refuses %s', (raw) => {
    expect(() => normalizeBaseURL(raw)).toThrow(MediaGatewayError);
  });

  test('refuses credentials in the URL', () => {
    expect(() => normalizeBaseURL('https://user:pw@h.example')).toThrow(/credentials/);
  });
});

describe('path', () => {
  test('percent-encodes every interpolated segment', () => {
    expect(path`/videos/${'a/../b?c#d'}/content`).toBe('/videos/a%2F..%2Fb%3Fc%23d/content');
  });
  test('refuses an empty ID', () => {
    expect(() => path`/videos/${''}`).toThrow(/empty/);
  });
  test.each(['.', '..'])('refuses %j, which a URL parser would fold into the path', (id) => {
    expect(() => path`/videos/${id}/content`).toThrow(MediaGatewayError);
    expect(() => path`/videos/${id}/content`).toThrow(/is not one, a URL would fold it into the path/);
    expect(() => path`/videos/${id}/content`).toThrow(RequestValidationError);
  });
  test('keeps IDs that only contain dots', () => {
    expect(path`/videos/${'...'}/content`).toBe('/videos/.../content');
    expect(path`/videos/${'a.b'}`).toBe('/videos/a.b');
  });

  test('a named ID is encoded as a bare one is', () => {
    const taskId = 'a/b';
    expect(path`/videos/${{ taskId }}/content`).toBe('/videos/a%2Fb/content');
  });

  test('a surrogate pair (one code point) is well-formed and encoded as UTF-8', () => {
    const taskId = 'task_\u{1F600}';
    expect(path`/videos/${{ taskId }}`).toBe('/videos/task_%F0%9F%98%80');
  });

  test.each([
    ['a lone high surrogate', 'task_\uD800', /lone surrogate \(U\+D800 at index 5\)/],
    ['a lone low surrogate', '\uDC00task', /lone surrogate \(U\+DC00 at index 0\)/],
    ['a reversed pair', 'x\uDE00\uD83D', /lone surrogate \(U\+DE00 at index 1\)/],
    ['an empty string', '', /must be a non-empty string ID/],
    ['a number', 42, /must be a string ID, not number/],
    ['null', null, /must be a string ID, not null/],
    ['undefined', undefined, /must be a string ID, not undefined/],
    [
      'an object whose toString throws',
      {
        toString() {
          throw new RangeError('boom');
        },
      },
      /must be a string ID, not object/,
    ],
  ])('refuses %s as RequestValidationError naming the parameter and the route', (_name, taskId, rule) => {
    let caught: unknown;
    try {
      path`/videos/${{ taskId }}/content`;
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(RequestValidationError);
    const error = caught as RequestValidationError;
    expect(error.issues).toEqual([{ path: 'taskId', message: expect.stringMatching(rule) }]);
    expect(error.message).toMatch(/^\/v1\/videos\/\{taskId\}\/content was not sent: taskId: /);
  });
});

describe('checkPathId', () => {
  test('gives a good ID back unchanged (path encodes it later)', () => {
    expect(checkPathId('/v1/x/{groupId}', 'groupId', 'g/1')).toBe('g/1');
  });
  test.each([['g\uD800'], [''], ['..'], [7]])('refuses %j, naming the parameter', (value) => {
    expect(() => checkPathId('/v1/x/{groupId}', 'groupId', value)).toThrow(
      expect.objectContaining({
        name: 'RequestValidationError',
        issues: [expect.objectContaining({ path: 'groupId' })],
      }),
    );
  });
});

describe('buildPath', () => {
  test('joins the base path, /v1 and the path', () => {
    expect(buildPath('', '/videos/x')).toBe('/v1/videos/x');
    expect(buildPath('/gw', '/videos/x')).toBe('/gw/v1/videos/x');
  });
  test('adds the query, leaving out undefined values', () => {
    expect(buildPath('', '/tasks/t1', { model: 'imgmodel-2', skip: undefined, page: 2 })).toBe(
      '/v1/tasks/t1?model=imgmodel-2&page=2',
    );
  });
});
