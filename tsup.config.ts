import { defineConfig, type Options } from 'tsup';
import { lazySchemas } from './scripts/lazy-schemas.js';

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
