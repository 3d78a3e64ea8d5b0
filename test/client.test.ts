// Covers: src/client.ts
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, test } from 'vitest';
import { MediaGateway } from '../src/client.js';
import { MediaGatewayError } from '../src/core/errors.js';
import { VERSION } from '../src/version.js';

const saved = { key: process.env.MEDIAGW_API_KEY, url: process.env.MEDIAGW_BASE_URL };
afterEach(() => {
  for (const [name, value] of [
    ['MEDIAGW_API_KEY', saved.key],
    ['MEDIAGW_BASE_URL', saved.url],
  ] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

describe('MediaGateway options', () => {
  test('reads the key and base URL from the environment', () => {
    process.env.MEDIAGW_API_KEY = 'k';
    process.env.MEDIAGW_BASE_URL = 'https://env.example/v1/';
    expect(new MediaGateway().baseURL).toBe('https://env.example');
  });

  test('options win over the environment', () => {
    process.env.MEDIAGW_BASE_URL = 'https://env.example';
    expect(new MediaGateway({ apiKey: 'k', baseURL: 'https://opt.example/' }).baseURL).toBe(
      'https://opt.example',
    );
  });

  test('a missing key and base URL name both options and both variables', () => {
    delete process.env.MEDIAGW_API_KEY;
    delete process.env.MEDIAGW_BASE_URL;
    const error = (() => {
      try {
        new MediaGateway();
      } catch (e) {
        return e as Error;
      }
    })();
    expect(error).toBeInstanceOf(MediaGatewayError);
    for (const word of ['apiKey', 'MEDIAGW_API_KEY', 'baseURL', 'MEDIAGW_BASE_URL'])
      expect(error?.message).toContain(word);
  });

  test('a missing key alone names the key only', () => {
    delete process.env.MEDIAGW_API_KEY;
    expect(() => new MediaGateway({ baseURL: 'https://h' })).toThrow(/MEDIAGW_API_KEY/);
    expect(() => new MediaGateway({ baseURL: 'https://h' })).not.toThrow(/MEDIAGW_BASE_URL/);
  });

  test.each(['ftp://h', 'javascript:alert(1)', 'h.example'])('refuses base URL %s', (baseURL) => {
    expect(() => new MediaGateway({ apiKey: 'k', baseURL })).toThrow(MediaGatewayError);
  });

  test.each([-1, 1.5, Number.NaN])('refuses maxRetries %s', (maxRetries) => {
    expect(() => new MediaGateway({ apiKey: 'k', baseURL: 'https://h', maxRetries })).toThrow(/maxRetries/);
  });

  test('VERSION matches package.json', () => {
    expect(JSON.parse(readFileSync('package.json', 'utf8')).version).toBe(VERSION);
  });
});
