import { defineConfig, type Options } from 'tsup';
import { builtinRequires } from './scripts/builtin-requires.js';
import { compactLua } from './scripts/compact-lua.js';
import { lazySchemas } from './scripts/lazy-schemas.js';
import { licenseNotices } from './scripts/license-notices.js';
import { selfReference } from './scripts/self-reference.js';
import { wrapperNames } from './scripts/wrapper-names.js';

/**
 * The CommonJS build loads its lazy dependencies (undici, the multipart encoders, zod) with
 * `require`, not `import()`: test runners that sandbox modules, Jest among them, refuse `import()`.
 * It also keeps the names of classes and functions: its conversion to CommonJS assigns a class to
 * `exports.RequestValidationError`, which leaves `constructor.name` empty, and loggers that name
 * an error by its constructor (pino's serializer) would print no type.
 */
const esbuildOptions: Options['esbuildOptions'] = (options, { format }) => {
  if (format !== 'cjs') return;
  options.supported = { ...options.supported, 'dynamic-import': false };
  options.keepNames = true;
};

/**
 * Dependencies published as ES modules only, which `require` cannot load: Node 20.18 refuses
 * them (`ERR_REQUIRE_ESM`), and later Node versions return their namespace object, so the
 * default export read through `__toESM` is not the function. The CommonJS build carries their
 * code (and that of their own dependencies) inside itself, with their licenses; it still runs
 * only on first use. The ESM build imports them from `node_modules` as usual. test/build/esm-only-dependencies.test.ts
 * checks that the list names every such dependency.
 */
export const ESM_ONLY_DEPENDENCIES = ['p-retry'];

/**
 * Packages the build carries inside itself so that they are not installed for every user of the
 * SDK; they are devDependencies. busboy reads multipart bodies for the mock gateway alone
 * (`mediagw/testing`, which `mediagw mock` imports), and only a file that imports it takes it in, so
 * `mediagw`, `mediagw/webhooks` and `mediagw/redis` stay without it. The output keeps their
 * licenses (scripts/license-notices.ts), and their `require`s of Node's modules work in the ESM
 * build (scripts/builtin-requires.ts). test/build/bundled-dependencies.test.ts checks the lists.
 */
export const BUNDLED_DEPENDENCIES = ['busboy'];

/** The command line's own packages, carried inside the `mediagw` command the same way. */
export const CLI_DEPENDENCIES = ['commander', 'picocolors', 'cli-progress'];

const library: Options = {
  entry: {
    index: 'src/index.ts',
    'webhooks/index': 'src/webhooks/index.ts',
    'testing/index': 'src/testing/index.ts',
    'redis/index': 'src/redis/index.ts',
    'jobs/index': 'src/jobs/index.ts',
  },
  dts: true,
  sourcemap: true,
  target: 'node20',
  splitting: false,
  treeshake: true,
  // `mediagw/jobs` imports `mediagw`, `mediagw/redis` and `mediagw/webhooks` by the package's
  // name rather than carrying its own copy of them (scripts/self-reference.ts).
  esbuildPlugins: [selfReference('jobs'), lazySchemas(), licenseNotices(), compactLua()],
  plugins: [wrapperNames()],
  esbuildOptions,
};

export default defineConfig([
  {
    ...library,
    format: ['esm'],
    noExternal: BUNDLED_DEPENDENCIES,
    // Left as written, so that a bundled package's `require('node:stream')` reaches builtinRequires.
    removeNodeProtocol: false,
    esbuildPlugins: [selfReference('jobs'), lazySchemas(), licenseNotices(), compactLua(), builtinRequires()],
  },
  { ...library, format: ['cjs'], noExternal: [...ESM_ONLY_DEPENDENCIES, ...BUNDLED_DEPENDENCIES] },
  {
    // The command line: its own dependencies (commander, picocolors, cli-progress) are
    // imported only here, never by a library entry, and carried inside it.
    entry: { bin: 'src/cli/bin.ts', 'mock-bin': 'src/cli/mock-bin.ts' },
    outDir: 'dist/cli',
    // Chunk names carry content hashes: clear the folder so old chunks are not packed.
    clean: true,
    format: ['esm'],
    // The two bins share one chunk rather than each carrying the whole command.
    splitting: true,
    target: 'node20',
    banner: { js: '#!/usr/bin/env node' },
    noExternal: CLI_DEPENDENCIES,
    // commander requires `node:events` and the like: see the ESM library build.
    removeNodeProtocol: false,
    // The SDK, the mock gateway and the jobs runner come from the package itself
    // (scripts/self-reference.ts), not from a copy of them.
    esbuildPlugins: [selfReference('cli'), licenseNotices(), builtinRequires()],
    plugins: [wrapperNames()],
    esbuildOptions,
  },
]);
