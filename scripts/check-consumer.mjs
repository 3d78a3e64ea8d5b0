// Uses the package as a consumer does. Run after `npm run build`:
// 1. `npm pack`, then install the tarball into a new project in the system's temp folder;
// 2. load every entry point with `import` (.mjs) and with `require` (.cjs), check both give the same
//    names, start the mock gateway, make requests with the client (one of them answered 503 once
//    and retried), sign and verify webhooks, run one job with mediagw/jobs (scripts/consumer/checks.cjs); check that no entry loads
//    the command line's dependencies (commander, picocolors, cli-progress); run the `mediagw` bin
//    and start the `mediagw-mock` bin; run every shipped example from node_modules/mediagw/examples/
//    with tsx (the webhook examples' frameworks linked from this repository's node_modules);
// 3. type-check TypeScript consumers (scripts/consumer/consumer.ts and the consumer type tests in
//    test/types/, with their @ts-expect-error lines) against the published declarations, strict and
//    with skipLibCheck off, under moduleResolution node (node10), node16 and nodenext (as .mts and
//    .cts) and bundler, and an edge consumer of mediagw/webhooks without @types/node;
// 4. bundle mediagw/webhooks (verifyWebhookAsync and createWebhookHandler) for browser and neutral
//    targets, assert no `node:` reference, and run the bundle in a context with no Node API.
// 5. with CONSUMER_BUN set to a Bun binary (scripts/bun-for-tests.sh): the client checks under Bun,
//    with `import` and with `require` (scripts/consumer/bun-checks.cjs).
// Exits non-zero, naming each failed check. `--keep` leaves the temporary project in place.
// With CONSUMER_JSON_REPORT set, also writes { numPassedTests, numFailedTests } there, one per
// check, for the summary line of .ci/run (which runs this under several Node versions).
import { spawn, spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runInNewContext } from 'node:vm';

const root = fileURLToPath(new URL('..', import.meta.url));
const fixtures = join(root, 'scripts/consumer');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const keep = process.argv.includes('--keep');
const tmp = mkdtempSync(join(tmpdir(), 'mediagw-consumer-'));
const project = join(tmp, 'project');
const failures = [];
let passed = 0;

function cleanUp() {
  if (keep) console.log(`check-consumer: kept ${tmp}`);
  else rmSync(tmp, { recursive: true, force: true });
}
process.on('exit', cleanUp);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(1));

/** Runs a command; throws with its output when it exits non-zero or runs past `timeout` ms. */
function run(command, args, { cwd = project, timeout = 120_000, env = {} } = {}) {
  const result = spawnSync(command, args, {
    cwd,
    encoding: 'utf8',
    timeout,
    env: { ...process.env, ...env },
  });
  if (result.status === 0) return result.stdout;
  const why = result.error ? result.error.message : `exit ${result.status ?? result.signal}`;
  const output = `${result.stdout ?? ''}${result.stderr ?? ''}`.trim().split('\n').slice(-40).join('\n');
  throw new Error(`${command} ${args.join(' ')}: ${why}\n${output}`);
}

async function check(name, fn) {
  const start = performance.now();
  try {
    await fn();
    passed += 1;
    console.log(`ok   ${name} (${((performance.now() - start) / 1000).toFixed(1)} s)`);
  } catch (error) {
    failures.push(name);
    console.log(`FAIL ${name}\n     ${String(error?.stack ?? error).replaceAll('\n', '\n     ')}`);
  }
}

const entries = Object.keys(pkg.exports)
  .filter((key) => key !== './package.json')
  .map((key) => (key === '.' ? pkg.name : `${pkg.name}/${key.slice(2)}`));

