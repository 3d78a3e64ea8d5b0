// Covers: the import rules of ARCHITECTURE.md over src/
/**
 * The layers of ARCHITECTURE.md, checked on the source: every import of every `src/**\/*.ts`
 * (static, dynamic, `export … from`, and type-only ones too: a type that has to be fetched from
 * a layer above belongs lower down) must point down the arrows, and no file may reach itself
 * through its imports. A failure lists each offending edge or cycle. Inside testing/ (the mock
 * gateway) the same holds between its own tiers: HTTP edge → routes → state, types in a leaf,
 * and the dashboard beside the routes, on the state alone. A doc comment's `{@link Name}` names
 * something its file imports or declares, so that a link follows the imports it documents.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

type Layer =
  | 'core'
  | 'schemas'
  | 'internal'
  | 'resources'
  | 'client'
  | 'index'
  | 'webhooks'
  | 'redis'
  | 'testing'
  | 'jobs'
  | 'cli';

/**
 * What each layer may import (besides itself). `testing` may import any of them; nothing but
 * `cli` imports it. `cli` is a user of the SDK: it imports the public entries alone
 * ({@link ENTRY_FILES}), never what stands behind them.
 */
const MAY_IMPORT: Record<Layer, readonly Layer[]> = {
  core: [],
  schemas: ['core'],
  internal: ['core', 'schemas'],
  resources: ['core', 'schemas', 'internal'],
  client: ['core', 'schemas', 'internal', 'resources'],
  index: ['core', 'schemas', 'internal', 'resources', 'client'],
  webhooks: ['core'],
  redis: ['core', 'webhooks'],
  testing: ['core', 'schemas', 'internal', 'resources', 'client', 'index', 'webhooks', 'redis'],
  jobs: ['index', 'webhooks', 'redis'],
  cli: ['index', 'webhooks', 'redis', 'testing', 'jobs'],
};

/** The files behind the package's entry points: all that `cli/` may import of the SDK. */
const ENTRY_FILES = ['index.ts', 'webhooks/index.ts', 'redis/index.ts', 'testing/index.ts', 'jobs/index.ts'];

/** Packages the receiver-side entries must not reach, directly or through any file they import. */
const HEAVY_PACKAGES = ['undici', 'zod', 'p-retry', 'form-data-encoder', 'formdata-node'];
const LIGHT_LAYERS: readonly Layer[] = ['webhooks', 'redis'];

/**
 * Modules that read or write files or talk over the network, which core/ may not import:
 * Node's file system and sockets (`fs`, `net`, `tls`, `dgram`, `dns`, `http`, `https`, `http2`,
 * `child_process`), undici, and Node's streams (`stream`, `stream/promises`): in this SDK a Node
 * stream only ever carries bytes between a socket or a file and the caller, which is the work of
 * internal/. A type-only import (`import type { ReadStream } from 'node:fs'`, the `Uploadable`
 * type) is erased from the build and reads nothing, so it is allowed. core/ may import no other
 * layer, so no I/O reaches it through a file of the SDK either.
 */
const IO_MODULE =
  /^(node:)?(fs|fs\/promises|net|tls|dgram|dns|dns\/promises|http|https|http2|child_process|stream|stream\/promises)$|^undici(\/|$)/;

/** The layer of a file, by its path under src/ (`version.ts`, a leaf constant, counts as core). */
function layerOf(file: string): Layer {
  const [top = ''] = file.split('/');
  if (file === 'client.ts') return 'client';
  if (file === 'index.ts') return 'index';
  if (file === 'version.ts') return 'core';
  if (top in MAY_IMPORT && file.includes('/')) return top as Layer;
  throw new Error(`src/${file} is in no layer: add it to ARCHITECTURE.md and this test`);
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

interface Graph {
  /** File (path under src/) to the files it imports. */
  edges: Map<string, Set<string>>;
  /** File to the packages it imports. */
  packages: Map<string, Set<string>>;
}

/** Every import of every file under src/, type-only ones included. */
function importGraph(root = SRC): Graph {
  const edges = new Map<string, Set<string>>();
  const packages = new Map<string, Set<string>>();
  const files = sourceFiles(root);
  const known = new Set(files);
  for (const path of files) {
    const from = relative(root, path).split('\\').join('/');
    const targets = new Set<string>();
    const names = new Set<string>();
    const { importedFiles } = ts.preProcessFile(readFileSync(path, 'utf8'), true, true);
    for (const { fileName: specifier } of importedFiles) {
      if (!specifier.startsWith('.')) {
        names.add(
          specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]!,
        );
        continue;
      }
      const base = resolve(dirname(path), specifier.replace(/\.js$/, ''));
      const target = [`${base}.ts`, join(base, 'index.ts')].find((candidate) => known.has(candidate));
      if (!target) throw new Error(`src/${from} imports ${specifier}, which is no file under src/`);
      targets.add(relative(root, target).split('\\').join('/'));
    }
    edges.set(from, targets);
    packages.set(from, names);
  }
  return { edges, packages };
}

