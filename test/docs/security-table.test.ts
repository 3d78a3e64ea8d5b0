// Covers: the security table of the docs
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';

// docs/security.md's threat model cites, for every row, the tests that hold its promise, as
// `path`: "title" (and row "name" for a table row of a test.each). Each must still be there.

const root = fileURLToPath(new URL('../../', import.meta.url));
const text = readFileSync(`${root}docs/security.md`, 'utf8');

interface Citation {
  file: string;
  title: string;
  row: string | undefined;
}

interface TableRow {
  who: string;
  sends: string;
  proof: string;
}

/** The rows of the table under "Who sends what, and what holds". */
function tableRows(): TableRow[] {
  const start = text.indexOf('| who | can send | the SDK promises | proved by |');
  expect(start, 'the threat-model table is there').toBeGreaterThanOrEqual(0);
  const lines = text.slice(start).split('\n');
  const rows: TableRow[] = [];
  for (const line of lines.slice(2)) {
    if (!line.startsWith('|')) break;
    const cells = line.slice(1, -1).split(' | ');
    expect(cells, line).toHaveLength(4);
    rows.push({ who: cells[0]!, sends: cells[1]!, proof: cells[3]! });
  }
  return rows;
}

const CITATION = /`([^`]+)`: "([^"]+)"(?: row "([^"]+)")?/g;

function citations(proof: string): Citation[] {
  return [...proof.matchAll(CITATION)].map((m) => ({ file: m[1]!, title: m[2]!, row: m[3] }));
}

const rows = tableRows();

test('the table has its rows, and none is a placeholder', () => {
  expect(rows.length).toBeGreaterThanOrEqual(15);
  for (const row of rows) {
    expect(row.proof, row.sends).not.toMatch(/\*|placeholder|TODO|TBD/i);
  }
});

describe.each(rows.map((row) => [`${row.who.replace(/\*/g, '')}: ${row.sends.slice(0, 60)}`, row] as const))(
  '%s',
  (_name, row) => {
    test('cites at least one test, each by file and title', () => {
      const cited = citations(row.proof);
      expect(cited.length).toBeGreaterThan(0);
      // Every test file named in the cell comes with a title: no bare file, no glob.
      const files = [...row.proof.matchAll(/`([^`]+\.test\.ts)`/g)].length;
      expect(files).toBe(cited.length);
    });

    test.each(
      citations(row.proof).map((c) => [`${c.file}: ${c.title}${c.row ? ` / ${c.row}` : ''}`, c] as const),
    )('%s exists', (_label, { file, title, row: tableRow }) => {
      expect(existsSync(`${root}${file}`), `${file} exists`).toBe(true);
      const source = readFileSync(`${root}${file}`, 'utf8');
      expect(source.includes(title), `${file} holds the title "${title}"`).toBe(true);
      if (tableRow) expect(source.includes(tableRow), `${file} holds the row "${tableRow}"`).toBe(true);
    });
  },
);