async function pack() {
  for (const entry of ['dist/index.js', 'dist/index.cjs', 'dist/index.d.ts']) {
    if (!existsSync(join(root, entry))) throw new Error(`${entry} is missing: run npm run build first`);
  }
  const [info] = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', tmp], { cwd: root }));
  const outside = info.files
    .map((f) => f.path)
    .filter(
      (p) =>
        !/^(dist\/|docs\/[^/]+\.md$|docs\/images\/[^/]+\.png$|examples\/[^/]+\.ts$|package\.json$|[A-Z]+\.md$|LICENSE$)/.test(
          p,
        ),
    );
  if (outside.length)
    throw new Error(
      `the tarball holds files outside dist/, docs/ (guides and their images) and examples/: ${outside.join(', ')}`,
    );
  for (const shipped of ['LICENSE', 'docs/getting-started.md'])
    if (!info.files.some((f) => f.path === shipped)) throw new Error(`the tarball lacks ${shipped}`);
  return join(tmp, info.filename);
}

function install(tarball) {
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true }, null, 2));
  const flags = ['install', '--no-audit', '--no-fund', '--loglevel=error', tarball];
  try {
    run('npm', [...flags, '--offline']);
  } catch (offline) {
    console.log(
      `     npm install --offline failed; retrying with --prefer-offline\n     ${offline.message.split('\n')[0]}`,
    );
    run('npm', [...flags, '--prefer-offline']);
  }
  const files = ['checks.cjs', 'esm.mjs', 'cjs.cjs', 'edge.ts', 'edge-entry.mjs'];
  for (const name of [...files, 'bun-checks.cjs', 'bun-esm.mjs', 'bun-cjs.cjs']) {
    copyFileSync(join(fixtures, name), join(project, name));
  }
}

function runtime(file) {
  const line = run(process.execPath, [file], { timeout: 60_000 }).trim().split('\n').at(-1);
  return JSON.parse(line);
}

async function runtimeChecks() {
  let esm;
  await check('ESM: import every entry point, client against the mock gateway, webhooks, a job run', () => {
    esm = runtime('esm.mjs');
    for (const [entry, file] of Object.entries(esm.files))
      if (!file.endsWith('.js')) throw new Error(`import('${entry}') loaded ${file}`);
  });
  let cjs;
  await check('CJS: require every entry point, client against the mock gateway, webhooks, a job run', () => {
    cjs = runtime('cjs.cjs');
    for (const [entry, file] of Object.entries(cjs.files))
      if (!file.endsWith('.cjs')) throw new Error(`require('${entry}') loaded ${file}`);
  });
  await check(`ESM and CJS builds export the same names (${entries.join(', ')})`, () => {
    if (!esm || !cjs) throw new Error('needs both runtime checks');
    for (const entry of entries) {
      const a = esm.names[entry] ?? [];
      const b = cjs.names[entry] ?? [];
      const diff = [...a.filter((n) => !b.includes(n)), ...b.filter((n) => !a.includes(n))];
      if (!a.length || diff.length)
        throw new Error(`${entry}: only in one build: ${diff.join(', ') || '(none)'}`);
    }
  });
  await check('every error class of every entry point is instanceof the MediaGatewayError of mediagw', () => {
    if (!esm || !cjs) throw new Error('needs both runtime checks');
    const foreign = [...new Set([...esm.foreignErrors, ...cjs.foreignErrors])];
    if (foreign.length)
      throw new Error(
        `not instanceof MediaGatewayError from 'mediagw' (each entry bundles its own copy of the class): ${foreign.join(', ')}`,
      );
  });
}

// `instanceof` across copies of the error classes: both builds of every entry in one process
// (scripts/consumer/dual-errors.mjs).
async function dualPackageErrorCheck() {
  copyFileSync(join(fixtures, 'dual-errors.mjs'), join(project, 'dual-errors.mjs'));
  await check(
    'instanceof holds for every error class across the ESM and CJS builds and across entries',
    () => {
      const { copies, pairs } = runtime('dual-errors.mjs');
      console.log(`     ${copies} copies of error classes, ${pairs} instanceof pairs`);
    },
  );
}

// The command line's own dependencies: only dist/cli/ may load them, never a library entry.
const CLI_DEPENDENCIES = ['commander', 'picocolors', 'cli-progress'];
const cliPattern = String.raw`[\/]node_modules[\/](${CLI_DEPENDENCIES.join('|')})[\/]`;

