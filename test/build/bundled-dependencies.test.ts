// Covers: the built bundles: which dependencies dist/ carries inside
/**
 * Packages the build carries inside itself instead of installing them for every user
 * (tsup.config.ts): busboy, which only the mock gateway uses, and the command line's own
 * packages. They must be devDependencies, imported only where the build bundles them, and
 * bundled by every build that reaches them.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Options } from 'tsup';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import configs, { BUNDLED_DEPENDENCIES, CLI_DEPENDENCIES } from '../../tsup.config.js';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));
const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

/** Each package that files under src/ import (type-only imports too), with the files importing it. */
function importedPackages(): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const path of sourceFiles(SRC)) {
    const file = relative(SRC, path).split('\\').join('/');
    for (const { fileName } of ts.preProcessFile(readFileSync(path, 'utf8'), true, true).importedFiles) {
      if (fileName.startsWith('.') || isBuiltin(fileName)) continue;
      const name = fileName.startsWith('@')
        ? fileName.split('/').slice(0, 2).join('/')
        : fileName.split('/')[0]!;
      found.set(name, [...(found.get(name) ?? []), file]);
    }
  }
  return found;
}

const builds = configs as Options[];
const byEntry = (name: string) => builds.filter((c) => typeof c.entry === 'object' && name in c.entry);
const pluginNames = (config: Options) => (config.esbuildPlugins ?? []).map((p) => p.name);

describe('packages the build carries inside itself', () => {
  it('are devDependencies, not dependencies', () => {
    for (const name of [...BUNDLED_DEPENDENCIES, ...CLI_DEPENDENCIES]) {
      expect(pkg.dependencies?.[name], name).toBeUndefined();
      expect(pkg.devDependencies?.[name], name).toBeDefined();
    }
  });

  it('are imported only where the build bundles them: busboy by the mock gateway, the rest by cli/', () => {
    const imports = importedPackages();
    // The control: the lists name packages the sources do import.
    for (const name of [...BUNDLED_DEPENDENCIES, ...CLI_DEPENDENCIES])
      expect(imports.has(name), name).toBe(true);
    const misplaced: string[] = [];
    for (const name of BUNDLED_DEPENDENCIES)
      for (const file of imports.get(name) ?? [])
        if (!/^(testing|cli)\//.test(file)) misplaced.push(`${file} imports ${name}`);
    for (const name of CLI_DEPENDENCIES)
      for (const file of imports.get(name) ?? [])
        if (!file.startsWith('cli/')) misplaced.push(`${file} imports ${name}`);
    expect(misplaced).toEqual([]);
  });

  it('every other package src/ imports is a dependency or a peer dependency', () => {
    const installed = new Set([
      ...Object.keys(pkg.dependencies ?? {}),
      ...Object.keys(pkg.peerDependencies ?? {}),
    ]);
    const bundled = new Set([...BUNDLED_DEPENDENCIES, ...CLI_DEPENDENCIES]);
    const missing = [...importedPackages()]
      .filter(([name]) => !installed.has(name) && !bundled.has(name))
      .map(([name, files]) => `${name} (${files.join(', ')})`);
    expect(missing).toEqual([]);
  });

  it('are bundled by each build that reaches them, which keeps their licenses and their requires', () => {
    const [esm, cjs] = [
      byEntry('testing/index').find((c) => c.format?.includes('esm')),
      byEntry('testing/index').find((c) => c.format?.includes('cjs')),
    ];
    const cli = byEntry('bin')[0];
    expect(esm?.noExternal).toEqual(expect.arrayContaining(BUNDLED_DEPENDENCIES));
    expect(cjs?.noExternal).toEqual(expect.arrayContaining(BUNDLED_DEPENDENCIES));
    expect(cli?.noExternal).toEqual(expect.arrayContaining(CLI_DEPENDENCIES));
    // The command reaches busboy through mediagw/testing, which it imports from the package.
    expect(pluginNames(cli!)).toContain('self-reference');
    for (const config of [esm, cjs, cli]) expect(pluginNames(config!)).toContain('mediagw-license-notices');
    // In an ES module a bundled CommonJS package's `require('node:…')` needs the plugin, and the
    // plugin needs to see `node:` as written.
    for (const config of [esm, cli]) {
      expect(pluginNames(config!)).toContain('mediagw-builtin-requires');
      expect(config!.removeNodeProtocol).toBe(false);
    }
  });
});
