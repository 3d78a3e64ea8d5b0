// Covers: src/jobs/run.ts
/**
 * What a run says of inputs it cannot use: a manifest that is missing or a folder, an output
 * folder that is a file, a journal line that is not an entry. Each is an SDK error that names
 * the input and says nothing was sent; none is a raw ENOENT, EISDIR, EEXIST or TypeError.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileInputError, MediaGatewayError, RequestValidationError } from '../../src/index.js';
import { JobJournalError, planJobs, readJournal, runJobs } from '../../src/jobs/index.js';
import { type MockGateway, startMockGateway } from '../../src/testing/index.js';
import { testClient } from '../helpers/client.js';
import { scratch, submissionsPerJob, videoJob, writeManifest } from './helpers.js';

let gateway: MockGateway;
let dir: string;
let remove: () => void;

beforeEach(async () => {
  gateway = await startMockGateway({ speed: 200 });
  ({ dir, remove } = scratch());
});

afterEach(async () => {
  await gateway.close();
  remove();
});

const fifo = (path: string) => {
  execFileSync('mkfifo', [path]);
  return path;
};

const run = (manifest: string, outputDir = join(dir, 'out'), journal = join(dir, 'j.journal')) =>
  runJobs(testClient(gateway.clientOptions()), manifest, { journal, outputDir }).catch((e: unknown) => e);

describe('inputs a run cannot use', () => {
  it.each([
    [
      'a manifest that does not exist',
      () => join(dir, 'nope.jsonl'),
      /^the manifest: ".*nope\.jsonl" does not exist \(ENOENT\); nothing was sent$/,
    ],
    [
      'a manifest that is a folder',
      () => {
        mkdirSync(join(dir, 'folder.jsonl'));
        return join(dir, 'folder.jsonl');
      },
      /^the manifest: ".*folder\.jsonl" is a folder, not a manifest file \(EISDIR\); nothing was sent$/,
    ],
  ])('%s: a FileInputError naming it', async (_name, path, message) => {
    const error = await run(path());
    expect(error).toBeInstanceOf(FileInputError);
    expect((error as Error).message).toMatch(message);
    expect(gateway.requests).toEqual([]);
  });

  // A pipe read twice gave nothing the second time: `mediagw jobs run <(jq ...)` ended at once,
  // "0 of 0 jobs completed", exit 0.
  it.each([
    ['a FIFO nobody writes to', () => fifo(join(dir, 'fifo.jsonl'))],
    ['a character device', () => '/dev/null'],
  ])(
    'a manifest that is %s: a FileInputError saying to save it to a file, nothing opened or sent',
    async (_name, path) => {
      const manifest = path();
      const journal = join(dir, 'j.journal');
      const error = await run(manifest, undefined, journal);
      expect(error).toBeInstanceOf(FileInputError);
      expect((error as Error).message).toBe(
        `the manifest: "${manifest}" is not a regular file (a pipe, FIFO or device): a run reads its manifest twice, checking every job before it sends one, and reads it again to resume. Save it to a file first; nothing was sent`,
      );
      expect(existsSync(journal)).toBe(false);
      expect(gateway.requests).toEqual([]);
    },
  );

  it('an output folder that is a file: a FileInputError naming it, nothing sent', async () => {
    writeFileSync(join(dir, 'out'), 'a file');
    const error = await run(writeManifest(join(dir, 'm.jsonl'), [videoJob('a')]));
    expect(error).toBeInstanceOf(FileInputError);
    expect((error as Error).message).toMatch(
      /^the output folder: ".*out" could not be made \((EEXIST|ENOTDIR)\)/,
    );
    expect(submissionsPerJob(gateway).size).toBe(0);
  });

  it.each([['null'], ['42'], ['{"id":"a"}'], ['{"e":"intent"}']])(
    'a journal line %s: damaged at that line, for the run and for jobs status',
    async (line) => {
      const journal = join(dir, 'j.journal');
      writeFileSync(journal, `{"e":"intent","id":"a","operation":"videos.create"}\n${line}\n`);
      const error = await run(writeManifest(join(dir, 'm.jsonl'), [videoJob('a')]), undefined, journal);
      expect(error).toBeInstanceOf(JobJournalError);
      expect((error as Error).message).toMatch(/is damaged at line 2 \(not a journal entry\)/);
      await expect(readJournal(journal)).rejects.toThrow(/is damaged at line 2 \(not a journal entry\)/);
      expect(gateway.requests).toEqual([]);
    },
  );

  // A folder given as the journal was a raw EISDIR from readJournal and `jobs status`.
  it.each([
    [
      'missing',
      () => join(dir, 'none.journal'),
      /^no journal at .*none\.journal: nothing has run with it yet$/,
    ],
    ['a folder', () => dir, /is a folder: give the path of the journal file$/],
  ])('readJournal of a journal that is %s: a JobJournalError saying so', async (_name, path, message) => {
    const error = await readJournal(path()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JobJournalError);
    expect((error as Error).message).toMatch(message);
  });

  it('a manifest with a bad line: says which, and that no job was sent', async () => {
    const error = await run(
      writeManifest(join(dir, 'm.jsonl'), [videoJob('a'), { id: 'b', operation: 'videos.create', body: {} }]),
    );
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(error).toBeInstanceOf(MediaGatewayError);
    expect((error as Error).message).toMatch(
      /^the manifest was not sent: line 2 \(b\): body\.\w+: .*\. No job was sent: `mediagw jobs plan` lists every bad line\.$/,
    );
  });
});

describe('manifest text', () => {
  // Read as Latin-1 by mistake, "café" went out as "caf\uFFFD", and was billed.
  it('refuses a byte that is not UTF-8, naming the line, before anything is sent', async () => {
    const path = join(dir, 'latin1.jsonl');
    const good = `${JSON.stringify(videoJob('a'))}\n`;
    const bad = Buffer.from(
      `${JSON.stringify(videoJob('b', 'caf_'))}\n`.replace('caf_', 'caf\u00e9'),
      'latin1',
    );
    writeFileSync(path, Buffer.concat([Buffer.from(good), bad]));
    const error = await run(path);
    expect(error).toBeInstanceOf(FileInputError);
    expect((error as Error).message).toMatch(
      /^the manifest: ".*latin1\.jsonl" is not UTF-8 text at line 2; nothing was sent$/,
    );
    expect(gateway.requests).toEqual([]);
  });

  it('takes UTF-8 with a byte-order mark and CRLF line ends, and sends the text as written', async () => {
    const path = join(dir, 'crlf.jsonl');
    const text = [videoJob('a', 'café crème'), videoJob('b')].map((j) => JSON.stringify(j)).join('\r\n');
    writeFileSync(path, `\uFEFF${text}\r\n`);
    const summary = (await run(path)) as { counts: { completed: number } };
    expect(summary.counts.completed).toBe(2);
    const prompts = gateway.requests
      .filter((r) => r.method === 'POST' && r.path === '/v1/videos/generations')
      .map((r) => (r.body as { prompt: string }).prompt);
    expect(prompts.sort()).toEqual(['café crème', 'film b']);
  });

  // A run refuses a device before reading it; planJobs reads once, and takes one.
  it('stops reading a file with no line end past 64 MiB (/dev/zero), naming it', async () => {
    const error = await planJobs('/dev/zero').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FileInputError);
    expect((error as Error).message).toMatch(
      /^the manifest: "\/dev\/zero" has a line longer than 64 MiB at line 1/,
    );
  }, 30_000);
});
