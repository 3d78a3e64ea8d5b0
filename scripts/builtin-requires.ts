/**
 * The ES module builds carry some CommonJS packages inside themselves (busboy in the mock
 * gateway, the command line's packages in the `mediagw` command: tsup.config.ts), and those
 * `require` Node's built-in modules. esbuild leaves such a `require` as a call that throws in an
 * ES module ("Dynamic require of "stream" is not supported"). This plugin gives each of them the
 * module itself, from `process.getBuiltinModule` (Node 20.16 and later; the package needs
 * 20.18.1), or from `require` where a runtime defines it in ES modules too (Bun).
 */
import { isBuiltin } from 'node:module';
import type { Plugin } from 'esbuild';

const NAMESPACE = 'mediagw-builtin-require';

/** The esbuild plugin; only a `require` written in a package under node_modules is changed. */
export function builtinRequires(): Plugin {
  return {
    name: 'mediagw-builtin-requires',
    setup(build) {
      build.onResolve({ filter: /^[\w:/]+$/ }, (args) => {
        if (args.kind !== 'require-call' || !isBuiltin(args.path)) return undefined;
        if (!/[\\/]node_modules[\\/]/.test(args.importer)) return undefined;
        return { path: args.path, namespace: NAMESPACE };
      });
      build.onLoad({ filter: /.*/, namespace: NAMESPACE }, (args) => {
        const name = JSON.stringify(args.path);
        return {
          contents: `module.exports = globalThis.process?.getBuiltinModule?.(${name}) ?? require(${name});\n`,
          loader: 'js',
        };
      });
    },
  };
}
