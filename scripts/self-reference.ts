/**
 * The build of `mediagw/jobs` (used by tsup.config.ts): its files import the SDK through the
 * package's entry files (`../index.js`, `../redis/index.js`, `../webhooks/index.js`), and the
 * build turns each into the package's own name (`mediagw`, `mediagw/redis`, `mediagw/webhooks`),
 * left for Node to resolve by self-reference. Without it, `dist/jobs` carried a copy of the SDK
 * (about 140 KB) whose error classes and clients were not the objects `import 'mediagw'` gives.
 * The source, which the tests run, imports the files as usual; scripts/check-entries.mjs checks
 * the built entry imports the package and carries no copy of it.
 */
import { dirname, relative, resolve, sep } from 'node:path';
import type { Plugin } from 'esbuild';

/** The entry files other entries may reach, by their path under `src/`, and the subpath each is. */
export const PACKAGE_ENTRIES: Readonly<Record<string, string>> = {
  'index.ts': 'mediagw',
  'redis/index.ts': 'mediagw/redis',
  'webhooks/index.ts': 'mediagw/webhooks',
};

/**
 * An esbuild plugin: in files under `src/<folder>/` (`folder` being `jobs`), an import of one of
 * {@link PACKAGE_ENTRIES} becomes an external import of the package's name.
 */
export function selfReference(folder: string): Plugin {
  return {
    name: 'self-reference',
    setup(build) {
      const src = resolve('src');
      const inside = resolve(src, folder) + sep;
      build.onResolve({ filter: /\/index\.js$/ }, (args) => {
        if (!args.importer.startsWith(inside)) return undefined;
        const target = relative(src, resolve(dirname(args.importer), args.path))
          .split(sep)
          .join('/');
        const name = PACKAGE_ENTRIES[target.replace(/\.js$/, '.ts')];
        return name === undefined ? undefined : { path: name, external: true };
      });
    },
  };
}
