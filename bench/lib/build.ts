import { copyFileSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Options } from 'tsup';

/** A build of the package in a temporary folder. */
export interface PackageBuild {
  /** The folder: `package.json`, `dist/`, and `node_modules` linked to the repository's. */
  dir: string;
  /** `<dir>/dist`. */
  dist: string;
  /** Milliseconds the build took. */
  ms: number;
  /** Deletes the folder. */
  remove(): void;
}

/**
 * Builds the package as `npm run build` does (the repository's `tsup.config.ts`, every entry,
 * ESM and CommonJS) into a temporary folder, without type declarations, which the bench does
 * not need. The working tree's `dist/` is left alone. The folder gets the package's
 * `package.json` (for `"type"` and self-reference) and a link to `node_modules`, so the built
 * files resolve their dependencies as an installed package does.
 */
export async function buildPackage(root: string): Promise<PackageBuild> {
  const started = performance.now();
  const dir = mkdtempSync(join(tmpdir(), 'mediagw-bench-'));
  const dist = join(dir, 'dist');
  copyFileSync(join(root, 'package.json'), join(dir, 'package.json'));
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
  const { build } = await import('tsup');
  const loaded = (await import(pathToFileURL(join(root, 'tsup.config.ts')).href)) as {
    default: Options | Options[];
  };
  const configs = Array.isArray(loaded.default) ? loaded.default : [loaded.default];
  const cwd = process.cwd();
  process.chdir(root); // entries in the config are relative to the repository
  try {
    for (const config of configs) {
      await build({
        ...config,
        outDir: dist,
        dts: false,
        sourcemap: false,
        clean: false,
        silent: true,
        config: false,
      });
    }
  } finally {
    process.chdir(cwd);
  }
  return {
    dir,
    dist,
    ms: performance.now() - started,
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
