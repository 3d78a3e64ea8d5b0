// Covers: src/jobs/permits.ts
/**
 * A run whose client has a rate limiter waits for each claimed job's permit itself, with its stop
 * signal, and hands that permit to the submission's first attempt. A job still waiting for its
 * turn when the run stops is released, pending for the next run: never sent after the stop.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LimitedRequest, RateLimiter } from '../../src/index.js';
import { FileJournal, type JournalEntry, readJournal, runJobs } from '../../src/jobs/index.js';
import { type MockGateway, startMockGateway } from '../../src/testing/index.js';
import { until } from '../cli/helpers.js';
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

const submissions = () => [...submissionsPerJob(gateway).values()].reduce((a, b) => a + b, 0);
const intents = (journal: string) =>
  readFileSync(journal, 'utf8')
    .split('\n')
    .filter((line) => line.includes('"e":"intent"')).length;

/** A limiter that grants every request at once and counts what it granted and got back. */
function countingLimiter() {
  const counts = { creation: 0, query: 0, upload: 0, released: 0 };
  const limiter: RateLimiter = {
    acquire: async (request: LimitedRequest) => {
      counts[request.family]++;
      return { release: () => counts.released++ };
    },
    pause: () => {},
  };
  return { counts, limiter };
}

describe('with a rate-limited client', () => {
  // The jobs waiting for their turn waited inside the client's calls, which the stop did not
  // reach: they all went out after it, one a second.
  it('a run stopped while jobs wait for their turn sends none of them, and leaves them pending', async () => {
    const client = testClient({ ...gateway.clientOptions(), limits: { requestsPerSecond: 1, burst: 1 } });
    const manifest = writeManifest(
      join(dir, 'm.jsonl'),
      ['a', 'b', 'c', 'd'].map((id) => videoJob(id)),
    );
    const journal = join(dir, 'j.journal');
    const stop = new AbortController();
    const run = runJobs(client, manifest, {
      journal,
      outputDir: join(dir, 'out'),
      concurrency: 4,
      signal: stop.signal,
    });
    await until(() => submissions() === 1 && intents(journal) === 4, 'the first submission');
    // The other three are claimed and wait for their turn, a second away.
    stop.abort();
    const summary = await run;
    expect(summary.interrupted).toBe(true);
    expect(submissions()).toBe(1);
    const { jobs } = await readJournal(journal);
    expect(jobs.map((job) => job.state)).toEqual([
      expect.stringMatching(/^(submitted|completed)$/),
      'pending',
      'pending',
      'pending',
    ]);
    // Released, not failed: nothing of them was reserved, and no error is recorded for a stop.
    expect(jobs.slice(1).map((job) => job.error)).toEqual([undefined, undefined, undefined]);
    // The next run sends the three, once each.
    const rest = await runJobs(testClient(gateway.clientOptions()), manifest, {
      journal,
      outputDir: join(dir, 'out'),
    });
    expect(rest.counts.completed).toBe(4);
    expect([...submissionsPerJob(gateway).values()]).toEqual([1, 1, 1, 1]);
  });

  // The limiter's queue timeout came from inside the client call, after the intent: the job was
  // marked in doubt, though it was never sent.
  it("a job whose turn does not come within the limiter's maxQueueWaitMs is pending, with the QueueTimeoutError, never in doubt", async () => {
    const client = testClient({
      ...gateway.clientOptions(),
      limits: { requestsPerSecond: 1, burst: 1, maxQueueWaitMs: 50 },
    });
    const journal = join(dir, 'j.journal');
    const summary = await runJobs(
      client,
      writeManifest(join(dir, 'm.jsonl'), [videoJob('a'), videoJob('b')]),
      {
        journal,
        outputDir: join(dir, 'out'),
        concurrency: 2,
      },
    );
    expect(submissions()).toBe(1);
    expect(summary.counts.in_doubt).toBe(0);
    const waited = (await readJournal(journal)).jobs.find((job) => job.state === 'pending');
    expect(waited?.error?.type).toBe('QueueTimeoutError');
  });

  it("each submission takes one permit, the run's, handed to its first attempt; every permit is given back", async () => {
    const { counts, limiter } = countingLimiter();
    const client = testClient({ ...gateway.clientOptions(), limits: limiter });
    const jobs = [
      videoJob('v1'),
      videoJob('v2'),
      { id: 'i1', operation: 'images.generate', body: { model: 'imgmodel-2', prompt: 'draw i1' } },
      { id: 'e1', operation: 'embeddings.create', body: { model: 'bge-m3', input: ['embed e1'] } },
    ];
    const summary = await runJobs(client, writeManifest(join(dir, 'm.jsonl'), jobs), {
      journal: join(dir, 'j.journal'),
      outputDir: join(dir, 'out'),
    });
    expect(summary.counts.completed).toBe(4);
    // Three billable submissions, each one permit of the creation family: not one before the
    // intent and another in the call.
    expect(counts.creation).toBe(3);
    expect(submissions()).toBe(4);
    expect(counts.released).toBe(counts.creation + counts.query + counts.upload);
  });

  it('a job the journal refuses (over the reserved-seconds budget) takes no permit, and nothing is sent', async () => {
    const { counts, limiter } = countingLimiter();
    const client = testClient({ ...gateway.clientOptions(), limits: limiter });
    const summary = await runJobs(
      client,
      writeManifest(join(dir, 'm.jsonl'), [videoJob('a'), videoJob('b')]),
      {
        journal: join(dir, 'j.journal'),
        outputDir: join(dir, 'out'),
        maxReservedSeconds: 0,
      },
    );
    expect(summary.counts.skipped).toBe(2);
    expect(submissions()).toBe(0);
    expect(counts.creation).toBe(0);
  });
});

