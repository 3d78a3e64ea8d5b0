/**
 * (6) Bundled size of each entry point of the built package: esbuild (bundle, minify, ESM,
 * platform node) then gzip level 9, as `gzip-size` counts it. mediagw's own code is bundled
 * with its dependencies external; the figure with them inside is given for reference.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { BenchContext } from './lib/context.js';
import type { Row } from './lib/results.js';
import { ratio } from './lib/stats.js';

const KB = 1024;

interface Size {
  minified: number;
  gzipped: number;
}

async function bundle(
  root: string,
  entry: { file: string } | { contents: string },
  external: readonly string[],
): Promise<Size> {
  const { build } = await import('esbuild');
  const result = await build({
    ...('file' in entry
      ? { entryPoints: [entry.file] }
      : { stdin: { contents: entry.contents, resolveDir: root, loader: 'js' as const } }),
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external: [...external],
    write: false,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]?.contents ?? new Uint8Array();
  return { minified: code.byteLength, gzipped: gzipSync(code, { level: 9 }).byteLength };
}

/** Runs in the parent: esbuild in-process, no timing involved. */
export async function measure(ctx: BenchContext): Promise<Row[]> {
  const pkg = JSON.parse(readFileSync(join(ctx.root, 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
    peerDependencies?: Record<string, string>;
  };
  const deps = Object.keys({ ...pkg.dependencies, ...pkg.peerDependencies });
  const external = deps.flatMap((d) => [d, `${d}/*`]);
  const dist = (path: string) => ({ file: join(ctx.dist, path) });
  const webhooks = await bundle(ctx.root, dist('webhooks/index.js'), external);
  const own = await bundle(ctx.root, dist('index.js'), external);
  const withDeps = await bundle(ctx.root, dist('index.js'), []);
  const testing = await bundle(ctx.root, dist('testing/index.js'), external);
  const redis = await bundle(ctx.root, dist('redis/index.js'), external);
  const reexport = (name: string) => ({ contents: `export * from '${name}';` });
  const openai = await bundle(
    ctx.root,
    { contents: "export * from 'openai'; export { default } from 'openai';" },
    [],
  );
  const standard = await bundle(ctx.root, reexport('standardwebhooks'), []);
  const kb = (size: Size) => size.gzipped / KB;
  ctx.log(
    `size: webhooks ${kb(webhooks).toFixed(1)} KB, mediagw ${kb(own).toFixed(1)} KB, with deps ${kb(withDeps).toFixed(1)} KB`,
  );
  ctx.note(
    `(6) sizes: esbuild bundle + minify (ESM, node20) of the built dist, gzip -9; KB = 1,024 bytes. Minified before gzip: webhooks ${webhooks.minified} B, ` +
      `mediagw ${own.minified} B, mediagw with dependencies ${withDeps.minified} B; for reference mediagw/testing ${kb(testing).toFixed(1)} KB and ` +
      `mediagw/redis ${kb(redis).toFixed(1)} KB min+gz (dependencies external).`,
  );
  const row = (id: string, figure: string, size: Size, peer: Size, peerLabel: string): Row => ({
    id,
    figure,
    unit: 'KB',
    better: 'lower',
    mediagw: kb(size),
    peer: kb(peer),
    peerLabel,
    peerRatio: ratio(kb(size), kb(peer)),
  });
  return [
    row('size.webhooks', '(6) mediagw/webhooks, min+gz', webhooks, standard, 'standardwebhooks with deps'),
    row('size.mediagw', '(6) mediagw own code (deps external), min+gz', own, openai, 'openai'),
    row('size.mediagw.deps', '(6) mediagw with its dependencies, min+gz', withDeps, openai, 'openai'),
    {
      id: 'size.redis',
      figure: '(6) mediagw/redis, min+gz',
      unit: 'KB',
      better: 'lower',
      mediagw: kb(redis),
    },
  ];
}
