// Covers: the spec rules that docs/spec-coverage.md lists
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, test, vi } from 'vitest';
import { APIPromise } from '../../src/core/api-promise.js';
import { WaitTimeoutError } from '../../src/core/errors.js';
import type { Transport } from '../../src/internal/transport.js';
import { Images } from '../../src/resources/images.js';
import { ReviewTasks } from '../../src/resources/library/review-tasks.js';
import { Videos } from '../../src/resources/videos.js';
import { estimateReservation } from '../../src/schemas/video/reservation.js';
import { finishedTask } from '../helpers/client.js';
import { useVirtualClock, virtualClock } from '../helpers/virtual-clock.js';

// The waits below sleep through this mock: each sleep moves a fake clock instead of real time,
// and its length is recorded.
vi.mock('../../src/core/sleep.js', async () => ({
  sleep: (await import('../helpers/virtual-clock.js')).virtualClock.sleep,
}));
const { slept } = virtualClock;

const root = fileURLToPath(new URL('../../', import.meta.url));
const COVERAGE = 'docs/spec-coverage.md';
const NOT_ENFORCEABLE = '**Not enforceable client-side:**';

interface Reference {
  file: string;
  title: string;
  caseLabel: string | undefined;
}

interface Row {
  id: string;
  line: number;
  rule: string;
  sdk: string;
  tests: string;
}

/** The text of a Markdown code span: one leading and trailing space is dropped when both exist. */
function spanText(raw: string): string {
  return raw.length > 1 && raw.startsWith(' ') && raw.endsWith(' ') && raw.trim() ? raw.slice(1, -1) : raw;
}

const SPAN = '(`+)(.+?)\\1';
const REFERENCE = new RegExp(
  `^${SPAN} › ${SPAN.replace('\\1', '\\3')}(?: \\(case ${SPAN.replace('\\1', '\\5')}\\))?$`,
);

function parseReference(text: string): Reference | undefined {
  const match = REFERENCE.exec(text.trim());
  if (!match) return undefined;
  return {
    file: spanText(match[2] ?? ''),
    title: spanText(match[4] ?? ''),
    caseLabel: match[6] === undefined ? undefined : spanText(match[6]),
  };
}

function readRows(markdown: string): Row[] {
  const rows: Row[] = [];
  for (const [index, line] of markdown.split('\n').entries()) {
    if (!/^\| [A-Z0-9]+-\d+ \|/.test(line)) continue;
    const cells = line.replace(/^\| /, '').replace(/ \|$/, '').split(' | ');
    if (cells.length !== 4) throw new Error(`${COVERAGE}:${index + 1} has ${cells.length} cells, not 4`);
    const [id = '', rule = '', sdk = '', tests = ''] = cells;
    rows.push({ id, line: index + 1, rule, sdk, tests: tests.trim() });
  }
  return rows;
}

interface TestFile {
  /** Titles of `test(...)`, `it(...)` and `test.each(...)(...)` calls, as written. */
  titles: Set<string>;
  /** Every string literal of the file: the labels of data-table rows are among them. */
  strings: Set<string>;
}

const parsed = new Map<string, TestFile>();

