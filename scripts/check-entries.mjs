// Checks the built entry points: `mediagw/webhooks` must not import undici or zod (it runs in
// edge runtimes and must stay small), and no entry may import a package that is not a
// dependency. Run after `npm run build`.
import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const allowed = new Set(Object.keys(pkg.dependencies ?? {}));
const files = {
  'dist/index.js': { forbid: [] },
  'dist/index.cjs': { forbid: [] },
  'dist/testing/index.js': { forbid: [] },
  'dist/testing/index.cjs': { forbid: [] },
  'dist/redis/index.js': {
    forbid: ['redis', 'undici', 'zod', 'p-retry', 'form-data-encoder', 'formdata-node'],
    noNode: true,
  },
  'dist/redis/index.cjs': {
    forbid: ['redis', 'undici', 'zod', 'p-retry', 'form-data-encoder', 'formdata-node'],
    noNode: true,
  },
  'dist/webhooks/index.js': {
    forbid: ['undici', 'zod', 'p-retry', 'form-data-encoder', 'formdata-node'],
    noNode: true,
  },
  'dist/webhooks/index.cjs': {
    forbid: ['undici', 'zod', 'p-retry', 'form-data-encoder', 'formdata-node'],
    noNode: true,
  },
};
const importPattern = /(?:from\s*|import\s*\(\s*|require\s*\(\s*|import\s+)["']([^"'./][^"']*)["']/g;
let failed = false;
for (const [file, rule] of Object.entries(files)) {
  const text = readFileSync(new URL(`../${file}`, import.meta.url), 'utf8');
  const specifiers = new Set([...text.matchAll(importPattern)].map((m) => m[1]));
  for (const spec of specifiers) {
    const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0];
    const isNode = spec.startsWith('node:') || builtinModules.includes(spec);
    if (rule.forbid.includes(name) || (rule.noNode && isNode) || (!isNode && !allowed.has(name))) {
      console.error(`${file} imports ${spec}`);
      failed = true;
    }
  }
}
if (failed) process.exit(1);
console.log('check-entries: the built entry points import only what they may');
