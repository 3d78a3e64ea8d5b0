// Covers: the packed package: links in its README and docs
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The paths `npm pack` would put in the tarball, as npm lists them (no build needed: dist holds no guide). */
function packedFiles(): Set<string> {
  const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts', '--loglevel=error'], {
    cwd: root,
    encoding: 'utf8',
  });
  const [info] = JSON.parse(out) as { files: { path: string }[] }[];
  return new Set(info?.files.map((f) => f.path));
}

/** GitHub's anchor for a heading: lowercased, punctuation dropped, spaces as hyphens. */
function slug(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
    .replaceAll(' ', '-');
}

/** The anchors of a Markdown file's headings, numbered as GitHub numbers repeats (`-1`, `-2`). */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const found = new Set<string>();
  for (const [, text] of withoutFences(markdown).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = slug(text ?? '');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    found.add(n === 0 ? base : `${base}-${n}`);
  }
  return found;
}

/** The Markdown with fenced code blocks blanked, keeping the line count. */
function withoutFences(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, (block) => block.replace(/[^\n]/g, ''));
}

/** The Markdown without code: fenced blocks blanked, inline code spans removed. */
function withoutCode(markdown: string): string {
  return withoutFences(markdown).replace(/`[^`\n]*`/g, '');
}

/** Relative link targets: inline links and images, reference definitions, HTML href and src. */
function links(markdown: string): string[] {
  const text = withoutCode(markdown);
  const targets = [
    ...[...text.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]),
    ...[...text.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)].map((m) => m[1]),
    ...[...text.matchAll(/\b(?:href|src)=["']([^"']+)["']/g)].map((m) => m[1]),
  ];
  return targets.filter((t): t is string => t !== undefined && !/^[a-z][a-z\d+.-]*:/i.test(t));
}

/**
 * The links of `file` (a path in the tarball) that do not resolve: to no file of `files`, or
 * to a heading that the linked Markdown file (or this one, for `#anchor`) does not have.
 */
function brokenLinks(file: string, files: Set<string>, read: (path: string) => string): string[] {
  const broken: string[] = [];
  for (const link of links(read(file))) {
    const [rawPath = '', fragment] = link.split('#', 2);
    const path = decodeURIComponent(rawPath.split('?')[0] ?? '');
    const target = path === '' ? file : posix.normalize(posix.join(posix.dirname(file), path));
    const isDirectory = [...files].some((f) => f.startsWith(`${target.replace(/\/$/, '')}/`));
    if (!files.has(target) && !isDirectory) broken.push(`${file}: ${link} (${target} is not in the tarball)`);
    else if (fragment && target.endsWith('.md') && !anchors(read(target)).has(fragment.toLowerCase()))
      broken.push(`${file}: ${link} (${target} has no heading #${fragment})`);
  }
  return broken;
}

describe('the packed tarball', () => {
  const files = packedFiles();
  const read = (path: string) => readFileSync(`${root}/${path}`, 'utf8');
  const markdown = [...files].filter((f) => f.endsWith('.md')).sort();

  it('ships the guides, the examples they point to, and the license', () => {
    expect(markdown).toEqual(
      expect.arrayContaining(['README.md', 'CHANGELOG.md', 'docs/getting-started.md']),
    );
    expect(files.has('LICENSE')).toBe(true);
    expect(read('LICENSE')).toMatch(/^MIT License\n\nCopyright \(c\) \d{4} mediagw contributors\n/);
    expect(JSON.parse(read('package.json')).license).toBe('MIT');
    // Generated API pages (typedoc's docs/api) are not guides and are not shipped, nor is the
    // spec coverage table (a repository document of 170 KB, not a guide).
    expect([...files].filter((f) => f.startsWith('docs/api/'))).toEqual([]);
    expect(files.has('docs/spec-coverage.md')).toBe(false);
    expect(files.has('docs/webhooks.md')).toBe(true);
  });

  it('resolves every relative link of every shipped Markdown file to a file inside it', () => {
    expect(markdown.length).toBeGreaterThan(3);
    expect(markdown.flatMap((file) => brokenLinks(file, files, read))).toEqual([]);
  });
});

describe('the link check', () => {
  const files = new Set(['README.md', 'docs/a.md', 'examples/x.ts']);
  const pages: Record<string, string> = {
    'README.md': [
      '# Title',
      'See [a](docs/a.md), [a part](docs/a.md#second-part), [x](examples/x.ts), [site](https://example.com).',
      '```md',
      '[in a code block](nowhere.md)',
      '```',
      'And `[inline code](nowhere.md)`, [top](#title).',
    ].join('\n'),
    'docs/a.md':
      '# A\n## Second `part`\n[up](../README.md) [gone](../bench/README.md) [lost](#none) [bad](b.md#x)',
  };
  const read = (path: string) => pages[path] ?? '';

  it('accepts links to shipped files and headings, and ignores code and absolute URLs', () => {
    expect(brokenLinks('README.md', files, read)).toEqual([]);
  });

  it('names links to files outside the tarball and to missing headings', () => {
    expect(brokenLinks('docs/a.md', files, read)).toEqual([
      'docs/a.md: ../bench/README.md (bench/README.md is not in the tarball)',
      'docs/a.md: #none (docs/a.md has no heading #none)',
      'docs/a.md: b.md#x (docs/b.md is not in the tarball)',
    ]);
  });
});