async function cliDependencyCheck() {
  // A resolve hook refuses every module of a CLI dependency, so an `import` that reaches one
  // fails; `require` is checked through require.cache (hooks do not see it on Node 20).
  writeFileSync(
    join(project, 'deny-cli-deps.mjs'),
    `const cli = new RegExp(${JSON.stringify(cliPattern)});
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  if (cli.test(result.url)) throw new Error(\`\${context.parentURL} loads \${result.url}\`);
  return result;
}
`,
  );
  writeFileSync(
    join(project, 'register-deny.mjs'),
    "import { register } from 'node:module';\nregister('./deny-cli-deps.mjs', import.meta.url);\n",
  );
  writeFileSync(
    join(project, 'entries-load.mjs'),
    `import { createRequire } from 'node:module';
const entries = ${JSON.stringify(entries)};
const cli = new RegExp(${JSON.stringify(cliPattern)});
for (const entry of entries) await import(entry);
const require = createRequire(import.meta.url);
for (const entry of entries) require(entry);
const loaded = Object.keys(require.cache).filter((file) => cli.test(file));
if (loaded.length) throw new Error('require loaded ' + loaded.join(', '));
let control = false;
try {
  await import('${CLI_DEPENDENCIES[0]}');
} catch {
  control = true;
}
console.log(JSON.stringify({ control }));
`,
  );
  await check(
    `importing or requiring ${entries.join(', ')} loads none of ${CLI_DEPENDENCIES.join(', ')}`,
    () => {
      const line = run(process.execPath, ['--import', './register-deny.mjs', 'entries-load.mjs'], {
        timeout: 60_000,
      })
        .trim()
        .split('\n')
        .at(-1);
      if (!JSON.parse(line).control)
        throw new Error('control: the hook let an import of a CLI dependency through');
    },
  );
}

async function binCheck() {
  await check(
    'bin mediagw prints its version, validates offline and generates an image on the embedded mock',
    () => {
      const bin = join(project, 'node_modules/.bin/mediagw');
      const version = run(bin, ['--version']).trim();
      if (version !== pkg.version)
        throw new Error(`mediagw --version printed ${version}, not ${pkg.version}`);
      writeFileSync(
        join(project, 'request.json'),
        JSON.stringify({ model: 'vidmodel-2.0-mini', prompt: 'x', duration: 5 }),
      );
      const valid = JSON.parse(run(bin, ['validate', 'request.json', '--json']));
      if (valid.valid !== true) throw new Error(`validate: ${JSON.stringify(valid)}`);
      const image = JSON.parse(
        run(bin, ['--mock', 'images', 'generate', '-m', 'imgmodel-2', '-p', 'x', '-o', 'x.png', '--json']),
      );
      if (!existsSync(join(project, 'x.png')) || image.saved?.[0] !== 'x.png')
        throw new Error(`images generate: ${JSON.stringify(image)}`);
    },
  );
  await check('bin mediagw-mock starts, prints its base URL and stops on SIGTERM', async () => {
    const child = spawn(join(project, 'node_modules/.bin/mediagw-mock'), ['--port', '0'], { cwd: project });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
    const deadline = Date.now() + 20_000;
    while (
      !/base URL:\s+http:\/\/127\.0\.0\.1:\d+/.test(output) &&
      Date.now() < deadline &&
      child.exitCode === null
    )
      await new Promise((resolve) => setTimeout(resolve, 50));
    const url = /base URL:\s+(\S+)/.exec(output)?.[1];
    try {
      if (!url) throw new Error(`no base URL printed:\n${output}`);
      const answer = await fetch(`${url}/v1/embeddings`, { method: 'POST', body: '{}' });
      if (answer.status !== 401) throw new Error(`unauthenticated request answered ${answer.status}`);
    } finally {
      child.kill('SIGTERM');
    }
    const code = await Promise.race([
      exited,
      new Promise((r) => setTimeout(() => r('still running'), 10_000)),
    ]);
    if (code !== 0) {
      child.kill('SIGKILL');
      throw new Error(`mediagw-mock ended with ${code}:\n${output}`);
    }
  });
}