/**
 * The tiers of the mock gateway (`src/testing/`), top to bottom. `gateway` composes the rest
 * (the composition file, the entry and the bin); `edge` is HTTP (server, router, bodies,
 * answers); `routes` are the resource handlers; `dashboard` (the page at /_dashboard) stands
 * beside them and reads and acts on the state alone, never through a route; `state` is what the
 * gateway holds (accounts, clock, tasks, ledger, media, the media library, request log, faults,
 * rate limits, webhook engine); `leaf` holds the types and error answers every tier shares.
 */
type Tier = 'gateway' | 'edge' | 'routes' | 'dashboard' | 'state' | 'leaf';

/** What each tier of testing/ may import (besides itself); any tier may import the SDK. */
const TIER_MAY_IMPORT: Record<Tier, readonly Tier[]> = {
  gateway: ['edge', 'routes', 'dashboard', 'state', 'leaf'],
  edge: ['routes', 'state', 'leaf'],
  routes: ['state', 'leaf'],
  dashboard: ['state', 'leaf'],
  state: ['leaf'],
  leaf: [],
};

/** Files directly in testing/ and their tiers; a new one has to be placed here. */
const TESTING_ROOT_TIERS: Record<string, Tier> = {
  'index.ts': 'gateway',
  'gateway.ts': 'gateway',
  'mock-gateway.ts': 'gateway',
  'bin.ts': 'gateway',
  'types.ts': 'leaf',
  'http-error.ts': 'leaf',
};

/** The tier of a file under src/testing/: by its folder, or by name at the top of testing/. */
function tierOf(file: string): Tier | undefined {
  const [, folder = '', rest] = file.split('/');
  if (rest !== undefined) {
    if (folder === 'http') return 'edge';
    if (folder === 'routes') return 'routes';
    if (folder === 'dashboard') return 'dashboard';
    if (folder === 'state') return 'state';
  } else if (folder in TESTING_ROOT_TIERS) {
    return TESTING_ROOT_TIERS[folder];
  }
  return undefined;
}

/** Imports against the arrows, as `from → to (layer → layer)`. */
function layerViolations({ edges }: Graph): string[] {
  const out: string[] = [];
  for (const [from, targets] of edges) {
    const fromLayer = layerOf(from);
    for (const to of targets) {
      const toLayer = layerOf(to);
      if (toLayer !== fromLayer && !MAY_IMPORT[fromLayer].includes(toLayer)) {
        out.push(`${from} → ${to} (${fromLayer} may not import ${toLayer})`);
      } else if (fromLayer === 'cli' && toLayer !== 'cli' && !ENTRY_FILES.includes(to)) {
        out.push(`${from} → ${to} (cli imports the package's entries only)`);
      } else if (fromLayer === 'jobs' && toLayer !== 'jobs' && !ENTRY_FILES.includes(to)) {
        out.push(`${from} → ${to} (jobs imports the package's entries only)`);
      } else if (fromLayer === 'testing' && toLayer === 'testing') {
        const fromTier = tierOf(from);
        const toTier = tierOf(to);
        // A file in no tier is named by the test that puts every file in one.
        if (!fromTier || !toTier) continue;
        if (toTier !== fromTier && !TIER_MAY_IMPORT[fromTier].includes(toTier)) {
          out.push(`${from} → ${to} (testing ${fromTier} may not import testing ${toTier})`);
        }
      }
    }
  }
  return out.sort();
}

