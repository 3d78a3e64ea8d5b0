/**
 * The build's lazy loading of zod and the request schemas (used by tsup.config.ts): zod alone
 * takes longer to import than all of openai-node (bench/cold-import.ts), and the video schemas
 * take a further 10-20 ms to build. esbuild runs the code of a module reached by `require`, and
 * of everything it imports, on that first `require` only, so two modules are swapped in the build:
 * - `internal/schemas-loader.ts` requires each family of schemas when it is first asked for,
 *   instead of importing them all;
 * - `schemas/shared/zod.ts` requires zod when it first runs, since esbuild would hoist an `import` of
 *   a dependency to the top of the bundle. The ESM build takes it through `createRequire`.
 * The source, which the tests run, imports both as usual; `npm test` checks the built entries
 * (scripts/check-entries.mjs).
 */
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Plugin } from 'esbuild';

const FAMILY_IMPORT = /^import \* as (\w+) from '(\.\.\/schemas\/[\w-]+(?:\/[\w-]+)?)\.js';$/gm;

/**
 * The built form of `internal/schemas-loader.ts`: each `import * as name from '../schemas/family/x.js'`
 * becomes a `require` made on the first call of `name: () => name`, and kept (esbuild's require
 * builds a new namespace object on each call).
 * @throws {Error} when the source is not in the form this reads: imports of families, and one
 * `name: () => name,` line for each.
 */
export function lazyLoaderSource(source: string): string {
  const families = [...source.matchAll(FAMILY_IMPORT)].map(([, name, path]) => ({ name, path }));
  const thunks = [...source.matchAll(/^ {2}(\w+): \(\) => (\w+),$/gm)];
  const matched =
    families.length > 0 &&
    thunks.length === families.length &&
    thunks.every(([, key, value], i) => key === value && key === families[i]?.name) &&
    !/^import (?!\* as \w+ from '\.\.\/schemas\/)/m.test(source);
  if (!matched) {
    throw new Error(
      "internal/schemas-loader.ts is not in the form the build reads: `import * as name from '../schemas/family/x.js';` lines and one `  name: () => name,` line each, in the same order",
    );
  }
  const lines = families.map(({ name }) => `let ${name};`);
  lines.push('export const schemaFamilies = {');
  for (const { name, path } of families) lines.push(`  ${name}: () => (${name} ??= require('${path}.ts')),`);
  lines.push('};');
  return `${lines.join('\n')}\n`;
}

/** The esbuild plugin that swaps the two modules; `commonJS` for the CommonJS build. */
export function lazySchemas(): Plugin {
  return {
    name: 'mediagw-lazy-schemas',
    setup(build) {
      // tsup hands esbuild the CommonJS build as ESM for Rollup to convert, so the format is read
      // from the mark tsup.config.ts's `esbuildOptions` sets on it.
      const commonJS = build.initialOptions.supported?.['dynamic-import'] === false;
      build.onLoad({ filter: /[\\/]src[\\/]internal[\\/]schemas-loader\.ts$/ }, (args) => ({
        contents: lazyLoaderSource(readFileSync(args.path, 'utf8')),
        loader: 'ts',
        resolveDir: dirname(args.path),
      }));
      build.onLoad({ filter: /[\\/]src[\\/]schemas[\\/]shared[\\/]zod\.ts$/ }, (args) => ({
        contents: commonJS
          ? "export const { z } = require('zod');"
          : "import { createRequire } from 'node:module';\nexport const { z } = createRequire(import.meta.url)('zod');",
        loader: 'ts',
        resolveDir: dirname(args.path),
      }));
    },
  };
}