function readTestFile(path: string): TestFile {
  const known = parsed.get(path);
  if (known) return known;
  const source = ts.createSourceFile(
    path,
    readFileSync(`${root}${path}`, 'utf8'),
    ts.ScriptTarget.Latest,
    true,
  );
  const file: TestFile = { titles: new Set(), strings: new Set() };
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) file.strings.add(node.text);
    if (ts.isCallExpression(node)) {
      // test('title', ...), it('title', ...), test.each(rows)('title', ...)
      const callee = ts.isCallExpression(node.expression) ? node.expression.expression : node.expression;
      const name = callee.getText(source).replace(/\s/g, '');
      const title = node.arguments[0];
      if (
        /^(test|it)(\.each|\.concurrent|\.sequential)?$/.test(name) &&
        title &&
        (ts.isStringLiteral(title) || ts.isNoSubstitutionTemplateLiteral(title))
      ) {
        file.titles.add(title.text);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  parsed.set(path, file);
  return file;
}

describe('docs/spec-coverage.md', () => {
  const markdown = readFileSync(`${root}${COVERAGE}`, 'utf8');
  const rows = readRows(markdown);

  test('has one row per normative statement, each with a unique ID', () => {
    expect(rows.length).toBeGreaterThanOrEqual(300);
    const ids = rows.map((row) => row.id);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    for (const row of rows) {
      expect(row.rule, `${row.id}: rule`).not.toBe('');
      expect(row.sdk, `${row.id}: SDK`).not.toBe('');
    }
  });

  test('the totals line matches the table', () => {
    const notEnforceable = rows.filter((row) => row.sdk.startsWith(NOT_ENFORCEABLE)).length;
    expect(markdown).toContain(
      `${rows.length} rows, of which ${notEnforceable} are not enforceable client-side.`,
    );
  });

  test('only rows marked "not enforceable client-side" may have an empty test cell', () => {
    const untested = rows.filter((row) => row.tests === '' && !row.sdk.startsWith(NOT_ENFORCEABLE));
    expect(untested.map((row) => `${row.id} (${COVERAGE}:${row.line})`)).toEqual([]);
  });

  test('every test reference names an existing file, a title in it and a case label in it', () => {
    const problems: string[] = [];
    let references = 0;
    for (const row of rows) {
      if (row.tests === '') continue;
      for (const text of row.tests.split('<br>')) {
        references++;
        const where = `${row.id} (${COVERAGE}:${row.line})`;
        const reference = parseReference(text);
        if (!reference) {
          problems.push(`${where}: not of the form \`file\` › \`title\` (case \`label\`): ${text}`);
          continue;
        }
        const { file, title, caseLabel } = reference;
        if (!/^test\/.+\.test\.ts$/.test(file) || !existsSync(`${root}${file}`)) {
          problems.push(`${where}: no test file ${file}`);
          continue;
        }
        const found = readTestFile(file);
        if (!found.titles.has(title)) problems.push(`${where}: ${file} has no test titled "${title}"`);
        if (caseLabel !== undefined && !found.strings.has(caseLabel)) {
          problems.push(`${where}: ${file} has no case labelled "${caseLabel}"`);
        }
      }
    }
    expect(problems).toEqual([]);
    expect(references).toBeGreaterThan(rows.length);
  });

  test('the checker itself catches a missing file, title or case label', () => {
    const existing = 'test/core/errors.test.ts';
    expect(readTestFile(existing).titles.has('%i → %o')).toBe(true);
    expect(readTestFile(existing).titles.has('no such title')).toBe(false);
    expect(readTestFile(existing).strings.has('retry-after')).toBe(true);
    expect(parseReference('`test/a.test.ts` › `%s` (case `x`)')).toEqual({
      file: 'test/a.test.ts',
      title: '%s',
      caseLabel: 'x',
    });
    expect(parseReference('`` test/a.test.ts `` › `` a `b` title `` ')).toEqual({
      file: 'test/a.test.ts',
      title: 'a `b` title',
      caseLabel: undefined,
    });
    expect(parseReference('test/a.test.ts › title')).toBeUndefined();
  });
});

// Rules of the spec that no other test proves: the default poll intervals and deadline, and the
// tier's independence from generated audio.
describe('rules proved here', () => {
  const answers = <T>(pending: T, done: T, polls = 3) => {
    let calls = 0;
    const answer = () => {
      const body = ++calls < polls ? pending : done;
      return { body, status: 200, headers: {}, requestId: undefined, text: JSON.stringify(body) };
    };
    const json = () => new APIPromise(Promise.resolve().then(answer), (a) => a.body);
    return { json } as unknown as Transport;
  };

  useVirtualClock();

  test('an image task is polled every 3-5 s by default', async () => {
    const images = new Images(
      answers({ data: { status: 'processing' } }, { data: { status: 'succeeded' } }, 6),
    );
    const task = await images.waitForTask('task_1', { model: 'imgmodel-2' });
    expect(task.state).toBe('succeeded');
    expect(slept).toHaveLength(5);
    for (const ms of slept) {
      expect(ms).toBeGreaterThanOrEqual(3_000);
      expect(ms).toBeLessThanOrEqual(5_000);
    }
  });

  test("a video task is polled at its model's interval by default", async () => {
    const pending = { id: 'cgt-1', object: 'video', status: 'in_progress' };
    const done = finishedTask('video');
    const ranges = { 'vidmodel-2.0-mini': [3_000, 5_000], 'vidmodel-2.5': [5_000, 10_000] } as const;
    for (const [model, [min, max]] of Object.entries(ranges)) {
      slept.length = 0;
      await new Videos(answers(pending, done, 6)).waitForTask('cgt-1', { model });
      expect(slept, model).toHaveLength(5);
      for (const ms of slept) {
        expect(ms).toBeGreaterThanOrEqual(min);
        expect(ms).toBeLessThanOrEqual(max);
      }
    }
  });

  test('a video task is polled at the interval of the model its answer names, else every 3-5 s', async () => {
    const ranges = [
      [undefined, [3_000, 5_000]],
      ['vidmodel-2.0-mini', [3_000, 5_000]],
      ['vidmodel-2.5', [5_000, 10_000]],
    ] as const;
    for (const [model, [min, max]] of ranges) {
      slept.length = 0;
      const shown = model === undefined ? {} : { model };
      const pending = { id: 'cgt-1', object: 'video', status: 'in_progress', ...shown };
      const done = finishedTask('video', shown);
      await new Videos(answers(pending, done, 6)).waitForTask('cgt-1');
      expect(slept, String(model)).toHaveLength(5);
      for (const ms of slept) {
        expect(ms).toBeGreaterThanOrEqual(min);
        expect(ms).toBeLessThanOrEqual(max);
      }
    }
  });

  test('a review task is polled every 5-10 s by default', async () => {
    const reviews = new ReviewTasks(
      answers(
        { code: 200, data: { id: 'rvt_1', status: 'processing' } },
        { code: 200, data: { id: 'rvt_1', status: 'completed' } },
        6,
      ),
    );
    const task = await reviews.waitForTask('rvt_1');
    expect(task.status).toBe('completed');
    expect(slept).toHaveLength(5);
    for (const ms of slept) {
      expect(ms).toBeGreaterThanOrEqual(5_000);
      expect(ms).toBeLessThanOrEqual(10_000);
    }
  });

  test('generated audio does not change the reservation tier', () => {
    const mini = { model: 'vidmodel-2.0-mini', prompt: 'a kite', duration: 6 } as const;
    const v25 = { model: 'vidmodel-2.5', prompt: 'a kite', duration: 6 } as const;
    const tierOf = (params: Parameters<typeof estimateReservation>[0]) => {
      const { seconds, tier } = estimateReservation(params);
      return { seconds, tier };
    };
    expect(tierOf({ ...mini, generate_audio: true })).toEqual({ seconds: 6, tier: '720P' });
    expect(tierOf({ ...mini, generate_audio: false })).toEqual({ seconds: 6, tier: '720P' });
    expect(tierOf({ ...v25, generate_audio: true })).toEqual({ seconds: 6, tier: '720p' });
    expect(tierOf({ ...v25, generate_audio: false, audio: false })).toEqual({ seconds: 6, tier: '720p' });
  });

  test('a wait gives up after 10 minutes by default', async () => {
    const start = virtualClock.now;
    const pending = { id: 'cgt-1', object: 'video', status: 'queued' };
    const videos = new Videos(answers(pending, pending, Number.POSITIVE_INFINITY));
    const error = await videos.waitForTask('cgt-1', { model: 'vidmodel-2.5' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WaitTimeoutError);
    expect((error as WaitTimeoutError).taskId).toBe('cgt-1');
    expect(virtualClock.now - start).toBe(600_000);
  });
});
