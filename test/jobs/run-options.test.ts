// Covers: src/jobs/run.ts
/**
 * runJobs checks its options before it opens the journal or sends anything: a wrong number or
 * type is a RequestValidationError naming the option, not a TypeError or RangeError mid-run.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RequestValidationError } from '../../src/index.js';
import { planJobs, type RunJobsOptions, readJobs, runJobs } from '../../src/jobs/index.js';
import { testClient } from '../helpers/client.js';
import { scratch } from './helpers.js';

let dir: string;
let remove: () => void;
let sent = 0;
// Nothing may be sent: a fetch that counts what reaches it.
const client = testClient({
  apiKey: 'cgt-options-check-key-0000',
  baseURL: 'http://127.0.0.1:9',
  fetch: async () => {
    sent++;
    throw new Error('nothing should be sent');
  },
  maxRetries: 2,
});
const jobs = [{ id: 'a', operation: 'videos.create', body: { model: 'vidmodel-2.0-mini', prompt: 'x' } }];

beforeEach(() => {
  ({ dir, remove } = scratch());
  sent = 0;
});
afterEach(() => remove());

describe('runJobs options', () => {
  it.each([
    ['reconcileTimeoutMs', Number.NaN],
    ['reconcileTimeoutMs', -1],
    ['waitTimeoutMs', 1.5],
    ['waitTimeoutMs', 2 ** 31],
    ['pollIntervalMs', 0],
    ['pollIntervalMs', '50'],
    ['onProgress', 'log'],
    ['onStart', 1],
    ['concurrency', Number.NaN],
    ['maxReservedSeconds', -5],
    ['outputDir', 42],
    ['journal', null],
  ])('refuses %s = %s, naming it, before the journal is opened', async (key, value) => {
    const journal = join(dir, 'j.journal');
    const options = { journal, outputDir: join(dir, 'out'), [key]: value } as unknown as RunJobsOptions;
    const error = await runJobs(client, jobs as never, options).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).issues.map((i) => i.path)).toEqual([key]);
    expect(existsSync(journal)).toBe(false);
    expect(sent).toBe(0);
  });

  it('refuses missing options with a RequestValidationError, not a TypeError', async () => {
    const error = await (runJobs as (...args: unknown[]) => Promise<unknown>)(client, jobs).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).issues[0]?.path).toBe('options');
  });

  it.each([
    ['undefined', undefined],
    ['null', null],
    ['a number', 42],
    ['an object that is not iterable', {}],
    ['an empty path', ''],
  ])(
    'runJobs, planJobs and readJobs refuse %s as jobs, naming it, not with a TypeError',
    async (_name, source) => {
      const journal = join(dir, 'j.journal');
      const calls: [string, () => Promise<unknown>][] = [
        ['runJobs', () => runJobs(client, source as never, { journal, outputDir: join(dir, 'out') })],
        ['planJobs', () => planJobs(source as never)],
        ['readJobs', () => readJobs(source as never).next()],
      ];
      for (const [operation, call] of calls) {
        const error = await call().catch((e: unknown) => e);
        expect(error).toBeInstanceOf(RequestValidationError);
        expect((error as RequestValidationError).message).toMatch(
          new RegExp(`^${operation} was not sent: jobs`),
        );
        expect((error as RequestValidationError).issues.map((i) => i.path)).toEqual(['jobs']);
      }
      expect(existsSync(journal)).toBe(false);
      expect(sent).toBe(0);
    },
  );

  it.each([
    ['undefined', undefined],
    ['an object that is not a client', {}],
  ])(
    'refuses %s as the client before the journal is opened, not with a TypeError per job',
    async (_name, given) => {
      const journal = join(dir, 'j.journal');
      const error = await runJobs(given as never, jobs as never, {
        journal,
        outputDir: join(dir, 'out'),
      }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RequestValidationError);
      expect((error as RequestValidationError).issues.map((i) => i.path)).toEqual(['client']);
      expect(existsSync(journal)).toBe(false);
    },
  );
});
