import { defineConfig } from 'tsup';

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
  },
  {
    entry: { 'testing/bin': 'src/testing/bin.ts' },
    format: ['esm'],
    target: 'node20',
    banner: { js: '#!/usr/bin/env node' },
  },
]);
