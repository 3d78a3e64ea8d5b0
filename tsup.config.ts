import { defineConfig, type Options } from 'tsup';
import { lazySchemas } from './scripts/lazy-schemas.js';

/**
 * The CommonJS build loads its lazy dependencies (undici, the multipart encoders, zod) with
 * `require`, not `import()`: test runners that sandbox modules, Jest among them, refuse `import()`.
 * It also keeps the names of classes and functions: its conversion to CommonJS assigns a class to
 * `exports.RequestValidationError`, which leaves `constructor.name` empty, and loggers that name
 * an error by its constructor (pino's serializer) would print no type.
 */
const esbuildOptions: Options['esbuildOptions'] = (options, { format }) => {
  if (format !== 'cjs') return;
  options.supported = { ...options.supported, 'dynamic-import': false };
  options.keepNames = true;
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
    esbuildPlugins: [lazySchemas()],
    esbuildOptions,
  },
  {
    entry: { 'testing/bin': 'src/testing/bin.ts' },
    format: ['esm'],
    target: 'node20',
    banner: { js: '#!/usr/bin/env node' },
    esbuildPlugins: [lazySchemas()],
    esbuildOptions,
  },
]);
