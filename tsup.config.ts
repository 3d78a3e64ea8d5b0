import { dirname } from 'node:path';
import type { Plugin } from 'esbuild';
import { defineConfig, type Options } from 'tsup';

/**
 * zod and the request schemas load when the first request is checked, not when `mediagw` is
 * imported: zod alone takes longer to import than all of openai-node (bench/cold-import.ts).
 * esbuild runs the code of a module reached by `require`, and of everything it imports, on that
 * first `require` only, so two modules are swapped in the build:
 * - `internal/schemas-loader.ts` requires the schemas instead of importing them;
 * - `schemas/zod.ts` requires zod when it first runs, since esbuild would hoist an `import` of
 *   a dependency to the top of the bundle. The ESM build takes it through `createRequire`.
 * The source, which the tests run, imports both as usual; `npm test` checks the built entries
 * (scripts/check-entries.mjs).
 */
const lazySchemas: Plugin = {
  name: 'mediagw-lazy-schemas',
  setup(build) {
    // tsup hands esbuild the CommonJS build as ESM for Rollup to convert, so the format is read
    // from the mark `esbuildOptions` below sets on it.
    const commonJS = build.initialOptions.supported?.['dynamic-import'] === false;
    build.onLoad({ filter: /[\\/]src[\\/]internal[\\/]schemas-loader\.ts$/ }, (args) => ({
      // Kept after the first call: esbuild's require builds a new namespace object on each one.
      contents:
        "let schemas;\nexport const loadSchemas = () => (schemas ??= require('../schemas/index.ts'));",
      loader: 'ts',
      resolveDir: dirname(args.path),
    }));
    build.onLoad({ filter: /[\\/]src[\\/]schemas[\\/]zod\.ts$/ }, (args) => ({
      contents: commonJS
        ? "export const { z } = require('zod');"
        : "import { createRequire } from 'node:module';\nexport const { z } = createRequire(import.meta.url)('zod');",
      loader: 'ts',
      resolveDir: dirname(args.path),
    }));
  },
};

/**
 * The CommonJS build loads its lazy dependencies (undici, the multipart encoders, zod) with
 * `require`, not `import()`: test runners that sandbox modules, Jest among them, refuse `import()`.
 */
const esbuildOptions: Options['esbuildOptions'] = (options, { format }) => {
  if (format === 'cjs') options.supported = { ...options.supported, 'dynamic-import': false };
};

export default defineConfig([
  {
    entry: {
      index: 'src/index.ts',
      'webhooks/index': 'src/webhooks/index.ts',
      'testing/index': 'src/testing/index.ts',
      'redis/index': 'src/redis/index.ts',
    },
    format: ['esm', 'cjs'],
    dts: true,
    clean: true,
    sourcemap: true,
    target: 'node20',
    splitting: false,
    treeshake: true,
    esbuildPlugins: [lazySchemas],
    esbuildOptions,
  },
  {
    entry: { 'testing/bin': 'src/testing/bin.ts' },
    format: ['esm'],
    target: 'node20',
    banner: { js: '#!/usr/bin/env node' },
    esbuildPlugins: [lazySchemas],
    esbuildOptions,
  },
]);
