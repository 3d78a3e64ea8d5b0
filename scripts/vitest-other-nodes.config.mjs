// The repository's vitest config, with the JSON report written to $VITEST_JSON_REPORT instead of
// .vitest-report.json, so runs under other Node versions keep their own reports.
import { defineConfig } from 'vitest/config';
import base from '../vitest.config.ts';

const outputFile = process.env.VITEST_JSON_REPORT;
if (!outputFile) throw new Error('set VITEST_JSON_REPORT to the path of the JSON report');

export default defineConfig({
  ...base,
  test: { ...base.test, reporters: ['default', ['json', { outputFile }]] },
});