describe('a claimed job that waits for its turn, in the file journal', () => {
  const line = (entry: object) => `${JSON.stringify({ at: 1, ...entry })}\n`;
  const intent = (id: string, extra: object = {}) =>
    line({ e: 'intent', id, operation: 'videos.create', reserved: 5, ...extra });

  // A run killed outright during the wait left the job in doubt, though none of it was sent.
  it('is pending when read again with no `sending` after its queued intent, its seconds refunded', async () => {
    const journal = join(dir, 'j.journal');
    writeFileSync(journal, intent('waited', { queued: true }));
    const status = await readJournal(journal);
    expect(status.jobs.map((job) => [job.id, job.state])).toEqual([['waited', 'pending']]);
    expect(status.reservedSeconds).toBe(0);
    const opened = new FileJournal(journal);
    await opened.open();
    expect(opened.get('waited')?.state).toBe('pending');
    expect(opened.reservedSeconds()).toBe(0);
    await opened.close();
  });

  it('is in doubt once `sending` is recorded, as is an intent that did not wait (older journals)', async () => {
    const journal = join(dir, 'j.journal');
    writeFileSync(
      journal,
      intent('sent', { queued: true }) + line({ e: 'sending', id: 'sent' }) + intent('unqueued'),
    );
    const status = await readJournal(journal);
    expect(status.jobs.map((job) => [job.id, job.state])).toEqual([
      ['sent', 'in_doubt'],
      ['unqueued', 'in_doubt'],
    ]);
    expect(status.reservedSeconds).toBe(10);
  });

  it('records `sending`, on disk, between its queued intent and its answer', async () => {
    const { limiter } = countingLimiter();
    const client = testClient({ ...gateway.clientOptions(), limits: limiter });
    const journal = join(dir, 'j.journal');
    await runJobs(client, writeManifest(join(dir, 'm.jsonl'), [videoJob('a')]), {
      journal,
      outputDir: join(dir, 'out'),
    });
    const entries = readFileSync(journal, 'utf8')
      .trim()
      .split('\n')
      .map((text) => JSON.parse(text) as { e: string; queued?: boolean });
    expect(entries.map((entry) => entry.e)).toEqual(['intent', 'sending', 'submitted', 'completed']);
    expect(entries[0]?.queued).toBe(true);
  });

  it('is not sent when the run stops while `sending` is being recorded: it is released', async () => {
    const { limiter } = countingLimiter();
    const client = testClient({ ...gateway.clientOptions(), limits: limiter });
    const stop = new AbortController();
    // The stop comes as the mark reaches the disk, after the permit was granted.
    const journal = new (class extends FileJournal {
      override async append(entry: JournalEntry, durable?: boolean): Promise<void> {
        await super.append(entry, durable);
        if (entry.e === 'sending') stop.abort();
      }
    })(join(dir, 'j.journal'));
    const summary = await runJobs(client, writeManifest(join(dir, 'm.jsonl'), [videoJob('a')]), {
      journal,
      outputDir: join(dir, 'out'),
      signal: stop.signal,
    });
    expect(summary.interrupted).toBe(true);
    expect(submissions()).toBe(0);
    expect((await readJournal(join(dir, 'j.journal'))).jobs.map((job) => job.state)).toEqual(['pending']);
  });
});