/**
 * `{@link Name}` (and `{@linkcode}`, `{@linkplain}`) in the files under src/ whose first name
 * (before `.` or `#`) the file neither imports nor declares, as `file: {@link Name}`. Such a
 * link resolves, if at all, by a search the reader cannot follow, and outlives the import it
 * documented. A URL is not a name; a name of another module goes in backticks.
 */
function strayLinks(root = SRC): string[] {
  const out: string[] = [];
  for (const path of sourceFiles(root)) {
    const text = readFileSync(path, 'utf8');
    const links = [...text.matchAll(/\{@link(?:code|plain)?\s+([^\s|}]+)/g)].map((m) => m[1]!);
    if (links.length === 0) continue;
    const known = new Set<string>();
    const visit = (node: ts.Node): void => {
      // Declarations (functions, classes, members, variables, types, parameters) and the local
      // names of imports all carry their name as `name`.
      const name = (node as { name?: ts.Node }).name;
      if (name && (ts.isIdentifier(name) || ts.isPrivateIdentifier(name) || ts.isStringLiteral(name))) {
        known.add(name.text);
      }
      ts.forEachChild(node, visit);
    };
    visit(ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true));
    const file = relative(root, path).split('\\').join('/');
    for (const link of links) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(link)) continue;
      const [first = ''] = link.split(/[.#]/);
      if (!known.has(first)) out.push(`${file}: {@link ${link}}`);
    }
  }
  return out.sort();
}

/**
 * Value imports of an {@link IO_MODULE} in the files under `core/` (static, dynamic,
 * `export … from` and `require`), as `file imports module`. An import whose every name is
 * `type` counts as type-only, as TypeScript erases it.
 */
function coreIO(root = SRC): string[] {
  const out: string[] = [];
  for (const path of sourceFiles(join(root, 'core'))) {
    const file = relative(root, path).split('\\').join('/');
    const found = new Set<string>();
    const typeOnly = (clause: ts.ImportClause | ts.NamedExports | undefined): boolean => {
      if (clause === undefined) return false;
      if (ts.isNamedExports(clause))
        return clause.elements.length > 0 && clause.elements.every((e) => e.isTypeOnly);
      if (clause.isTypeOnly) return true;
      const named = clause.namedBindings;
      return (
        clause.name === undefined &&
        named !== undefined &&
        ts.isNamedImports(named) &&
        named.elements.length > 0 &&
        named.elements.every((e) => e.isTypeOnly)
      );
    };
    const visit = (node: ts.Node): void => {
      let specifier: ts.Expression | undefined;
      if (ts.isImportDeclaration(node) && !typeOnly(node.importClause)) specifier = node.moduleSpecifier;
      else if (
        ts.isExportDeclaration(node) &&
        !node.isTypeOnly &&
        !typeOnly(node.exportClause as ts.NamedExports | undefined)
      ) {
        specifier = node.moduleSpecifier;
      } else if (
        ts.isCallExpression(node) &&
        (node.expression.kind === ts.SyntaxKind.ImportKeyword ||
          (ts.isIdentifier(node.expression) && node.expression.text === 'require'))
      ) {
        specifier = node.arguments[0];
      } else if (
        ts.isImportEqualsDeclaration(node) &&
        !node.isTypeOnly &&
        ts.isExternalModuleReference(node.moduleReference)
      ) {
        specifier = node.moduleReference.expression;
      }
      if (specifier && ts.isStringLiteralLike(specifier) && IO_MODULE.test(specifier.text))
        found.add(specifier.text);
      ts.forEachChild(node, visit);
    };
    visit(ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true));
    for (const name of found) out.push(`${file} imports ${name}`);
  }
  return out.sort();
}

