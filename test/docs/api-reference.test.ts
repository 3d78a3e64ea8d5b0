// Covers: docs/api-reference.md against the public exports
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';

const read = (file: string) => JSON.parse(readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8'));

describe('the API reference (npm run docs)', () => {
  test('covers every entry point the package exports, so none escapes the not-documented check', () => {
    const { exports } = read('package.json') as { exports: Record<string, unknown> };
    const { entryPoints } = read('typedoc.json') as { entryPoints: string[] };
    const sources = Object.keys(exports)
      .filter((subpath) => subpath !== './package.json')
      .map((subpath) => (subpath === '.' ? 'src/index.ts' : `src/${subpath.slice(2)}/index.ts`));
    expect(sources).toContain('src/redis/index.ts');
    expect([...entryPoints].sort()).toEqual([...sources].sort());
  });

  test('treats warnings as errors and checks that every export is documented', () => {
    const config = read('typedoc.json') as {
      treatWarningsAsErrors?: boolean;
      validation?: { notDocumented?: boolean };
    };
    expect(config.treatWarningsAsErrors).toBe(true);
    expect(config.validation?.notDocumented).toBe(true);
  });
});
