import { describe, expect, test } from 'vitest';
import { MediaGatewayError } from '../../src/core/errors.js';
import { buildPath, normalizeBaseURL, path } from '../../src/internal/url.js';

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
    expect(() => path`/videos/${id}/content`).toThrow('not an ID');
  });
  test('keeps IDs that only contain dots', () => {
    expect(path`/videos/${'...'}/content`).toBe('/videos/.../content');
    expect(path`/videos/${'a.b'}`).toBe('/videos/a.b');
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