/** Files of the receiver-side layers that reach a heavy package, with the path that gets there. */
function heavyReaches({ edges, packages }: Graph): string[] {
  const out: string[] = [];
  for (const start of edges.keys()) {
    if (!LIGHT_LAYERS.includes(layerOf(start))) continue;
    const via = new Map<string, string | undefined>([[start, undefined]]);
    const queue = [start];
    for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
      const heavy = [...(packages.get(file) ?? [])].filter((name) => HEAVY_PACKAGES.includes(name));
      if (heavy.length > 0) {
        const path = [file];
        for (let step = via.get(file); step !== undefined; step = via.get(step)) path.unshift(step);
        out.push(`${path.join(' → ')} imports ${heavy.join(', ')}`);
        break;
      }
      for (const next of edges.get(file) ?? []) {
        if (!via.has(next)) {
          via.set(next, file);
          queue.push(next);
        }
      }
    }
  }
  return out.sort();
}

/** One shortest cycle through each strongly connected group of files, as `a → b → a`. */
function cycles({ edges }: Graph): string[] {
  // Tarjan's strongly connected components.
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, next);
    low.set(file, next);
    next += 1;
    stack.push(file);
    onStack.add(file);
    for (const to of edges.get(file) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(file, Math.min(low.get(file)!, low.get(to)!));
      } else if (onStack.has(to)) {
        low.set(file, Math.min(low.get(file)!, index.get(to)!));
      }
    }
    if (low.get(file) === index.get(file)) {
      const group: string[] = [];
      let member: string | undefined;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        group.push(member);
      } while (member !== file);
      if (group.length > 1 || edges.get(file)?.has(file)) groups.push(group);
    }
  };
  for (const file of [...edges.keys()].sort()) if (!index.has(file)) visit(file);

  return groups
    .map((group) => {
      const members = new Set(group);
      const start = [...group].sort()[0]!;
      // Shortest way back to `start` inside the group.
      const via = new Map<string, string>();
      const queue = [start];
      for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
        for (const to of [...(edges.get(file) ?? [])].sort()) {
          if (!members.has(to) || via.has(to)) continue;
          via.set(to, file);
          if (to === start) queue.length = 0;
          else queue.push(to);
        }
      }
      const path = [start];
      for (let step = via.get(start)!; step !== start; step = via.get(step)!) path.unshift(step);
      path.unshift(start);
      const extra =
        group.length > path.length - 1
          ? ` (and ${group.length - path.length + 1} more files in the loop)`
          : '';
      return `${path.join(' → ')}${extra}`;
    })
    .sort();
}

describe('the import graph of src/', () => {
  const graph = importGraph();

  it('puts every file in a layer, and every file of testing/ in a tier', () => {
    for (const file of graph.edges.keys()) expect(() => layerOf(file)).not.toThrow();
    const untiered = [...graph.edges.keys()].filter((f) => layerOf(f) === 'testing' && !tierOf(f));
    expect(untiered, 'files of testing/ in no tier: add them to ARCHITECTURE.md and this test').toEqual([]);
  });

  it('imports only down the layers of ARCHITECTURE.md, and down the tiers of testing/', () => {
    expect(layerViolations(graph), 'imports against the arrows').toEqual([]);
  });

  it('keeps file and network I/O out of core/: no fs, sockets, http(s), Node streams or undici', () => {
    expect(
      coreIO(),
      'core/ files that import a module doing file or network I/O (it belongs in internal/)',
    ).toEqual([]);
  });

  it('keeps undici, zod and the request machinery out of mediagw/webhooks and mediagw/redis', () => {
    expect(heavyReaches(graph), 'receiver-side files that reach a heavy package').toEqual([]);
  });

  it('has no file that imports a file that imports it back', () => {
    expect(cycles(graph), 'import cycles').toEqual([]);
  });

  it('exports from internal/ only the modules src/internal/README.md lists as public', () => {
    const fromIndex = [...(graph.edges.get('index.ts') ?? [])].filter((to) => layerOf(to) === 'internal');
    const readme = readFileSync(join(SRC, 'internal/README.md'), 'utf8');
    const listed = [...readme.matchAll(/^- `([\w-]+\.ts)`:/gm)].map((m) => `internal/${m[1]}`);
    expect(listed.length, 'the README lists the internal modules index.ts exports from').toBeGreaterThan(0);
    expect(fromIndex.sort(), 'internal modules index.ts exports from').toEqual(listed.sort());
  });

  it('links doc comments only to names the file imports or declares', () => {
    expect(strayLinks(), 'links to names the file neither imports nor declares').toEqual([]);
  });
});
