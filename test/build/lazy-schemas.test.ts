// Covers: src/internal/schemas-loader.ts, scripts/lazy-schemas.ts
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { lazyLoaderSource } from '../../scripts/lazy-schemas.js';
import { schemaFamilies } from '../../src/internal/schemas-loader.js';

const loaderPath = new URL('../../src/internal/schemas-loader.ts', import.meta.url);
const loader = readFileSync(loaderPath, 'utf8');

describe('the built schema loader', () => {
  it('requires each family of the source on that family’s first call, and no other', () => {
    const built = lazyLoaderSource(loader);
    const requires = [...built.matchAll(/^ {2}(\w+): \(\) => \(\1 \?\?= require\('([^']+)'\)\),$/gm)];
    expect(requires.map(([, name]) => name)).toEqual(Object.keys(schemaFamilies));
    for (const [, name, path] of requires) {
      expect(loader).toContain(`import * as ${name} from '${path?.replace(/\.ts$/, '.js')}';`);
    }
    // Nothing is imported up front: the families are the only way in.
    expect(built).not.toMatch(/^import /m);
    expect(built.match(/require\(/g)).toHaveLength(Object.keys(schemaFamilies).length);
  });

  it('gives each family the module it names', () => {
    expect(schemaFamilies.video().parseVideoRequest).toBeTypeOf('function');
    expect(schemaFamilies.embeddings().parseEmbeddingCreateParams).toBeTypeOf('function');
    expect(schemaFamilies.images().parseImageGenerateParams).toBeTypeOf('function');
    expect(schemaFamilies.library().parseAssetSubmitParams).toBeTypeOf('function');
    expect(schemaFamilies.midjourney().parseMidjourneyGenerateParams).toBeTypeOf('function');
    expect(schemaFamilies.reservation().estimateReservation).toBeTypeOf('function');
    expect(schemaFamilies.webhookEndpoints().parseWebhookEndpointCreateParams).toBeTypeOf('function');
  });

  it.each([
    ['an import of something else', `import { z } from 'zod';\n${loader}`],
    ['a family without its line', loader.replace(/^ {2}video: \(\) => video,\n/m, '')],
    ['a line under another name', loader.replace('  video: () => video,', '  videos: () => video,')],
    [
      'families out of order',
      loader.replace(
        '  embeddings: () => embeddings,\n  images: () => images,',
        '  images: () => images,\n  embeddings: () => embeddings,',
      ),
    ],
    ['no family at all', 'export const schemaFamilies = {};\n'],
  ])('refuses a loader with %s, rather than build one that loads too much or too little', (_, source) => {
    expect(source).not.toBe(loader);
    expect(() => lazyLoaderSource(source)).toThrow(/not in the form the build reads/);
  });
});
