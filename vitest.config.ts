import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const src = (path: string) => fileURLToPath(new URL(`./src/${path}`, import.meta.url));

export default defineConfig({
  resolve: {
    // Examples import the package by name, as users do; in the repository that is the source.
    alias: [
      { find: /^mediagw$/, replacement: src('index.ts') },
      { find: /^mediagw\/webhooks$/, replacement: src('webhooks/index.ts') },
      { find: /^mediagw\/testing$/, replacement: src('testing/index.ts') },
      { find: /^mediagw\/redis$/, replacement: src('redis/index.ts') },
    ],
  },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    // The JSON report feeds the one-line summary that .ci/run prints last.
    reporters: ['default', ['json', { outputFile: '.vitest-report.json' }]],
  },
});