// busboy and the command line's packages are carried inside the build (tsup.config.ts), not
// installed: the multipart uploads to the mock gateway above, and an edit through the bin's
// embedded mock here, run without them.
async function bundledDependencyCheck() {
  await check(
    "busboy and the command line's packages are not installed; the bin edits an image on its mock",
    () => {
      const installed = ['busboy', ...CLI_DEPENDENCIES].filter((name) =>
        existsSync(join(project, 'node_modules', name)),
      );
      if (installed.length) throw new Error(`installed with the package: ${installed.join(', ')}`);
      const bin = join(project, 'node_modules/.bin/mediagw');
      const mock = (command) => JSON.parse(run(bin, ['--mock', ...command.split(' '), '--json']));
      mock('images generate -m imgmodel-2 -p x -o source.png');
      const edited = mock('images edit -m imgmodel-2 -i source.png -p night -o edited.png');
      if (!existsSync(join(project, 'edited.png')) || edited.saved?.[0] !== 'edited.png')
        throw new Error(`images edit: ${JSON.stringify(edited)}`);
    },
  );
}

// The web frameworks of the webhook examples, linked into the project from this repository's
// node_modules (no download): a user of those examples installs them beside mediagw.
const EXAMPLE_FRAMEWORKS = ['express', 'fastify', 'hono', '@hono/node-server'];

/**
 * Every example in the tarball runs where npm put it, as the README says to run it
 * (`npx tsx node_modules/mediagw/examples/<name>.ts`): it imports the package by name, starts
 * the mock gateway it needs, and exits 0 by itself within two minutes.
 */
async function exampleChecks() {
  const examples = join(project, 'node_modules', pkg.name, 'examples');
  const shipped = readdirSync(examples).filter((name) => name.endsWith('.ts'));
  const inRepository = readdirSync(join(root, 'examples')).filter((name) => name.endsWith('.ts'));
  await check(`the tarball ships every example (${inRepository.length})`, () => {
    const missing = inRepository.filter((name) => !shipped.includes(name));
    if (missing.length) throw new Error(`not in the tarball: ${missing.join(', ')}`);
  });
  for (const name of EXAMPLE_FRAMEWORKS) {
    const link = join(project, 'node_modules', name);
    if (existsSync(link)) continue;
    mkdirSync(dirname(link), { recursive: true });
    symlinkSync(join(root, 'node_modules', name), link, 'dir');
  }
  const tsx = join(root, 'node_modules/tsx/dist/cli.mjs');
  // The Next.js route reads its secret from the environment, as in a deployment.
  const env = { MEDIAGW_WEBHOOK_KEY_ID: 'kid_consumer', MEDIAGW_WEBHOOK_SECRET: 'whsec_consumer_0123' };
  for (const name of shipped.sort()) {
    await check(`example ${name} runs from node_modules/${pkg.name}/examples/ with tsx`, () => {
      const cwd = join(tmp, `run-${name.slice(0, -3)}`);
      mkdirSync(cwd);
      const output = run(process.execPath, [tsx, join(examples, name)], { cwd, env, timeout: 120_000 });
      if (!output.trim()) throw new Error('printed nothing');
    });
  }
}

const tsc = join(root, 'node_modules/typescript/bin/tsc');
const strict = {
  strict: true,
  noEmit: true,
  skipLibCheck: false,
  target: 'ES2022',
  exactOptionalPropertyTypes: true,
};

/** The consumer type tests (test/types/*.ts), beside scripts/consumer/consumer.ts. */
const typeFixtures = readdirSync(join(root, 'test/types')).filter((name) => name.endsWith('.ts'));

/**
 * Writes each consumer fixture into the project under every extension `extensions` names
 * (`.mts` is compiled as ESM and `.cts` as CommonJS under node16/nodenext) and returns the files.
 */
