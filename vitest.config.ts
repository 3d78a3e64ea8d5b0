import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    // The JSON report feeds the one-line summary that .ci/run prints last.
    reporters: ['default', ['json', { outputFile: '.vitest-report.json' }]],
  },
});
