// Covers: src/jobs/run.ts
/**
 * runJobs against the mock gateway over loopback: a run of mixed operations to the end, failures
 * that stay failures, the budget across restarts, a submission whose answer is lost (in doubt,
 * never resubmitted, reconciled from its webhook event), and files missing after completion.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MediaGateway } from '../../src/index.js';
import { type JobChange, JobEvents, readJournal, runJobs } from '../../src/jobs/index.js';
import { type MockGateway, startMockGateway } from '../../src/testing/index.js';
import { mockWebhooks } from '../../src/testing/state/webhooks/index.js';
import { testClient } from '../helpers/client.js';
import { startReceiver, type TestReceiver } from '../integration/webhooks-receiver.js';
import { filesIn, mixedJobs, scratch, submissionsPerJob, writeManifest } from './helpers.js';

let gateway: MockGateway;
let client: MediaGateway;
let dir: string;
let remove: () => void;

beforeEach(async () => {
  gateway = await startMockGateway({ speed: 200, requestLogLimit: 100_000 });
  client = testClient(gateway.clientOptions());
  ({ dir, remove } = scratch());
});

afterEach(async () => {
  await gateway.close();
  remove();
});

const video = (id: string, prompt = `film ${id}`, extra: Record<string, unknown> = {}) => ({
  id,
  operation: 'videos.create' as const,
  body: { model: 'vidmodel-2.0-mini', prompt, duration: 5, ...extra },
});

describe('runJobs', () => {
  it('runs mixed operations to the end: one submission per job, every output whole in the folder', async () => {
    const jobs = mixedJobs(12);
    const manifest = writeManifest(join(dir, 'm.jsonl'), jobs);
    const changes: JobChange[] = [];
    const summary = await runJobs(client, manifest, {
      journal: join(dir, 'j.journal'),
      outputDir: join(dir, 'out'),
      concurrency: 3,
      onProgress: (c) => changes.push(c),
    });
    expect(summary.counts).toMatchObject({ completed: 12, failed: 0, in_doubt: 0, pending: 0 });
    expect(summary.total).toBe(12);
    expect(summary.reservedSeconds).toBe(15);
    expect([...submissionsPerJob(gateway).values()]).toEqual(Array(12).fill(1));
    const files = filesIn(join(dir, 'out'));
    expect(files).toContain('job-001.mp4');
    expect(files).toContain('job-002.png');
    expect(files).toEqual(expect.arrayContaining(['job-003-1.png', 'job-003-2.png', 'job-004.json']));
    expect(files).toHaveLength(3 + 3 + 6 + 3);
    // Nothing but outputs: the staging folder beside it is gone too.
    expect(filesIn(dir).sort()).toEqual(['j.journal', 'm.jsonl', 'out']);
    expect(
      JSON.parse(readFileSync(join(dir, 'out', 'job-004.json'), 'utf8')).data[0].embedding.length,
    ).toBeGreaterThan(0);
    expect(
      changes
        .filter((c) => c.state === 'completed')
        .map((c) => c.id)
        .sort(),
    ).toEqual(jobs.map((j) => j.id));

    // Run again: nothing is sent.
    const before = gateway.requests.length;
    const again = await runJobs(client, manifest, {
      journal: join(dir, 'j.journal'),
      outputDir: join(dir, 'out'),
    });
    expect(again.counts.completed).toBe(12);
    expect(gateway.requests.length).toBe(before);
  });

  it('keeps failures as failures: a failed task and a refused body fail, the rest go on, and only --retry-failed sends them again', async () => {
    gateway.inject({
      match: { method: 'POST', path: '/v1/images/generations/async' },
      fault: { status: 400 },
    });
    const manifest = writeManifest(join(dir, 'm.jsonl'), [
      video('ok-1'),
      video('bad-task', 'mock:fail film bad-task'),
      {
        id: 'refused',
        operation: 'images.generateAsync',
        body: { model: 'imgmodel-2', prompt: 'paint refused' },
      },
      video('ok-2'),
    ]);
    const options = { journal: join(dir, 'j.journal'), outputDir: join(dir, 'out'), concurrency: 1 };
    const first = await runJobs(client, manifest, options);
    expect(first.counts).toMatchObject({ completed: 2, failed: 2 });
    const status = await readJournal(options.journal);
    const byId = new Map(status.jobs.map((j) => [j.id, j]));
    expect(byId.get('bad-task')).toMatchObject({
      state: 'failed',
      error: { type: 'TaskFailedError', code: 'task_failed' },
    });
    expect(byId.get('bad-task')?.task_id).toMatch(/^cgt-/);
    expect(byId.get('refused')).toMatchObject({
      state: 'failed',
      error: { type: 'BadRequestError', status: 400 },
    });

    // The refusal answered before the body was read: it counts under '?'.
    await runJobs(client, manifest, options);
    expect(Object.fromEntries(submissionsPerJob(gateway))).toEqual({
      'ok-1': 1,
      'bad-task': 1,
      '?': 1,
      'ok-2': 1,
    });

    const retried = await runJobs(client, manifest, { ...options, retryFailed: true });
    expect(Object.fromEntries(submissionsPerJob(gateway))).toEqual({
      'ok-1': 1,
      'bad-task': 2,
      '?': 1,
      refused: 1,
      'ok-2': 1,
    });
    expect(retried.counts).toMatchObject({ completed: 3, failed: 1 });
    expect(filesIn(join(dir, 'out'))).toEqual(['ok-1.mp4', 'ok-2.mp4', 'refused.png']);
  });

  it('holds the budget across restarts: jobs past it are skipped, and a larger budget sends them later', async () => {
    const manifest = writeManifest(
      join(dir, 'm.jsonl'),
      [1, 2, 3, 4].map((i) => video(`v${i}`)),
    );
    const options = { journal: join(dir, 'j.journal'), outputDir: join(dir, 'out'), concurrency: 1 };
    const first = await runJobs(client, manifest, { ...options, maxReservedSeconds: 12 });
    expect(first.counts).toMatchObject({ completed: 2, skipped: 2 });
    expect(first.reservedSeconds).toBe(10);
    expect((await readJournal(options.journal)).jobs.find((j) => j.id === 'v3')).toMatchObject({
      state: 'skipped',
      reason: 'budget',
    });
    // A new process with the same budget: the 10 s already reserved count.
    const second = await runJobs(client, manifest, { ...options, maxReservedSeconds: 12 });
    expect(second.counts).toMatchObject({ completed: 2, skipped: 2 });
    expect(submissionsPerJob(gateway).size).toBe(2);
    const third = await runJobs(client, manifest, { ...options, maxReservedSeconds: 15 });
    expect(third.counts).toMatchObject({ completed: 3, skipped: 1 });
    expect(third.reservedSeconds).toBe(15);
    expect([...submissionsPerJob(gateway).values()]).toEqual([1, 1, 1]);
  });

  it('leaves a job in doubt when the answer is lost, never resubmits it, and reconciles it from its webhook event', async () => {
    const webhooks = mockWebhooks(gateway).configure({ jitter: false });
    const url = 'https://hooks.example.com/jobs';
    const created = await client.webhooks.endpoints.create({ url });
    const secrets = { [created.endpoint.key_id]: created.signing_secret };
    let current: JobEvents | undefined;
    const receivers: TestReceiver[] = [];
    const route = async () => {
      const receiver = await startReceiver({
        secrets,
        clock: () => gateway.clock.nowSeconds(),
        onEvent: (event) => current?.publish(event),
      });
      receivers.push(receiver);
      webhooks.route(url, receiver.url);
    };
    await route();
    await client.webhooks.endpoints.verify(created.endpoint.id);
    const notifications = {
      webhook: { endpoint_id: created.endpoint.id, events: ['task.completed', 'task.failed'] },
    };
    // The gateway creates the task, then the connection is reset before the answer.
    gateway.inject({
      match: { method: 'POST', path: '/v1/videos/generations' },
      fault: { reset: 'after-body', runHandler: true },
    });
    const manifest = writeManifest(join(dir, 'm.jsonl'), [
      video('lost', 'film lost', { notifications }),
      video('fine', 'film fine'),
    ]);
    const options = { journal: join(dir, 'j.journal'), outputDir: join(dir, 'out'), concurrency: 1 };
    try {
      const first = await runJobs(client, manifest, options);
      expect(first.counts).toMatchObject({ in_doubt: 1, completed: 1 });
      const lost = (await readJournal(options.journal)).jobs.find((j) => j.id === 'lost');
      expect(lost).toMatchObject({ state: 'in_doubt', error: { type: 'AmbiguousSubmissionError' } });
      expect(lost?.client_reference_id).toMatch(/^mgj-/);
      // The gateway did create it, with that reference.
      const task = gateway.tasks
        .list()
        .find(
          (t) =>
            (t.data as { client_reference_id?: string }).client_reference_id === lost?.client_reference_id,
        );
      expect(task).toBeDefined();

      // Resumed with no events: still in doubt, not sent again.
      const second = await runJobs(client, manifest, options);
      expect(second.counts).toMatchObject({ in_doubt: 1, completed: 1 });
      expect(Object.fromEntries(submissionsPerJob(gateway))).toEqual({ lost: 1, fine: 1 });

      // Resumed with events: the task's event (delivered again) carries the reference.
      current = new JobEvents();
      await route();
      const event = webhooks.events().find((e) => e.taskIds.includes(task!.id));
      expect(event).toBeDefined();
      const third = runJobs(client, manifest, { ...options, events: current });
      webhooks.redeliver(event!);
      const summary = await third;
      expect(summary.counts).toMatchObject({ completed: 2, in_doubt: 0 });
      expect((await readJournal(options.journal)).jobs.find((j) => j.id === 'lost')).toMatchObject({
        state: 'completed',
        task_id: task!.id,
        files: ['lost.mp4'],
      });
      expect(Object.fromEntries(submissionsPerJob(gateway))).toEqual({ lost: 1, fine: 1 });
    } finally {
      for (const receiver of receivers) await receiver.close();
    }
  });

  it('downloads again, never resubmits, a completed job whose file is gone', async () => {
    const manifest = writeManifest(join(dir, 'm.jsonl'), mixedJobs(3));
    const options = { journal: join(dir, 'j.journal'), outputDir: join(dir, 'out') };
    await runJobs(client, manifest, options);
    rmSync(join(dir, 'out', 'job-001.mp4'));
    rmSync(join(dir, 'out', 'job-002.png'));
    const summary = await runJobs(client, manifest, options);
    expect(summary.counts.completed).toBe(3);
    expect(filesIn(join(dir, 'out'))).toEqual([
      'job-001.mp4',
      'job-002.png',
      'job-003-1.png',
      'job-003-2.png',
    ]);
    expect([...submissionsPerJob(gateway).values()]).toEqual([1, 1, 1]);
  });

  // A 5xx can come from a proxy after the gateway took the task: --retry-failed must not send it
  // again. A 429 is the gateway taking no task: the job waits for the next run, not for a flag.
  it('leaves a job answered 5xx in doubt and one answered 429 past the retries pending', async () => {
    const strict = testClient({ ...gateway.clientOptions(), maxRetries: 0 });
    gateway.inject({ match: { method: 'POST', path: '/v1/videos/generations' }, fault: { status: 502 } });
    gateway.inject({
      match: { method: 'POST', path: '/v1/images/generations/async' },
      fault: { status: 429, headers: { 'retry-after': '1' } },
    });
    const manifest = writeManifest(join(dir, 'm.jsonl'), [
      video('proxied'),
      {
        id: 'limited',
        operation: 'images.generateAsync',
        body: { model: 'imgmodel-2', prompt: 'paint limited' },
      },
    ]);
    const options = { journal: join(dir, 'j.journal'), outputDir: join(dir, 'out'), concurrency: 1 };
    const first = await runJobs(strict, manifest, options);
    expect(first.counts).toMatchObject({ in_doubt: 1, pending: 1, failed: 0 });
    const byId = new Map((await readJournal(options.journal)).jobs.map((j) => [j.id, j]));
    expect(byId.get('proxied')).toMatchObject({ state: 'in_doubt', error: { status: 502 } });
    expect(byId.get('limited')).toMatchObject({ state: 'pending', error: { status: 429 } });
    const sent = gateway.requests.length;
    const second = await runJobs(strict, manifest, { ...options, retryFailed: true });
    // The pending job is sent and completes; the one in doubt is not sent again.
    expect(second.counts).toMatchObject({ completed: 1, in_doubt: 1 });
    expect(
      gateway.requests.slice(sent).filter((r) => r.method === 'POST' && r.path === '/v1/videos/generations'),
    ).toEqual([]);
    expect(filesIn(join(dir, 'out'))).toEqual(['limited.png']);
  });

  it('follows a sent job as the journal has it when the manifest changes its operation', async () => {
    const options = { journal: join(dir, 'j.journal'), outputDir: join(dir, 'out'), waitTimeoutMs: 1 };
    const sent = writeManifest(join(dir, 'm.jsonl'), [video('clip')]);
    const first = await runJobs(client, sent, options);
    expect(first.counts.submitted).toBe(1);
    const changed = writeManifest(join(dir, 'm.jsonl'), [
      { id: 'clip', operation: 'images.generate', body: { model: 'imgmodel-2', prompt: 'draw clip' } },
    ]);
    const second = await runJobs(client, changed, { ...options, waitTimeoutMs: 60_000 });
    expect(second.counts.completed).toBe(1);
    // The video billed in the first run is the file; nothing else was sent.
    expect(filesIn(join(dir, 'out'))).toEqual(['clip.mp4']);
    expect(Object.fromEntries(submissionsPerJob(gateway))).toEqual({ clip: 1 });
  });

  it('fails, billed and not refunded, a job whose media expired before it was saved', async () => {
    await gateway.close();
    gateway = await startMockGateway({ speed: 200, mediaTtlMs: 2_000, requestLogLimit: 100_000 });
    const strict = testClient({ ...gateway.clientOptions(), maxRetries: 0 });
    gateway.inject({ match: { method: 'GET', path: '/v1/images/results/' }, fault: { status: 503 } });
    const manifest = writeManifest(join(dir, 'm.jsonl'), [
      { id: 'still', operation: 'images.generate', body: { model: 'imgmodel-2', prompt: 'draw still' } },
    ]);
    const options = { journal: join(dir, 'j.journal'), outputDir: join(dir, 'out') };
    expect((await runJobs(strict, manifest, options)).counts.submitted).toBe(1);
    // 2 mock seconds at 200x: the media the answer named has expired.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const again = await runJobs(strict, manifest, options);
    expect(again.counts).toMatchObject({ failed: 1, submitted: 0 });
    const [job] = (await readJournal(options.journal)).jobs;
    expect(job).toMatchObject({ state: 'failed', error: { type: 'MediaExpiredError', status: 410 } });
    expect(Object.fromEntries(submissionsPerJob(gateway))).toEqual({ still: 1 });
  });

  it('refuses a manifest with a bad line before sending anything', async () => {
    const manifest = writeManifest(join(dir, 'm.jsonl'), [
      video('a'),
      {
        id: 'b',
        operation: 'videos.create',
        body: { model: 'vidmodel-2.0-mini', prompt: 'x', duration: 99 },
      },
    ]);
    await expect(
      runJobs(client, manifest, { journal: join(dir, 'j.journal'), outputDir: join(dir, 'out') }),
    ).rejects.toMatchObject({
      name: 'RequestValidationError',
      lines: [{ line: 2, id: 'b', issues: [expect.objectContaining({ path: 'body.duration' })] }],
    });
    expect(submissionsPerJob(gateway).size).toBe(0);
  });

  it('runs many jobs at once without a listener-leak warning on its stop signal', async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    try {
      const jobs = mixedJobs(40).filter(
        (j) => j.operation === 'images.generateAsync' || j.operation === 'videos.create',
      );
      const manifest = writeManifest(join(dir, 'm.jsonl'), jobs);
      // A client limiter queues the polls and downloads, each listening to the run's signal.
      const limited = testClient({ ...gateway.clientOptions(), limits: { requestsPerSecond: 50, burst: 1 } });
      const summary = await runJobs(limited, manifest, {
        journal: join(dir, 'j.journal'),
        outputDir: join(dir, 'out'),
        concurrency: 20,
      });
      expect(summary.counts.completed).toBe(20);
      // Warnings are emitted on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings.map((w) => w.name)).not.toContain('MaxListenersExceededWarning');
  });

  it('stops submitting when its signal aborts, and resolves with the journal consistent', async () => {
    const manifest = writeManifest(
      join(dir, 'm.jsonl'),
      [1, 2, 3, 4, 5, 6].map((i) => video(`v${i}`)),
    );
    const stop = new AbortController();
    const options = { journal: join(dir, 'j.journal'), outputDir: join(dir, 'out'), concurrency: 2 };
    const summary = await runJobs(client, manifest, {
      ...options,
      signal: stop.signal,
      onProgress: (c) => {
        if (c.state === 'submitted') stop.abort();
      },
    });
    expect(summary.interrupted).toBe(true);
    const sent = submissionsPerJob(gateway).size;
    expect(sent).toBeLessThanOrEqual(2);
    const status = await readJournal(options.journal);
    expect(status.counts.in_doubt).toBe(0);
    expect(status.jobs).toHaveLength(sent);
    const rest = await runJobs(client, manifest, options);
    expect(rest.counts.completed).toBe(6);
    expect([...submissionsPerJob(gateway).values()]).toEqual(Array(6).fill(1));
  });
});