function typeSources(extensions) {
  const consumer = readFileSync(join(fixtures, 'consumer.ts'), 'utf8');
  // Every entry point, the ones named in the fixtures and any other, must resolve with types.
  const others = entries.map((e, i) => `export type * as entry${i} from '${e}';`).join('\n');
  const sources = {
    consumer: `${consumer}\n${others}\n`,
    ...Object.fromEntries(
      typeFixtures.map((name) => [name.slice(0, -3), readFileSync(join(root, 'test/types', name), 'utf8')]),
    ),
  };
  const files = [];
  for (const [name, source] of Object.entries(sources)) {
    for (const extension of extensions) {
      writeFileSync(join(project, `${name}${extension}`), source);
      files.push(`${name}${extension}`);
    }
  }
  return files;
}

async function typeChecks() {
  const typeRoots = [join(root, 'node_modules/@types')];
  const node = { ...strict, lib: ['ES2023'], typeRoots, types: ['node'] };
  const fixtureNames = ['consumer.ts', ...typeFixtures].join(', ');
  const configs = {
    [`node (node10, module commonjs): ${fixtureNames}`]: {
      ...node,
      module: 'commonjs',
      moduleResolution: 'node',
      // As `tsc --init` sets it: zod's .d.cts default-imports its locales, an error without it.
      esModuleInterop: true,
      files: typeSources(['.ts']),
    },
    ...Object.fromEntries(
      ['node16', 'nodenext'].map((mode) => [
        `${mode} (module ${mode}): the same as .mts (ESM) and .cts (CommonJS)`,
        { ...node, module: mode, moduleResolution: mode, files: typeSources(['.mts', '.cts']) },
      ]),
    ),
    'bundler (module esnext): the same as .ts': {
      ...node,
      module: 'esnext',
      moduleResolution: 'bundler',
      lib: ['ES2023', 'DOM'],
      files: typeSources(['.ts']),
    },
    'bundler, ES and DOM libraries, no @types/node: edge.ts uses mediagw/webhooks': {
      ...strict,
      module: 'esnext',
      moduleResolution: 'bundler',
      lib: ['ES2023', 'DOM'],
      types: [],
      files: ['edge.ts'],
    },
  };
  let i = 0;
  for (const [name, { files, ...compilerOptions }] of Object.entries(configs)) {
    const file = `tsconfig.${i++}.json`;
    writeFileSync(join(project, file), JSON.stringify({ compilerOptions, files }, null, 2));
    await check(`types, ${name}`, () => run(process.execPath, [tsc, '-p', file]));
  }
}

async function bundler() {
  const { build } = createRequire(join(root, 'package.json'))('esbuild');
  return async (entry, options) => {
    const base = { entryPoints: [join(project, entry)], absWorkingDir: project, bundle: true, write: false };
    const result = await build({ ...base, logLevel: 'silent', ...options });
    return result.outputFiles[0].text;
  };
}

