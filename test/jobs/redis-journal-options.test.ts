// Covers: src/jobs/redis-journal.ts
/**
 * RedisJournal checks its timeoutMs when it is made: NaN, 0, a fraction or a delay past what a
 * timer holds (which fires after 1 ms) would end every Redis call of the run as timed out.
 */
import { describe, expect, it } from 'vitest';
import { JobJournalError, RedisJournal } from '../../src/jobs/index.js';

const redis = { sendCommand: async () => null };

describe('RedisJournal options', () => {
  it.each([Number.NaN, 0, -1, 1.5, 2 ** 31, '5000'])('refuses timeoutMs %s, naming it', (value) => {
    let error: unknown;
    try {
      new RedisJournal(redis as never, { run: 'r1', timeoutMs: value as number });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(JobJournalError);
    expect((error as Error).message).toMatch(
      /timeoutMs must be a whole number of milliseconds from 1 to 2147483647/,
    );
  });

  it('takes 1 and 2147483647', () => {
    expect(() => new RedisJournal(redis as never, { run: 'r1', timeoutMs: 1 })).not.toThrow();
    expect(() => new RedisJournal(redis as never, { run: 'r1', timeoutMs: 2_147_483_647 })).not.toThrow();
  });
});
