// Covers: the error classes the docs list against src/core/errors.ts
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import * as sdk from '../../src/index.js';

// docs/errors-and-retries.md lists the error classes a caller can catch. Every error class the
// main entry exports must have its row, saying when it is thrown and whether it is retried.

const text = readFileSync(
  fileURLToPath(new URL('../../docs/errors-and-retries.md', import.meta.url)),
  'utf8',
);

interface ClassRow {
  name: string;
  when: string;
  retried: string;
}

function classRows(): ClassRow[] {
  const start = text.indexOf('| class | when | retried by the SDK | what to do |');
  expect(start, 'the classes table is there').toBeGreaterThanOrEqual(0);
  const rows: ClassRow[] = [];
  for (const line of text.slice(start).split('\n').slice(2)) {
    if (!line.startsWith('|')) break;
    const cells = line.slice(1, -1).split(' | ');
    expect(cells, line).toHaveLength(4);
    const name = /^`(\w+)`/.exec(cells[0]!.trim())?.[1];
    expect(name, `the row names its class first: ${line}`).toBeDefined();
    rows.push({ name: name!, when: cells[1]!.trim(), retried: cells[2]!.trim() });
  }
  return rows;
}

const exportedErrorClasses = Object.entries(sdk)
  .filter(([, value]) => typeof value === 'function' && value.prototype instanceof Error)
  .map(([name]) => name)
  .sort();

test('the main entry exports the error classes this test expects to find', () => {
  // A guard on the filter above: it must see the classes, new and old.
  expect(exportedErrorClasses).toEqual(
    expect.arrayContaining([
      'MediaGatewayError',
      'APIError',
      'InvalidOptionError',
      'ResponseTooLargeError',
      'SubmittedCallbackError',
      'ProgressCallbackError',
      'FileInputError',
      'FileWriteError',
    ]),
  );
});

test('the classes table has one row for every exported error class, and no other', () => {
  const names = classRows().map((row) => row.name);
  expect(new Set(names).size, 'no class is listed twice').toBe(names.length);
  expect([...names].sort()).toEqual(exportedErrorClasses);
});

test('every row says when the class is thrown and whether the SDK retries it', () => {
  for (const row of classRows()) {
    expect(row.when.length, `${row.name}: when`).toBeGreaterThan(10);
    expect(row.retried, `${row.name}: retried`).toMatch(
      /^(yes|no|never|as its subclass|safe calls|unreadable)/,
    );
  }
});
