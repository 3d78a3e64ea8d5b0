// Covers: the built bundles: ESM-only dependencies under require()
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Options } from 'tsup';
import { describe, expect, it } from 'vitest';
import configs, { BUNDLED_DEPENDENCIES, ESM_ONLY_DEPENDENCIES } from '../../tsup.config.js';

interface Manifest {
  name: string;
  type?: string;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

const rootManifest = new URL('../../package.json', import.meta.url);
const pkg = JSON.parse(readFileSync(rootManifest, 'utf8')) as Manifest;

/** The package.json of the package that holds `file`. */
function manifestOf(file: string): { path: string; manifest: Manifest } {
  for (let dir = dirname(file); dir !== dirname(dir); dir = dirname(dir)) {
    const path = join(dir, 'package.json');
    if (existsSync(path)) return { path, manifest: JSON.parse(readFileSync(path, 'utf8')) as Manifest };
  }
  throw new Error(`no package.json above ${file}`);
}

/** What `require(name)` from `from` (a package.json) loads, and whether that file is an ES module. */
function requireTarget(name: string, from: string): { file: string; esm: boolean } {
  const file = createRequire(from).resolve(name);
  if (file.endsWith('.mjs')) return { file, esm: true };
  if (file.endsWith('.cjs')) return { file, esm: false };
  return { file, esm: manifestOf(file).manifest.type === 'module' };
}

/** The dependencies of `name` and of theirs, as found from `from`. */
function dependencyTree(name: string, from: string, seen = new Set<string>()): Set<string> {
  const { path, manifest } = manifestOf(requireTarget(name, from).file);
  for (const dependency of Object.keys(manifest.dependencies ?? {})) {
    if (seen.has(dependency)) continue;
    seen.add(dependency);
    dependencyTree(dependency, path, seen);
  }
  return seen;
}

const library = (format: string) => {
  const found = (configs as Options[]).filter((c) => c.format?.includes(format as 'esm' | 'cjs'));
  const withIndex = found.find((c) => typeof c.entry === 'object' && 'index' in c.entry);
  if (!withIndex) throw new Error(`no ${format} build of the index entry in tsup.config.ts`);
  return withIndex;
};

describe('dependencies that `require` cannot load', () => {
  it('are exactly the ones the CommonJS build carries inside itself', () => {
    const esmOnly = Object.keys(pkg.dependencies ?? {}).filter(
      (name) => requireTarget(name, fileURLToPath(rootManifest)).esm,
    );
    expect(esmOnly).toContain('p-retry');
    expect([...ESM_ONLY_DEPENDENCIES].sort()).toEqual(esmOnly.sort());
  });

  it('are bundled into the CommonJS build and left to `import` in the ESM build', () => {
    expect(library('cjs').format).toEqual(['cjs']);
    expect(library('cjs').noExternal).toEqual([...ESM_ONLY_DEPENDENCIES, ...BUNDLED_DEPENDENCIES]);
    expect(library('esm').format).toEqual(['esm']);
    // The ESM build carries only the packages it carries for every format (bundled-dependencies.test.ts).
    expect(library('esm').noExternal).toEqual(BUNDLED_DEPENDENCIES);
  });

  it.each(ESM_ONLY_DEPENDENCIES)(
    '%s brings no dependency that the build would leave to `require`',
    (name) => {
      // tsup keeps every dependency and peer dependency of mediagw external, bundled or not: one
      // reached from a bundled package would still be loaded by `require` at run time.
      const external = new Set([
        ...Object.keys(pkg.dependencies ?? {}),
        ...Object.keys(pkg.peerDependencies ?? {}),
      ]);
      const tree = dependencyTree(name, fileURLToPath(rootManifest));
      expect([...tree].filter((dependency) => external.has(dependency))).toEqual([]);
    },
  );
});
