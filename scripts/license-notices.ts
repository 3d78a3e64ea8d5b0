/**
 * The license of every package the build carries inside itself (used by tsup.config.ts): the
 * CommonJS build bundles the ESM-only dependencies, the mock gateway busboy and the command line
 * its own packages, and their licenses (MIT, ISC) ask that the notice go with the code. The first file loaded of each package gets the package's license file as a
 * `/*!` comment, which esbuild gathers at the end of the output under "Bundled license
 * information". Packages left external are never loaded, so the ESM build gets none.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Plugin } from 'esbuild';

/** The folder and package.json of the package that holds `file`. */
function packageOf(file: string): { dir: string; name: string; version: string } | undefined {
  for (let dir = dirname(file); dir !== dirname(dir); dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (!existsSync(manifest)) continue;
    const { name, version } = JSON.parse(readFileSync(manifest, 'utf8')) as {
      name?: string;
      version?: string;
    };
    // A nested package.json without a name ({ "type": "module" }) is not the package's own.
    if (name) return { dir, name, version: version ?? '' };
  }
  return undefined;
}

/** The comment for the package in `dir`, or an error naming it when it has no license file. */
export function licenseNotice(dir: string, name: string, version: string): string {
  // LICENSE, LICENSE.md, COPYING, and named ones such as LICENSE-MIT.txt (emoji-regex).
  const file = readdirSync(dir).find((entry) => /^(licen[sc]e|copying)(-[\w.]+)?(\.(md|txt))?$/i.test(entry));
  if (!file) throw new Error(`${name} is bundled but has no license file in ${dir}`);
  const text = readFileSync(join(dir, file), 'utf8').trim().replaceAll('*/', '* /');
  return `/*! ${name} ${version}\n\n${text}\n*/\n`;
}

/** The esbuild plugin that puts each bundled package's license in the output. */
export function licenseNotices(): Plugin {
  return {
    name: 'mediagw-license-notices',
    setup(build) {
      const noticed = new Set<string>();
      build.onStart(() => noticed.clear());
      build.onLoad({ filter: /[\\/]node_modules[\\/].*\.[cm]?js$/ }, (args) => {
        const pkg = packageOf(args.path);
        if (!pkg || noticed.has(pkg.dir)) return undefined;
        noticed.add(pkg.dir);
        const source = readFileSync(args.path, 'utf8');
        return { contents: `${licenseNotice(pkg.dir, pkg.name, pkg.version)}${source}`, loader: 'js' };
      });
    },
  };
}
