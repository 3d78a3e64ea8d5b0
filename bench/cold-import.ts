/**
 * (5) Cold import time: a fresh `node` that imports one entry of the built package and exits,
 * minus a fresh `node -e ''`, against `openai` (ESM and CommonJS). Dependencies alone, and an
 * empty ES module file (what Node spends on importing any file as ESM), are measured too, for
 * reference.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type BenchContext, reps } from './lib/context.js';
import type { Row } from './lib/results.js';
import { interleave, median, pairedDifference, ratio } from './lib/stats.js';

interface Target {
  key: string;
  args: string[];
}

function esm(key: string, specifier: string): Target {
  return { key, args: ['--input-type=module', '-e', `import ${JSON.stringify(specifier)};`] };
}

function cjs(key: string, specifier: string): Target {
  return { key, args: ['-e', `require(${JSON.stringify(specifier)});`] };
}

function targets(dist: string, tmp: string): Target[] {
  const file = (path: string) => join(dist, path);
  const emptyModule = join(tmp, 'empty.mjs');
  writeFileSync(emptyModule, 'export {};\n');
  return [
    { key: 'empty', args: ['-e', ''] },
    esm('empty-module-esm', pathToFileURL(emptyModule).href),
    esm('mediagw-esm', pathToFileURL(file('index.js')).href),
    cjs('mediagw-cjs', file('index.cjs')),
    esm('webhooks-esm', pathToFileURL(file('webhooks/index.js')).href),
    cjs('webhooks-cjs', file('webhooks/index.cjs')),
    esm('openai-esm', 'openai'),
    cjs('openai-cjs', 'openai'),
    esm('standardwebhooks-esm', 'standardwebhooks'),
    esm('zod-esm', 'zod'),
    esm('undici-esm', 'undici'),
    esm('form-data-esm', 'form-data-encoder'),
    esm('p-retry-esm', 'p-retry'),
  ];
}

/** Milliseconds from spawning `node` to its exit. */
function timeProcess(args: string[], cwd: string): number {
  const started = performance.now();
  const result = spawnSync(process.execPath, args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
  const ms = performance.now() - started;
  if (result.status !== 0) throw new Error(`node ${args.join(' ')} failed: ${result.stderr}`);
  return ms;
}

/**
 * Milliseconds one fresh process spends importing `entry` and, for the floor, a second empty ES
 * module file, both after a first empty module has started Node's ES module loader (4-5 ms of
 * Node's own that any ES module pays). Timed inside the process, the figure holds the entry's
 * own cost (reading, compiling and running it, with the builtins it imports) without the
 * spawn-to-exit jitter of two processes, which on a busy machine is larger than the figure.
 */
function timeImportAfterLoader(entry: string, tmp: string, cwd: string, entryFirst: boolean): number {
  const warm = pathToFileURL(join(tmp, 'loader-warm.mjs')).href;
  const floor = pathToFileURL(join(tmp, 'loader-floor.mjs')).href;
  writeFileSync(join(tmp, 'loader-warm.mjs'), 'export {};\n');
  writeFileSync(join(tmp, 'loader-floor.mjs'), 'export {};\n');
  const code =
    `await import(${JSON.stringify(warm)});\n` +
    'const time = async (url) => { const t = performance.now(); await import(url); return performance.now() - t; };\n' +
    (entryFirst
      ? `const entry = await time(${JSON.stringify(entry)}); const floor = await time(${JSON.stringify(floor)});\n`
      : `const floor = await time(${JSON.stringify(floor)}); const entry = await time(${JSON.stringify(entry)});\n`) +
    'process.stdout.write(JSON.stringify({ entry, floor }));\n';
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', code], { cwd, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`timing ${entry} failed: ${result.stderr}`);
  const { entry: ms, floor: floorMs } = JSON.parse(result.stdout) as { entry: number; floor: number };
  return ms - floorMs;
}

/** Packages only the `mediagw` command uses: importing the library must load none of them. */
const CLI_DEPENDENCIES = ['commander', 'picocolors', 'cli-progress'];

/**
 * Fails the bench when importing an entry of the package (ESM or CommonJS) loads a dependency
 * of the command line: a resolve hook refuses them, so the timings below never include one.
 */
export function checkNoCliDependencies(list: Target[], tmp: string, cwd: string): void {
  const hooks = join(tmp, 'no-cli-hooks.mjs');
  writeFileSync(
    hooks,
    `const refused = new Set(${JSON.stringify(CLI_DEPENDENCIES)});\n` +
      'export async function resolve(specifier, context, next) {\n' +
      "  if (refused.has(specifier)) throw new Error('the command line dependency ' + specifier + ' was loaded');\n" +
      '  return next(specifier, context);\n}\n',
  );
  const register = join(tmp, 'no-cli-register.mjs');
  writeFileSync(
    register,
    `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`,
  );
  // The hook sees ES module imports; a CommonJS entry's own requires are read off require.cache.
  const cjsCheck =
    ' const bad = Object.keys(require.cache).filter((f) => /[\\\\/]node_modules[\\\\/](' +
    CLI_DEPENDENCIES.join('|') +
    ")[\\\\/]/.test(f)); if (bad.length) { console.error('loaded ' + bad.join(', ')); process.exit(1); }";
  for (const target of list.filter((t) => /^(mediagw|webhooks)-/.test(t.key))) {
    const [flag = '', code = ''] = target.args;
    const own = flag === '-e' ? ['-e', code + cjsCheck] : target.args;
    const args = ['--import', pathToFileURL(register).href, ...own];
    const result = spawnSync(process.execPath, args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
    if (result.status !== 0) throw new Error(`${target.key}: ${result.stderr}`);
  }
}

/** Runs in the parent: every target spawned in rotating order, one fresh process each time. */
export async function measure(ctx: BenchContext): Promise<Row[]> {
  const list = targets(ctx.dist, ctx.tmp);
  checkNoCliDependencies(list, ctx.tmp, ctx.root);
  const rounds = reps(ctx, 41, 5);
  for (const target of list) timeProcess(target.args, ctx.root); // fill the file cache
  const samples = await interleave(
    list.map((t) => t.key),
    rounds,
    async (key) => timeProcess((list.find((t) => t.key === key) as Target).args, ctx.root),
  );
  const emptySamples = samples.empty ?? [];
  // The small figures held to a floor (mediagw/webhooks, a few ms) are also taken back to back
  // with that floor, in alternating order: on a busy machine, two processes spawned a dozen
  // targets apart differ by more than the figure itself.
  const backToBack = (mine: string, floor: string): number[] => {
    const args = (key: string) => (list.find((t) => t.key === key) as Target).args;
    const out: number[] = [];
    for (let i = 0; i < reps(ctx, 61, 11); i++) {
      const pair = i % 2 === 0 ? [mine, floor] : [floor, mine];
      const [first, second] = pair.map((key) => timeProcess(args(key as string), ctx.root)) as [
        number,
        number,
      ];
      out.push(i % 2 === 0 ? first - second : second - first);
    }
    return out;
  };
  const webhooksEsmBackToBack = backToBack('webhooks-esm', 'empty-module-esm');
  const webhooksUrl = pathToFileURL(join(ctx.dist, 'webhooks/index.js')).href;
  const webhooksEsmOverModule: number[] = [];
  for (let i = 0; i < reps(ctx, 61, 11); i++)
    webhooksEsmOverModule.push(timeImportAfterLoader(webhooksUrl, ctx.tmp, ctx.root, i % 2 === 0));
  const webhooksCjsOverEmpty = backToBack('webhooks-cjs', 'empty');
  const empty = median(emptySamples);
  // Each target minus the empty process of the same round: a machine that slows down for a
  // few rounds slows both sides of a pair.
  const overSamples = (key: string) => pairedDifference(samples[key] ?? [], emptySamples);
  const over = (key: string) => median(overSamples(key));
  ctx.log(
    `import: empty process ${empty.toFixed(0)} ms; ${list.map((t) => `${t.key} +${over(t.key).toFixed(0)}`).join(', ')}`,
  );
  ctx.note(
    `(5) cold import: ${rounds} fresh processes per target in rotating order; a figure is the median over the rounds of the wall time from spawn to exit minus that of the same round's \`node -e ''\` (median ${empty.toFixed(0)} ms); ` +
      `an empty ES module file costs +${over('empty-module-esm').toFixed(1)} ms of Node's own, the floor of every ESM figure; mediagw/webhooks (ESM) over an empty ES module file is timed inside ${webhooksEsmOverModule.length} fresh processes, each of which first imports an empty module (starting Node's ES module loader) and then times the entry and a second empty module, in alternating order: +${median(webhooksEsmOverModule).toFixed(2)} ms (spawn to exit, back to back with an empty module file: +${median(webhooksEsmBackToBack).toFixed(2)} ms); mediagw/webhooks (CJS) was timed back to back with \`node -e ''\`, ${webhooksCjsOverEmpty.length} pairs in alternating order; ` +
      `for reference in the same run, alone: zod +${over('zod-esm').toFixed(0)} ms, undici +${over('undici-esm').toFixed(0)} ms, ` +
      `form-data-encoder +${over('form-data-esm').toFixed(0)} ms, p-retry +${over('p-retry-esm').toFixed(0)} ms (ESM).`,
  );
  const row = (id: string, figure: string, mine: string, peer: string, peerLabel: string): Row => ({
    id,
    figure,
    unit: 'ms',
    better: 'lower',
    mediagw: over(mine),
    limit: empty,
    limitLabel: "node -e '' itself",
    peer: over(peer),
    peerLabel,
    peerRatio: ratio(over(mine), over(peer)),
    samples: { mediagw: overSamples(mine), peer: overSamples(peer), limit: emptySamples },
  });
  // An ES module row whose own cost is small: its limit is an empty ES module file, Node's floor
  // for any ESM import (4-5 ms here), and the excess over it is paired round by round.
  const overEmptyModule = (base: Row): Row => ({
    ...base,
    limit: over('empty-module-esm'),
    limitLabel: 'an empty ES module file',
    overLimit: median(webhooksEsmOverModule),
    samples: { ...base.samples, limit: overSamples('empty-module-esm'), overLimit: webhooksEsmOverModule },
  });
  const backToBackOverEmpty = (base: Row, pairs: number[]): Row => ({
    ...base,
    mediagw: median(pairs),
    peerRatio: ratio(median(pairs), base.peer),
    samples: { ...base.samples, mediagw: pairs },
  });
  return [
    row(
      'import.mediagw.esm',
      '(5) import mediagw (ESM), over an empty process',
      'mediagw-esm',
      'openai-esm',
      'openai ESM',
    ),
    row(
      'import.mediagw.cjs',
      '(5) require mediagw (CJS), over an empty process',
      'mediagw-cjs',
      'openai-cjs',
      'openai CJS',
    ),
    overEmptyModule(
      row(
        'import.webhooks.esm',
        '(5) import mediagw/webhooks (ESM), over an empty process',
        'webhooks-esm',
        'standardwebhooks-esm',
        'standardwebhooks ESM',
      ),
    ),
    backToBackOverEmpty(
      row(
        'import.webhooks.cjs',
        '(5) require mediagw/webhooks (CJS), over an empty process',
        'webhooks-cjs',
        'standardwebhooks-esm',
        'standardwebhooks ESM',
      ),
      webhooksCjsOverEmpty,
    ),
  ];
}