/** Bundles edge-entry.mjs for `platform`, checks it reaches no Node built-in, and runs it without Node. */
async function edgeRun(bundle, platform) {
  const esm = await bundle('edge-entry.mjs', { platform, format: 'esm' });
  if (/node:|getBuiltinModule|\brequire\(/.test(esm)) throw new Error('the bundle reaches a Node built-in');
  if (!esm.includes('crypto.subtle')) throw new Error('the bundle has no Web Crypto call');
  const iife = await bundle('edge-entry.mjs', { platform, format: 'iife', globalName: 'edge' });
  // Web APIs only: no process, Buffer or require, as in an edge runtime.
  const web = {
    crypto,
    TextEncoder,
    TextDecoder,
    Request,
    Response,
    Headers,
    URL,
    console,
    setTimeout,
    clearTimeout,
  };
  const context = { ...web, SECRETS: { kid_edge: 'whsec_edge_0123' }, HANDLED: [] };
  runInNewContext(`${iife}\nglobalThis.edge = edge;`, context);
  const { signWebhook } = createRequire(join(project, 'package.json'))('mediagw/webhooks');
  const body = JSON.stringify({ id: 'evt_edge', type: 'task.failed', api_version: '2026-10-03', data: {} });
  const headers = signWebhook({ body, secret: 'whsec_edge_0123', keyId: 'kid_edge' });
  const post = (text) =>
    context.edge.handler(new Request('http://edge/', { method: 'POST', body: text, headers }));
  const answer = await post(body);
  if (answer.status !== 200) throw new Error(`the handler answered ${answer.status}: ${await answer.text()}`);
  if ((await post(`${body} `)).status !== 400) throw new Error('a tampered body was not answered 400');
  if (context.HANDLED.join() !== 'evt_edge') throw new Error('onEvent was not called once');
}

async function edgeBundle() {
  const bundle = await bundler();
  for (const platform of ['browser', 'neutral']) {
    const name = `mediagw/webhooks bundles for platform ${platform} with no node: import, and runs without Node`;
    await check(name, () => edgeRun(bundle, platform));
  }
  await check('control: bundling the sync verifyWebhook does reach node:crypto', async () => {
    writeFileSync(join(project, 'sync-entry.mjs'), "export { verifyWebhook } from 'mediagw/webhooks';\n");
    const out = await bundle('sync-entry.mjs', { platform: 'neutral', format: 'esm', external: ['node:*'] });
    if (!out.includes('node:crypto')) throw new Error('the no-node: assertions above could not fail');
  });
}

/**
 * The client checks under Bun, its binary given as CONSUMER_BUN: the same seven with
 * `fetch: globalThis.fetch` and with no fetch option, a refused dispatcher, and webhooks.
 */
async function bunChecks(bun) {
  for (const [format, file] of [
    ['import', 'bun-esm.mjs'],
    ['require', 'bun-cjs.cjs'],
  ]) {
    await check(`Bun, ${format}: client against the mock gateway with and without fetch, webhooks`, () => {
      if (!existsSync(bun))
        throw new Error(`CONSUMER_BUN=${bun} is not a file: scripts/bun-for-tests.sh failed?`);
      const line = run(bun, [file], { timeout: 120_000 }).trim().split('\n').at(-1);
      const { checks, runtime } = JSON.parse(line);
      const given = checks.filter((c) => c.startsWith('fetch: ')).map((c) => c.split(': ').at(-1));
      const picked = checks.filter((c) => c.startsWith('no fetch option')).map((c) => c.split(': ').at(-1));
      if (
        given.length < 7 ||
        given.join() !== picked.join() ||
        !checks.includes('mediagw/webhooks verify') ||
        !checks.includes('fileFromURL with no fetch option')
      )
        throw new Error(`${runtime}: an incomplete set of checks ran: ${checks.join(', ')}`);
      console.log(`     ${runtime}: ${checks.length} checks`);
    });
  }
}

const started = performance.now();
console.log(`check-consumer: node ${process.version}`);
try {
  const tarball = await pack();
  console.log(`packed ${tarball}`);
  install(tarball);
  console.log(`installed into ${project}`);
} catch (error) {
  console.error(`check-consumer: could not pack and install the package\n${error.message}`);
  process.exit(1);
}
await runtimeChecks();
await dualPackageErrorCheck();
await cliDependencyCheck();
await binCheck();
await bundledDependencyCheck();
await exampleChecks();
await typeChecks();
await edgeBundle();
if (process.env.CONSUMER_BUN) await bunChecks(process.env.CONSUMER_BUN);
const seconds = ((performance.now() - started) / 1000).toFixed(1);
if (process.env.CONSUMER_JSON_REPORT) {
  const report = { numPassedTests: passed, numFailedTests: failures.length };
  writeFileSync(process.env.CONSUMER_JSON_REPORT, JSON.stringify(report));
}
if (failures.length) {
  console.error(
    `check-consumer: ${failures.length} check(s) failed in ${seconds} s:\n- ${failures.join('\n- ')}`,
  );
  process.exit(1);
}
console.log(`check-consumer: the packed package works as a consumer uses it (${seconds} s)`);
