/**
 * The build's removal of the file names esbuild gives its lazily run modules (used by
 * tsup.config.ts). A module reached by `require` (the lazy schemas, scripts/lazy-schemas.ts, and
 * everything they import) is wrapped as `__esm({ "src/core/base-error.ts"() { ... } })`: the
 * path names the function for profilers, and nothing reads it (`__esm` calls the object's one
 * method whatever its name). A bundler that takes the package in cannot rename a string key, so
 * the paths, some 900 bytes, would stay in every user's bundle. Each becomes `f` padded with
 * spaces to the same length, so that the source map's columns still hold; a minifier drops the
 * spaces.
 */
import type { Options } from 'tsup';

type TsupPlugin = NonNullable<Options['plugins']>[number];

/** `"src/x/y.ts"()`, the key of a wrapped module's function. */
const WRAPPER_KEY = /"src\/[\w./-]+\.ts"\(\)/g;

/** The same text with every wrapped module's key made `f`, at the same length. */
export function withoutWrapperNames(code: string): string {
  return code.replace(WRAPPER_KEY, (key) => `f${' '.repeat(key.length - 3)}()`);
}

/** The tsup plugin that applies {@link withoutWrapperNames} to each chunk. */
export function wrapperNames(): TsupPlugin {
  return {
    name: 'mediagw-wrapper-names',
    renderChunk: (code) => ({ code: withoutWrapperNames(code) }),
  };
}
