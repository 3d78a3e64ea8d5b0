/**
 * The builds of `mediagw/jobs` and of the `mediagw` command (used by tsup.config.ts): their files
 * import the SDK through the package's entry files (`../index.js`, `../redis/index.js`,
 * `../webhooks/index.js`, and for the command `../testing/index.js` and `../jobs/index.js`), and
 * the build turns each into the package's own name (`mediagw`, `mediagw/redis`, ...), left for
 * Node to resolve by self-reference. Without it, `dist/jobs` carried a copy of the SDK (about
 * 140 KB), and the command one of the SDK, the mock gateway and the jobs runner (about 800 KB),
 * whose error classes and clients were not the objects `import 'mediagw'` gives.
 * The source, which the tests run, imports the files as usual; scripts/check-entries.mjs checks
 * the built files import the package and carry no copy of it.
 */
import { dirname, relative, resolve, sep } from 'node:path';
import type { Plugin } from 'esbuild';

/** The entry files other entries may reach, by their path under `src/`, and the subpath each is. */
export const PACKAGE_ENTRIES: Readonly<Record<string, string>> = {
  'index.ts': 'mediagw',
  'redis/index.ts': 'mediagw/redis',
  'webhooks/index.ts': 'mediagw/webhooks',
  'testing/index.ts': 'mediagw/testing',
  'jobs/index.ts': 'mediagw/jobs',
};

/**
 * An esbuild plugin: in files under `src/<folder>/` (`jobs`, `cli`), an import of one of
 * {@link PACKAGE_ENTRIES} outside that folder becomes an external import of the package's name.
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
        if (target.startsWith(`${folder}/`)) return undefined;
        const name = PACKAGE_ENTRIES[target.replace(/\.js$/, '.ts')];
        return name === undefined ? undefined : { path: name, external: true };
      });
    },
  };
}
