// Covers: the code snippets of README.md and docs/ compile and run
/**
 * Every ```ts block of README.md and docs/*.md is type-checked against the SDK's sources, with
 * the repository's compiler options, in one TypeScript program. Names a guide leaves to the
 * reader (`client`, `taskId`, "your database") come from a typed prelude (snippet-prelude.ts).
 * A block that must not be checked is preceded by `<!-- not-compiled: reason -->`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, test } from 'vitest';
import { compileSnippets, formatDiagnostic, type SnippetCompilation } from './compile-snippets.js';
import {
  extractSnippets,
  listGuides,
  readSnippets,
  type Snippet,
  TYPESCRIPT_LANGS,
} from './markdown-snippets.js';
import { EVERY_GUIDE, PRELUDES, preludeFor } from './snippet-prelude.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
/** Guides whose snippets this test does not read. */
const EXCLUDED = ['docs/spec-coverage.md'];
/** How many blocks each guide marks not-compiled; a new marker has to be added here on purpose. */
const NOT_COMPILED: Record<string, number> = { 'docs/scaling.md': 1 };

const guides = listGuides(root, EXCLUDED);
const typescript = readSnippets(root, guides).filter((s) => TYPESCRIPT_LANGS.has(s.lang));
const checked = typescript.filter((s) => s.notCompiled === undefined);
const skipped = typescript.filter((s) => s.notCompiled !== undefined);

/** Snippets that must fail, compiled in the same program to show that the check can fail. */
const CANARY = 'canary.md';
const canary = (line: number, code: string): Snippet => ({ file: CANARY, line, lang: 'ts', code });
const canaries = [
  // The prelude's `client` is the real MediaGateway, not `any`.
  canary(100, `await client.videos.create({ model: 'vidmodel-2.0-mini', prompt: 'x', duration: 'five' });`),
  // A snippet's own declaration wins over the prelude's.
  canary(200, 'const client = 42;\nclient.videos;'),
  // Imports by package name reach the sources; an unknown method is an error.
  canary(300, "import { MediaGateway } from 'mediagw';\nnew MediaGateway().videos.createLater();"),
  // A snippet naming a file can be imported by another one, also through `@/`.
  canary(400, '// lib/answer.ts\nexport const answer = 42;'),
  canary(500, "import { answer } from '@/lib/answer';\nconst text: string = answer;"),
  // A fragment that is not a program.
  canary(600, 'return 1;'),
];

let compilation: SnippetCompilation;
beforeAll(() => {
  compilation = compileSnippets(root, [...checked, ...canaries], PRELUDES);
}, 60_000);

const diagnosticsOf = (file: string) =>
  compilation.diagnostics.filter((d) => d.file === file).map((d) => formatDiagnostic(d));

