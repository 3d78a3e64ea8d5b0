import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** One fenced code block of a guide. */
export interface Snippet {
  /** The guide, relative to the repository root (`docs/videos.md`). */
  file: string;
  /** 1-based line of the block's first code line (the line after the opening fence). */
  line: number;
  /** The fence's language, lower-cased (`ts`, `sh`, `json`, or '' when none). */
  lang: string;
  /** The code, with the fence's indentation removed. */
  code: string;
  /** Set when a `<!-- not-compiled: reason -->` comment precedes the block. */
  notCompiled?: string;
}

/** Languages whose blocks are type-checked. */
export const TYPESCRIPT_LANGS = new Set(['ts', 'typescript']);

const OPEN = /^(\s*)(`{3,}|~{3,})\s*([^\s`]*)/;
const MARKER = /^\s*<!--\s*not-compiled\s*:\s*(.*?)\s*-->\s*$/;
const MARKER_START = /<!--\s*not-compiled/;

/**
 * Lists the fenced code blocks of one markdown text. A block opens with three or more backticks
 * or tildes (indented or not) and closes with a fence of the same character at
 * least as long. The `<!-- not-compiled: reason -->` marker applies to the block whose opening
 * fence follows it (blank lines between them are allowed); a marker without a reason, or one
 * that no block follows, is an error.
 */
export function extractSnippets(markdown: string, file: string): Snippet[] {
  const lines = markdown.split(/\r?\n/);
  const snippets: Snippet[] = [];
  let pendingMarker: { reason: string; line: number } | undefined;
  for (let i = 0; i < lines.length; i++) {
    const text = lines[i] ?? '';
    const marker = MARKER.exec(text);
    if (marker) {
      if (!marker[1]) throw new Error(`${file}:${i + 1}: a not-compiled marker must give a reason`);
      pendingMarker = { reason: marker[1], line: i + 1 };
      continue;
    }
    if (MARKER_START.test(text)) throw new Error(`${file}:${i + 1}: malformed not-compiled marker: ${text}`);
    const open = OPEN.exec(text);
    if (!open) {
      if (text.trim() !== '' && pendingMarker) {
        throw new Error(
          `${file}:${pendingMarker.line}: a not-compiled marker must directly precede a code block`,
        );
      }
      continue;
    }
    const indent = open[1]?.length ?? 0;
    const fence = open[2] ?? '```';
    const closing = new RegExp(`^\\s*${fence[0] === '`' ? '`' : '~'}{${fence.length},}\\s*$`);
    const body: string[] = [];
    let j = i + 1;
    while (j < lines.length && !closing.test(lines[j] ?? '')) {
      body.push(stripIndent(lines[j] ?? '', indent));
      j++;
    }
    if (j >= lines.length) throw new Error(`${file}:${i + 1}: code block is never closed`);
    const snippet: Snippet = {
      file,
      line: i + 2,
      lang: (open[3] ?? '').toLowerCase(),
      code: body.join('\n'),
    };
    if (pendingMarker) snippet.notCompiled = pendingMarker.reason;
    pendingMarker = undefined;
    snippets.push(snippet);
    i = j;
  }
  if (pendingMarker) {
    throw new Error(
      `${file}:${pendingMarker.line}: a not-compiled marker must directly precede a code block`,
    );
  }
  return snippets;
}

function stripIndent(line: string, indent: number): string {
  let n = 0;
  while (n < indent && line[n] === ' ') n++;
  return line.slice(n);
}

/** The guides whose snippets are checked: README.md and every docs/*.md but the excluded ones. */
export function listGuides(root: string, exclude: readonly string[]): string[] {
  const docs = readdirSync(join(root, 'docs'), { withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.md'))
    .map((entry) => relative(root, join(root, 'docs', entry.name)));
  return ['README.md', ...docs.sort()].filter((file) => !exclude.includes(file));
}

/** Reads the guides and lists their code blocks. */
export function readSnippets(root: string, guides: readonly string[]): Snippet[] {
  return guides.flatMap((file) => extractSnippets(readFileSync(join(root, file), 'utf8'), file));
}
