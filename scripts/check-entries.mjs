// Checks the built entry points and the command's files: `mediagw/webhooks` must not import
// undici or zod (it runs in edge runtimes and must stay small), no file may import a package
// that is not a dependency (`mediagw/jobs` imports the package itself, and nothing else may), no CommonJS entry may require a package that `require` loads as an ES module
// (Node 20.18 refuses it), every package bundled into an entry carries its license there, and
// every subpath's declarations are reachable under moduleResolution `node` (typesVersions).
// Run after `npm run build`.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import { dirname } from 'node:path';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const allowed = new Set(Object.keys(pkg.dependencies ?? {}));
const files = {
  'dist/index.js': { forbid: [] },
  'dist/index.cjs': { forbid: [] },
  'dist/testing/index.js': { forbid: [] },
  'dist/testing/index.cjs': { forbid: [] },
  // `mediagw/jobs` imports the SDK by the package's own name (scripts/self-reference.ts), so its
  // classes are the ones `import 'mediagw'` gives; a copy of them there is an error.
  'dist/jobs/index.js': { forbid: [], self: true },
  'dist/jobs/index.cjs': { forbid: [], self: true },
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
// The command's files too: they carry the command line's packages (tsup.config.ts), which are
// no dependencies, so nothing there may import them, and each needs its license. They take the
// SDK, the mock gateway and the jobs runner from the package itself, never from a copy.
for (const name of readdirSync(new URL('../dist/cli/', import.meta.url))) {
  if (name.endsWith('.js')) files[`dist/cli/${name}`] = { forbid: [], noCopy: true };
}
const requireFromRoot = createRequire(new URL('../package.json', import.meta.url));

/** Whether `require(name)` from the package's root loads an ES module. */
function requireLoadsESM(name) {
  const file = requireFromRoot.resolve(name);
  if (/\.[cm]js$/.test(file)) return file.endsWith('.mjs');
  for (let dir = dirname(file); dir !== dirname(dir); dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) return JSON.parse(readFileSync(manifest, 'utf8')).type === 'module';
  }
  return false;
}

const importPattern = /(?:from\s*|import\s*\(\s*|require\s*\(\s*|import\s+)["']([^"'./][^"']*)["']/g;
let failed = false;
for (const [file, rule] of Object.entries(files)) {
  const text = readFileSync(new URL(`../${file}`, import.meta.url), 'utf8');
  const specifiers = new Set([...text.matchAll(importPattern)].map((m) => m[1]));
  // esbuild heads each bundled module with a `// <path>` comment, and gathers `/*!` comments
  // (scripts/license-notices.ts) under "Bundled license information".
  const bundled = new Set(
    [...text.matchAll(/^\/\/ \S*node_modules\/((?:@[^/]+\/)?[^/]+)\//gm)].map((m) => m[1]),
  );
  for (const name of bundled) {
    if (!text.includes(`(*! ${name} `)) {
      console.error(`${file} bundles ${name} without its license (scripts/license-notices.ts)`);
      failed = true;
    }
  }
  if (rule.self && !specifiers.has(pkg.name)) {
    console.error(`${file} does not import ${pkg.name}: it must not carry its own copy of the SDK`);
    failed = true;
  }
  if (rule.self || rule.noCopy) {
    if (/\bMediaGatewayError = class\b|\bclass MediaGatewayError\b/.test(text)) {
      console.error(`${file} carries a copy of MediaGatewayError: import it from ${pkg.name}`);
      failed = true;
    }
  }
  for (const spec of specifiers) {
    const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0];
    if ((rule.self || rule.noCopy) && name === pkg.name) continue;
    const isNode = spec.startsWith('node:') || builtinModules.includes(spec);
    if (rule.forbid.includes(name) || (rule.noNode && isNode) || (!isNode && !allowed.has(name))) {
      console.error(`${file} imports ${spec}`);
      failed = true;
    } else if (file.endsWith('.cjs') && !isNode && requireLoadsESM(spec)) {
      console.error(
        `${file} requires ${spec}, an ES module: bundle it into the CommonJS build (tsup.config.ts)`,
      );
      failed = true;
    }
  }
}
// moduleResolution `node` (node10) reads no `exports`: each subpath reaches its declarations
// through `typesVersions`, which must name the same file as the `require` condition.
for (const [key, target] of Object.entries(pkg.exports)) {
  if (key === '.' || typeof target !== 'object') continue;
  const types = target.require?.types;
  const mapped = pkg.typesVersions?.['*']?.[key.slice(2)];
  if (mapped?.length !== 1 || mapped[0] !== types) {
    console.error(
      `typesVersions["*"]["${key.slice(2)}"] must be ["${types}"], as exports["${key}"].require.types`,
    );
    failed = true;
  } else if (!existsSync(new URL(`../${types}`, import.meta.url))) {
    console.error(`${types} (exports["${key}"]) was not built`);
    failed = true;
  }
}
if (failed) process.exit(1);
console.log('check-entries: the built entry points import only what they may');

// `import 'mediagw'` must not load zod, undici or the multipart encoders: they load on first use
// (tsup.config.ts), which keeps the cold import small. A fresh process imports each build and
// lists every package it loaded (ES modules through a resolve hook, CommonJS ones from the
// require cache); checking one request must load zod,
// so the check can tell a lazy load from no load at all.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync as readText, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const lazy = ['zod', 'undici', 'formdata-node', 'form-data-encoder', 'p-retry'];
const scratch = mkdtempSync(join(tmpdir(), 'mediagw-lazy-'));
try {
  const log = join(scratch, 'loaded.txt');
  const hooks = join(scratch, 'hooks.mjs');
  writeFileSync(
    hooks,
    `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  appendFileSync(${JSON.stringify(log)}, result.url + '\\n');
  return result;
}`,
  );
  const register = join(scratch, 'register.mjs');
  writeFileSync(
    register,
    `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});`,
  );
  const packagesIn = () =>
    new Set(
      readText(log, 'utf8')
        .split('\n')
        .map((url) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1])
        .filter(Boolean),
    );
  for (const entry of ['dist/index.js', 'dist/index.cjs']) {
    const url = pathToFileURL(fileURLToPath(new URL(`../${entry}`, import.meta.url))).href;
    for (const check of [false, true]) {
      writeFileSync(log, '');
      const script = `const m = await import(${JSON.stringify(url)});
${check ? "try { m.parseVideoRequest({ model: 'vidmodel-2.0-mini', prompt: 'p' }); } catch {}" : ''}
const { createRequire } = await import('node:module');
const { appendFileSync } = await import('node:fs');
const cached = Object.keys(createRequire(import.meta.url).cache);
appendFileSync(${JSON.stringify(log)}, cached.map((path) => path + '\\n').join(''));`;
      execFileSync(process.execPath, [
        '--import',
        pathToFileURL(register).href,
        '--input-type=module',
        '-e',
        script,
      ]);
      const loaded = packagesIn();
      if (!check) {
        const early = lazy.filter((name) => loaded.has(name));
        if (early.length > 0) {
          console.error(`importing ${entry} loads ${early.join(', ')}: they must load on first use`);
          failed = true;
        }
      } else if (!loaded.has('zod')) {
        console.error(`${entry}: checking a request did not load zod; the import check above proves nothing`);
        failed = true;
      }
    }
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
if (failed) process.exit(1);
console.log('check-entries: importing mediagw loads none of', lazy.join(', '));
