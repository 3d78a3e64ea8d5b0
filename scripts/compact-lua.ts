/**
 * The Lua scripts of `mediagw/redis` are written indented, for people; Redis reads them the
 * same without their indentation. This plugin takes it out of the built package (about 30
 * bytes of `mediagw/redis` gzipped), so that the source stays readable and the entry small.
 * Only a template literal passed to `new LuaScript(` is changed, and only the space at the
 * start of its lines: a Lua string never spans lines here.
 */
import { readFile } from 'node:fs/promises';
import type { Plugin } from 'esbuild';

/** The esbuild plugin. */
export function compactLua(): Plugin {
  return {
    name: 'mediagw-compact-lua',
    setup(build) {
      build.onLoad({ filter: /[\\/]src[\\/]redis[\\/][\w-]+\.ts$/ }, async (args) => {
        const source = await readFile(args.path, 'utf8');
        if (!source.includes('new LuaScript(`')) return undefined;
        return {
          contents: source.replace(/new LuaScript\(`[^`]*`/g, (script) => script.replace(/\n[ \t]+/g, '\n')),
          loader: 'ts',
        };
      });
    },
  };
}
