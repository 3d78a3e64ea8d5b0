// Covers: the Covers line of every test file under test/
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, test } from 'vitest';

// Each test file says on its first line what it covers: the src/ modules of its theme, or, for
// the suites that run the whole client or the package (these folders), what they cover in words.
const ROOT = join(import.meta.dirname, '..', '..');
const WORDS_ALLOWED = ['build', 'docs', 'examples', 'fuzz', 'integration', 'reliability'];
const LINE = /^\/\/ Covers: (\S.*)$/;
const SRC_PATH = /\bsrc\/[\w./-]*\w/g;

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return entry.name.endsWith('.test.ts') ? [relative(ROOT, path)] : [];
  });
}

const files = testFiles(join(ROOT, 'test'));

describe('every test file names what it covers on its first line', () => {
  test('the test files are found', () => {
    expect(files.length).toBeGreaterThan(100);
  });

  test.each(files)('%s', (file) => {
    const first = readFileSync(join(ROOT, file), 'utf8').split('\n', 1)[0] ?? '';
    const covers = LINE.exec(first)?.[1];
    expect(covers, `${file}: its first line is not "// Covers: src/<path>"`).toBeDefined();
    const paths = covers?.match(SRC_PATH) ?? [];
    for (const path of paths) expect(existsSync(join(ROOT, path)), `${file} names ${path}`).toBe(true);
    const folder = file.split('/')[1] ?? '';
    if (WORDS_ALLOWED.includes(folder)) return;
    // Elsewhere the line is a list of src/ paths and nothing else.
    expect(paths.length, `${file}: names no src/ path`).toBeGreaterThan(0);
    expect(covers?.split(', '), `${file}: "${covers}" is not a comma-separated list of src/ paths`).toEqual(
      paths,
    );
  });
});
