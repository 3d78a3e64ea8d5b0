import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import ts from 'typescript';
import type { Snippet } from './markdown-snippets.js';
import { type Prelude, preludeFor, preludeNamesFor } from './snippet-prelude.js';

/** A compiler error, placed in the guide it comes from. */
export interface SnippetDiagnostic {
  file: string;
  /** 1-based line in the guide. */
  line: number;
  /** 1-based line of the block's first code line. */
  blockLine: number;
  /** 1-based column in the snippet's line (0 for the prelude). */
  column: number;
  message: string;
}

/** What one compilation of a set of snippets found. */
export interface SnippetCompilation {
  diagnostics: SnippetDiagnostic[];
  /** `guide: name` for each prelude name declared for at least one snippet. */
  usedPreludeNames: Set<string>;
  /** Diagnostics of the compiler options or of the program as a whole. */
  globalDiagnostics: string[];
}

/** A first line such as `// app/api/webhooks/route.ts` names the file the snippet is. */
const FILE_NAME = /^\/\/\s*((?:[\w.[\]-]+\/)*[\w.[\]-]+\.ts)\s*$/;

/**
 * Type-checks snippets in one TypeScript program with the repository's compiler options (its
 * `paths` map the package names to the sources).
 *
 * Each guide gets a folder in a temporary directory inside `node_modules/.cache`, so that bare
 * imports (`express`, `hono`) resolve as they do for the repository, with a `package.json` that
 * makes every file an ES module. A snippet whose first line names a file (`// lib/redis.ts`) is
 * written at that path of its guide's folder, so that other snippets of the guide can import it
 * (`./redis.js`, or `@/lib/redis` as in a Next.js project); the others get a name of their own.
 * The prelude's declarations share the snippet's first line so that diagnostics keep the guide's
 * line numbers. The directory is removed afterwards.
 */
export function compileSnippets(
  root: string,
  snippets: readonly Snippet[],
  preludes: Readonly<Record<string, Prelude>>,
): SnippetCompilation {
  const options = readCompilerOptions(root);
  const cache = join(root, 'node_modules', '.cache');
  mkdirSync(cache, { recursive: true });
  const dir = mkdtempSync(join(cache, 'mediagw-doc-snippets-'));
  try {
    writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
    const usedPreludeNames = new Set<string>();
    const byPath = new Map<string, Snippet>();
    for (const snippet of snippets) {
      const prelude = preludeFor(preludes, snippet.file);
      const names = preludeNamesFor(snippet.code, prelude);
      for (const name of names) usedPreludeNames.add(`${snippet.file}: ${name}`);
      const declarations = names
        .map((name) => `declare const ${name}: ${prelude[name]};`.replace(/\s+/g, ' '))
        .join(' ');
      const named = FILE_NAME.exec(snippet.code.split('\n', 1)[0] ?? '')?.[1];
      const path = join(guideFolder(dir, snippet.file), named ?? `snippet-L${snippet.line}.ts`);
      if (byPath.has(path))
        throw new Error(`${snippet.file}:${snippet.line}: a second snippet names ${named}`);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, `${declarations}\n${snippet.code}\nexport {};\n`);
      byPath.set(path, snippet);
    }
    const host = ts.createCompilerHost(options);
    host.resolveModuleNameLiterals = resolverFor(host, options, dir);
    const program = ts.createProgram({ rootNames: [...byPath.keys()], options, host });
    const diagnostics: SnippetDiagnostic[] = [];
    for (const [path, snippet] of byPath) {
      const source = program.getSourceFile(path);
      if (!source) throw new Error(`the program did not load ${path}`);
      const found = [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)];
      for (const diagnostic of found) diagnostics.push(place(diagnostic, snippet, source));
    }
    const globalDiagnostics = [...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics()].map(
      (d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'),
    );
    return { diagnostics, usedPreludeNames, globalDiagnostics };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function guideFolder(dir: string, guide: string): string {
  return join(dir, guide.replace(/[^a-zA-Z0-9]+/g, '-'));
}

function readCompilerOptions(root: string): ts.CompilerOptions {
  const configPath = join(root, 'tsconfig.json');
  const read = ts.readConfigFile(configPath, ts.sys.readFile);
  if (read.error) throw new Error(ts.flattenDiagnosticMessageText(read.error.messageText, '\n'));
  const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, root, undefined, configPath);
  if (parsed.errors.length > 0) {
    throw new Error(
      parsed.errors.map((e) => ts.flattenDiagnosticMessageText(e.messageText, '\n')).join('\n'),
    );
  }
  return { ...parsed.options, noEmit: true, incremental: false };
}

/**
 * Module resolution as the repository does it, except for `@/...`, which Next.js snippets use:
 * that resolves as in a Next.js project (bundler resolution, `@/*` mapped to the project root,
 * here the guide's folder).
 */
function resolverFor(
  host: ts.CompilerHost,
  options: ts.CompilerOptions,
  dir: string,
): NonNullable<ts.CompilerHost['resolveModuleNameLiterals']> {
  const cache = ts.createModuleResolutionCache(
    host.getCurrentDirectory(),
    host.getCanonicalFileName,
    options,
  );
  return (literals, containingFile, redirected, _options, containingSource) =>
    literals.map((literal) => {
      if (literal.text.startsWith('@/') && containingFile.startsWith(dir)) {
        const guide = containingFile.slice(dir.length + 1).split(/[\\/]/)[0] ?? '';
        const nextOptions: ts.CompilerOptions = {
          ...options,
          module: ts.ModuleKind.ESNext,
          moduleResolution: ts.ModuleResolutionKind.Bundler,
          paths: { '@/*': [`${join(dir, guide)}/*`] },
        };
        return ts.resolveModuleName(literal.text, containingFile, nextOptions, host);
      }
      const mode = ts.getModeForUsageLocation(containingSource, literal, options);
      return ts.resolveModuleName(literal.text, containingFile, options, host, cache, redirected, mode);
    });
}

function place(diagnostic: ts.Diagnostic, snippet: Snippet, source: ts.SourceFile): SnippetDiagnostic {
  const message = `TS${diagnostic.code}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`;
  const at = source.getLineAndCharacterOfPosition(diagnostic.start ?? 0);
  if (at.line === 0) {
    // The prelude's line: a placeholder's declared type no longer fits the SDK.
    const line = snippet.line;
    return { file: snippet.file, line, blockLine: line, column: 0, message: `in the prelude: ${message}` };
  }
  const line = snippet.line + at.line - 1;
  return { file: snippet.file, line, blockLine: snippet.line, column: at.character + 1, message };
}

/** `file:line:column (block at line n) message`, the way a failure is reported. */
export function formatDiagnostic(d: SnippetDiagnostic): string {
  return `${d.file}:${d.line}:${d.column} (block at line ${d.blockLine}) ${d.message}`;
}