describe('TypeScript snippets of the guides', () => {
  test('README.md and every guide in docs/ are read, spec-coverage.md excepted', () => {
    expect(guides).toContain('README.md');
    expect(guides).toContain('docs/getting-started.md');
    expect(guides).not.toContain('docs/spec-coverage.md');
  });

  test.each(guides)('every ts block of %s is found', (guide) => {
    // A plain count of opening fences, independent of the extractor.
    const opening = readFileSync(join(root, guide), 'utf8').match(/^\s*```(ts|typescript)\s*$/gm) ?? [];
    expect(typescript.filter((s) => s.file === guide)).toHaveLength(opening.length);
  });

  test.each(guides)('%s: its snippets compile', (guide) => {
    expect(diagnosticsOf(guide)).toEqual([]);
  });

  test('the compiler options and the program are sound', () => {
    expect(compilation.globalDiagnostics).toEqual([]);
  });

  test('blocks marked not-compiled are counted, give a reason, and are TypeScript', () => {
    const counts: Record<string, number> = {};
    for (const s of skipped) counts[s.file] = (counts[s.file] ?? 0) + 1;
    expect(counts).toEqual(NOT_COMPILED);
    for (const s of skipped) expect(s.notCompiled, `${s.file}:${s.line}`).toMatch(/\w{3,}/);
    const marked = readSnippets(root, guides).filter((s) => s.notCompiled !== undefined);
    expect(marked.filter((s) => !TYPESCRIPT_LANGS.has(s.lang))).toEqual([]);
    expect(checked.length).toBeGreaterThan(skipped.length * 10);
  });

  test('every prelude name is used by a snippet of its guide', () => {
    const unused: string[] = [];
    for (const [scope, names] of Object.entries(PRELUDES)) {
      const scopeGuides = scope === EVERY_GUIDE ? guides : [scope];
      expect(guides, `${scope} is not a guide`).toEqual(expect.arrayContaining(scopeGuides));
      for (const name of Object.keys(names)) {
        const used = scopeGuides.some(
          (guide) =>
            compilation.usedPreludeNames.has(`${guide}: ${name}`) &&
            preludeFor(PRELUDES, guide)[name] === names[name],
        );
        if (!used) unused.push(`${scope}: ${name}`);
      }
    }
    expect(unused).toEqual([]);
  });
});

describe('the check can fail', () => {
  const at = (line: number) => diagnosticsOf(CANARY).filter((d) => d.startsWith(`${CANARY}:${line}:`));

  test('a wrong option type on a prelude name is reported at its line', () => {
    expect(at(100)).toEqual([
      expect.stringMatching(/^canary\.md:100:\d+ \(block at line 100\) TS2345: .*property 'duration'/s),
    ]);
  });

  test("a snippet's own declaration shadows the prelude", () => {
    expect(at(200)).toEqual([]);
    expect(at(201)).toEqual([expect.stringContaining("Property 'videos' does not exist on type '42'")]);
  });

  test('an unknown SDK method is reported', () => {
    expect(at(301)).toEqual([expect.stringContaining("Property 'createLater' does not exist")]);
  });

  test('a named snippet is importable by the others of its guide', () => {
    expect(at(401)).toEqual([]);
    expect(at(501)).toEqual([
      expect.stringContaining("TS2322: Type 'number' is not assignable to type 'string'"),
    ]);
  });

  test('a fragment that is not a program is reported', () => {
    expect(at(600)).toEqual([expect.stringContaining('TS1108')]);
  });
});

describe('extractSnippets', () => {
  const markdown = [
    '# Title', // 1
    '', // 2
    '```ts', // 3
    'const a = 1;', // 4
    '```', // 5
    '<!-- not-compiled: shows a type error on purpose -->', // 6
    '', // 7
    '```typescript', // 8
    "const b: number = 'x';", // 9
    '```', // 10
    '- a list item:', // 11
    '  ~~~sh', // 12
    '  npm test', // 13
    '  ```', // 14
    '  ~~~', // 15
    '````md', // 16
    '```ts', // 17
    '```', // 18
    '````', // 19
  ].join('\n');

  test('finds each block with its language, first code line, code and marker', () => {
    expect(extractSnippets(markdown, 'x.md')).toEqual([
      { file: 'x.md', line: 4, lang: 'ts', code: 'const a = 1;' },
      {
        file: 'x.md',
        line: 9,
        lang: 'typescript',
        code: "const b: number = 'x';",
        notCompiled: 'shows a type error on purpose',
      },
      { file: 'x.md', line: 13, lang: 'sh', code: 'npm test\n```' },
      { file: 'x.md', line: 17, lang: 'md', code: '```ts\n```' },
    ]);
  });

  test.each([
    ['a marker without a reason', '<!-- not-compiled: -->\n```ts\nx\n```', /x\.md:1: .*must give a reason/],
    ['a marker without a colon', '<!-- not-compiled -->\n```ts\nx\n```', /x\.md:1: malformed/],
    [
      'a marker before prose',
      '<!-- not-compiled: why -->\ntext\n```ts\nx\n```',
      /x\.md:1: .*directly precede/,
    ],
    ['a marker at the end', 'text\n<!-- not-compiled: why -->\n', /x\.md:2: .*directly precede/],
    ['an unclosed block', 'text\n```ts\nx\n', /x\.md:2: code block is never closed/],
  ])('refuses %s', (_name, text, error) => {
    expect(() => extractSnippets(text, 'x.md')).toThrow(error);
  });
});
