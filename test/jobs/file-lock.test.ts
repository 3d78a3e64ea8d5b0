// Covers: src/jobs/file-lock.ts
/**
 * One run at a time holds a file journal: processes that open it together, with or without a
 * stale lock from a killed run, never both hold it; a lock of another machine or container is
 * never taken for a dead one.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { SELF } from '../../src/jobs/file-lock.js';
import { FileJournal, JobJournalError } from '../../src/jobs/journal.js';

const ROOT = resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'mediagw-lock-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A process ID no process has: a child that already exited. */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '']).pid as number;
}

/** Starts `count` processes that open `path` at the same instant; resolves with what each printed. */
async function race(path: string, count: number): Promise<string[]> {
  const at = Date.now() + 1_500;
  const children = Array.from({ length: count }, () =>
    spawn(
      process.execPath,
      ['--import', 'tsx', join(ROOT, 'test/jobs/fixtures/open-journal.ts'), path, String(at), '800'],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
    ),
  );
  return Promise.all(
    children.map(
      (child) =>
        new Promise<string>((done) => {
          let out = '';
          child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
            out += chunk;
          });
          child.once('exit', () => done(out.trim()));
        }),
    ),
  );
}

describe('a file journal opened by several runs at once', () => {
  // Two rounds each: the old lock let two holders through in most rounds of either kind.
  test.each([
    ['no lock yet', () => undefined],
    [
      'the lock of a killed run (its PID alone, as older versions wrote it)',
      (lock: string) => writeFileSync(lock, String(deadPid())),
    ],
    [
      'the lock of a killed run',
      (lock: string) => writeFileSync(lock, JSON.stringify({ ...SELF, pid: deadPid() })),
    ],
  ])(
    '%s: one of three holds it at a time, the others are told who does',
    async (_name, before) => {
      for (let round = 0; round < 2; round++) {
        const path = join(dir, `race-${Math.random().toString(36).slice(2)}.journal`);
        before(`${path}.lock`);
        const outcomes = await race(path, 3);
        // Never two holders at once. (A racer the machine starts late may open it after the
        // holder closed it: that is one holder after another.)
        const held = outcomes
          .filter((o) => o.startsWith('OPENED'))
          .map((o) => o.split(' ').slice(1).map(Number) as [number, number])
          .sort((a, b) => a[0] - b[0]);
        expect(held.length).toBeGreaterThanOrEqual(1);
        for (let i = 1; i < held.length; i++)
          expect(held[i]?.[0]).toBeGreaterThan(held[i - 1]?.[1] as number);
        for (const refused of outcomes.filter((o) => !o.startsWith('OPENED')))
          expect(refused).toMatch(
            /^REFUSED the journal .* is in use by process \d+; wait for that run to end/,
          );
        // Nothing is left behind: no lock, no draft, no takeover guard.
        expect(readdirSync(dir).filter((name) => name.startsWith(path.split('/').pop() as string))).toEqual([
          path.split('/').pop(),
        ]);
      }
    },
    60_000,
  );
});

describe('whose lock may be taken', () => {
  test.each([
    ['another machine', { host: 'build-box-7' }, /in use by process \d+ on build-box-7/],
    ['another container of this machine (another PID namespace)', { ns: '1' }, /in use by process \d+;/],
  ])('a lock of %s is never taken, even when its PID runs nothing here', async (_name, where, message) => {
    const path = join(dir, `foreign-${Math.random().toString(36).slice(2)}.journal`);
    writeFileSync(`${path}.lock`, JSON.stringify({ ...SELF, pid: deadPid(), ...where }));
    const error = await new FileJournal(path).open().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JobJournalError);
    expect((error as Error).message).toMatch(message);
    expect(JSON.parse(readFileSync(`${path}.lock`, 'utf8'))).toMatchObject(where);
  });

  test('a lock of a live process is not taken', async () => {
    const path = join(dir, 'live.journal');
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 20000)']);
    try {
      writeFileSync(`${path}.lock`, JSON.stringify({ ...SELF, pid: holder.pid }));
      await expect(new FileJournal(path).open()).rejects.toThrow(`in use by process ${holder.pid}`);
    } finally {
      holder.kill();
    }
  });

  test('a second open in the same process is refused; after close it opens', async () => {
    const path = join(dir, 'twice.journal');
    const first = new FileJournal(path);
    await first.open();
    await expect(new FileJournal(path).open()).rejects.toThrow('is in use by this process');
    await first.close();
    const again = new FileJournal(path);
    await again.open();
    await again.close();
  });

  test('closing leaves a lock that is no longer its own', async () => {
    const path = join(dir, 'replaced.journal');
    const journal = new FileJournal(path);
    await journal.open();
    const other = JSON.stringify({ ...SELF, pid: 1 });
    writeFileSync(`${path}.lock`, other);
    await journal.close();
    expect(readFileSync(`${path}.lock`, 'utf8')).toBe(other);
  });

  test('a folder that does not exist: a JobJournalError naming the lock', async () => {
    const path = join(dir, 'missing', 'run.journal');
    const error = await new FileJournal(path).open().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JobJournalError);
    expect((error as Error).message).toMatch(
      /^the lock .*missing\/run\.journal\.lock of the journal could not be taken: its folder does not exist \(ENOENT\); create it first$/,
    );
  });
});
