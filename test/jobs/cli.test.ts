// Covers: src/cli/commands/jobs.ts
/**
 * `mediagw jobs` as a user runs it: the built binary in child processes, against the mock
 * gateway of this process over loopback. `plan` offline; `run` and `status` with their --json
 * shapes; Ctrl+C and SIGTERM mid-run; and `kill -9` of the runner at random points, resumed,
 * over and over, with no job ever submitted twice.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { shownJournal } from '../../src/cli/output.js';
import { readJournal } from '../../src/jobs/index.js';
import { type MockGateway, startMockGateway } from '../../src/testing/index.js';
import { mockWebhooks } from '../../src/testing/state/webhooks/index.js';
import { BIN, cleanEnv, ensureBuilt, run, start, until } from '../cli/helpers.js';
import { testClient } from '../helpers/client.js';
import { startReceiver } from '../integration/webhooks-receiver.js';
import { filesIn, mixedJobs, scratch, submissionsPerJob, videoJob, writeManifest } from './helpers.js';

beforeAll(ensureBuilt, 180_000);

let dir: string;
let remove: () => void;
let gateway: MockGateway | undefined;
beforeEach(() => {
  ({ dir, remove } = scratch());
});
afterEach(async () => {
  await gateway?.close();
  gateway = undefined;
  remove();
});

/** `jobs run` of the manifest at `path`, with the test's journal and output folder. */
const runArgs = (path: string) => [
  'jobs',
  'run',
  path,
  '--journal',
  join(dir, 'j'),
  '--output-dir',
  join(dir, 'out'),
];

async function mock(speed: number): Promise<{ env: Record<string, string>; gateway: MockGateway }> {
  gateway = await startMockGateway({ speed, requestLogLimit: 100_000 });
  return { gateway, env: { MEDIAGW_API_KEY: gateway.apiKey, MEDIAGW_BASE_URL: gateway.url } };
}

describe('mediagw jobs run flags', () => {
  it('refuses a --wait-timeout past what a timer holds as a usage error naming the flag, before the journal', async () => {
    const path = writeManifest(join(dir, 'm.jsonl'), mixedJobs(1));
    const journal = join(dir, 'j.journal');
    const result = await run(
      [
        'jobs',
        'run',
        path,
        '--journal',
        journal,
        '--output-dir',
        join(dir, 'out'),
        '--wait-timeout',
        '3000000',
      ],
      { env: { MEDIAGW_API_KEY: 'cgt-flag-check-key-00000', MEDIAGW_BASE_URL: 'http://127.0.0.1:9' } },
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('--wait-timeout must be from 1 to 2147483.647, got 3000000');
    expect(existsSync(journal)).toBe(false);
  });
});

describe('mediagw jobs plan', () => {
  it('reports bad lines by number and id with field paths, exits 1, and sends nothing', async () => {
    const path = writeManifest(join(dir, 'm.jsonl'), [
      {
        id: 'ok',
        operation: 'videos.create',
        body: { model: 'vidmodel-2.0-mini', prompt: 'a kite', duration: 5 },
      },
      {
        id: 'long',
        operation: 'videos.create',
        body: { model: 'vidmodel-2.0-mini', prompt: 'a kite', duration: 99 },
      },
      { id: 'ok', operation: 'embeddings.create', body: { model: 'bge-m3', input: ['x'] } },
    ]);
    const human = await run(['jobs', 'plan', path]);
    expect(human.code).toBe(1);
    expect(human.stdout).toMatch(/line 2 \(long\)\n\s+body\.duration: /);
    expect(human.stdout).toMatch(/line 3 \(ok\)\n\s+id: is not unique: line 1/);
    const json = await run(['jobs', 'plan', path, '--json']);
    expect(json.code).toBe(1);
    const doc = JSON.parse(json.stdout);
    expect(doc).toMatchObject({
      valid: false,
      jobs: 1,
      operations: { 'videos.create': 1 },
      reserved_seconds: 5,
    });
    expect(doc.invalid.map((l: { line: number; id: string }) => [l.line, l.id])).toEqual([
      [2, 'long'],
      [3, 'ok'],
    ]);
  });

  it('exits 0 for a valid manifest, with totals per operation and reserved seconds per model and tier', async () => {
    const path = writeManifest(join(dir, 'm.jsonl'), mixedJobs(8));
    const result = await run(['jobs', 'plan', path, '--json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({
      valid: true,
      jobs: 8,
      operations: {
        'videos.create': 2,
        'images.generateAsync': 2,
        'images.generate': 2,
        'embeddings.create': 2,
      },
      reserved: [{ model: 'vidmodel-2.0-mini', jobs: 2, seconds: 10 }],
    });
  });
});

describe('mediagw jobs run and status', () => {
  it('runs to the end (exit 0), prints one summary document, and status lists every job', async () => {
    const { env } = await mock(200);
    const path = writeManifest(join(dir, 'm.jsonl'), mixedJobs(6));
    const args = ['jobs', 'run', path, '--journal', join(dir, 'j'), '--output-dir', join(dir, 'out')];
    const result = await run([...args, '--poll-interval', '20', '--json'], { env });
    expect(result.stderr).toContain('job-001: completed job-001.mp4');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({
      counts: { completed: 6, pending: 0, in_doubt: 0, submitted: 0, failed: 0, skipped: 0 },
      total: 6,
      exit_code: 0,
    });
    const status = await run(['jobs', 'status', '--journal', join(dir, 'j'), '--json']);
    expect(status.code).toBe(0);
    const doc = JSON.parse(status.stdout);
    expect(doc.counts.completed).toBe(6);
    expect(doc.jobs.find((j: { id: string }) => j.id === 'job-001')).toMatchObject({
      state: 'completed',
      task_id: expect.stringMatching(/^cgt-/),
      client_reference_id: expect.stringMatching(/^mgj-/),
      files: ['job-001.mp4'],
    });
    expect(doc.jobs.find((j: { id: string }) => j.id === 'job-004')).toEqual({
      id: 'job-004',
      state: 'completed',
      files: ['job-004.json'],
    });
  });

  it('exits 3 when a job failed, 6 when the budget skipped one, and names the resume command', async () => {
    const { env } = await mock(200);
    const path = writeManifest(join(dir, 'm.jsonl'), [videoJob('a'), videoJob('b')]);
    const args = ['jobs', 'run', path, '--journal', join(dir, 'j'), '--output-dir', join(dir, 'out')];
    const budget = await run(
      [...args, '--poll-interval', '20', '--concurrency', '1', '--max-reserved-seconds', '7'],
      {
        env,
      },
    );
    expect(budget.code).toBe(6);
    expect(budget.stdout).toContain('1 of 2 jobs completed, 1 skipped');
    expect(budget.stdout).toContain(`resume with: mediagw jobs run ${path}`);
    const failing = writeManifest(join(dir, 'f.jsonl'), [
      {
        id: 'f',
        operation: 'videos.create',
        body: { model: 'vidmodel-2.0-mini', prompt: 'mock:fail f', duration: 5 },
      },
    ]);
    const failed = await run(
      [
        'jobs',
        'run',
        failing,
        '--journal',
        join(dir, 'jf'),
        '--output-dir',
        join(dir, 'out'),
        '--poll-interval',
        '20',
      ],
      { env },
    );
    expect(failed.code).toBe(3);
  });

  it('keeps to --rate per model in this process with a file journal: the gateway answers no 429', async () => {
    gateway = await startMockGateway({
      speed: 200,
      requestLogLimit: 100_000,
      rateLimits: { perKeyModel: { requestsPerSecond: 10, burst: 5 } },
    });
    const env = { MEDIAGW_API_KEY: gateway.apiKey, MEDIAGW_BASE_URL: gateway.url };
    const jobs = Array.from({ length: 20 }, (_, i) => ({
      id: `img-${i}`,
      operation: 'images.generate' as const,
      body: { model: 'imgmodel-2', prompt: `draw img-${i}` },
    }));
    const path = writeManifest(join(dir, 'm.jsonl'), jobs);
    const args = ['jobs', 'run', path, '--journal', join(dir, 'j'), '--output-dir', join(dir, 'out')];
    const zero = await run([...args, '--rate', '0'], { env });
    expect(zero.code).toBe(1);
    expect(zero.stderr).toContain('--rate');
    expect(gateway.requests).toHaveLength(0);
    const result = await run([...args, '--concurrency', '8', '--rate', '5'], { env, timeoutMs: 60_000 });
    expect(result.code, result.stderr).toBe(0);
    expect([...submissionsPerJob(gateway).values()]).toEqual(Array(jobs.length).fill(1));
    const stats = gateway.rateLimits.stats;
    expect(stats.limited).toBe(0);
    // A bucket of 5 refilled 5 a second grants at most 5 + 5 in a second; one more for a grant
    // made before a second's edge that arrives after it.
    const perSecond = [...(stats.admittedPerSecond.get(`${gateway.apiKey}|imgmodel-2`)?.values() ?? [])];
    expect(perSecond.reduce((a, b) => a + b, 0)).toBe(jobs.length);
    expect(Math.max(...perSecond)).toBeLessThanOrEqual(5 + 5 + 1);
  });

  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
    // The terminal or SSH session closed: the run used to die as if killed, jobs left in doubt.
    ['SIGHUP', 129],
  ] as const) {
    it(`${signal} mid-run stops submitting, leaves the journal consistent, says how to resume, exits ${code}`, async () => {
      // Slow tasks: a video takes 10 mock seconds, 1 s here.
      const { env, gateway } = await mock(10);
      const jobs = mixedJobs(12).filter(
        (j) => j.operation === 'videos.create' || j.operation === 'images.generateAsync',
      );
      const path = writeManifest(join(dir, 'm.jsonl'), jobs);
      const args = ['jobs', 'run', path, '--journal', join(dir, 'j'), '--output-dir', join(dir, 'out')];
      const child = start([...args, '--concurrency', '2', '--poll-interval', '50'], { env });
      await until(() => /: submitted/.test(child.output()), 'a submission');
      child.child.kill(signal);
      const result = await child.result;
      expect(result.code).toBe(code);
      expect(result.stderr).toContain(`${signal}: no new job is sent`);
      expect(result.stdout).toContain(`resume with: mediagw jobs run ${path}`);
      const status = await readJournal(join(dir, 'j'));
      expect(status.counts.in_doubt).toBe(0);
      const sent = submissionsPerJob(gateway);
      expect(sent.size).toBeLessThan(jobs.length);
      expect(status.jobs.map((j) => j.id).sort()).toEqual([...sent.keys()].sort());
      expect(existsSync(join(dir, 'j.lock'))).toBe(false);

      const resumed = await run([...args, '--concurrency', '4', '--poll-interval', '50'], {
        env,
        timeoutMs: 60_000,
      });
      expect(resumed.code).toBe(0);
      expect([...submissionsPerJob(gateway).values()]).toEqual(Array(jobs.length).fill(1));
    });
  }
});

describe('mediagw jobs run stopped while submissions take long', () => {
  // The command's 5 s limit for tidying up after a signal ended the run first: the submissions
  // on the wire, accepted and billed, were left in doubt, with no summary and the lock left.
  it('SIGINT, then a second one, waits for the answers on the wire: their task IDs are kept, exit 130', async () => {
    const { env, gateway } = await mock(200);
    const path = writeManifest(join(dir, 'm.jsonl'), [videoJob('slow-1'), videoJob('slow-2')]);
    const slow = gateway.inject({ match: { method: 'POST', path: '/v1/videos' }, fault: { delayMs: 6_000 } });
    const child = start(runArgs(path), { env });
    await until(() => submissionsPerJob(gateway).size === 2, 'both submissions on the wire');
    child.child.kill('SIGINT');
    await new Promise((resolve) => setTimeout(resolve, 200));
    child.child.kill('SIGINT');
    const result = await child.result;
    slow.cancel();
    expect(result.code, result.stderr).toBe(130);
    expect(result.stderr.split('SIGINT: no new job is sent')).toHaveLength(2);
    expect(result.stdout).toContain(`resume with: mediagw jobs run ${path}`);
    const status = await readJournal(join(dir, 'j'));
    expect(status.counts.in_doubt).toBe(0);
    expect(status.jobs.map((j) => [j.id, j.state, Boolean(j.task_id)])).toEqual([
      ['slow-1', 'submitted', true],
      ['slow-2', 'submitted', true],
    ]);
    expect(existsSync(join(dir, 'j.lock'))).toBe(false);
  });
});

describe('mediagw --mock jobs run', () => {
  // The resume command left out --mock: followed, it polled the embedded mock's task IDs against
  // MEDIAGW_BASE_URL. Under --mock the gateway and its tasks end with the command.
  it('prints no resume command, as the other commands under --mock', async () => {
    const path = writeManifest(join(dir, 'm.jsonl'), [videoJob('fine'), videoJob('bad', 'mock:fail bad')]);
    const args = ['--mock', ...runArgs(path)];
    for (const json of [false, true]) {
      const result = await run([...args, ...(json ? ['--json'] : [])], { timeoutMs: 60_000 });
      expect(result.code, result.stderr).toBe(3);
      expect(result.stdout + result.stderr).not.toContain('resume');
    }
  });
});

describe('mediagw jobs run whose output is closed', () => {
  // `… 2>&1 | head -1`, or a terminal gone: the run died on an unhandled EPIPE, jobs in doubt,
  // its lock and staging folder left behind.
  it('goes on to the end when stderr and stdout are closed, the journal whole and no lock left', async () => {
    const { env, gateway } = await mock(200);
    const jobs = mixedJobs(8);
    const path = writeManifest(join(dir, 'm.jsonl'), jobs);
    const child = spawn(process.execPath, [BIN, ...runArgs(path), '--concurrency', '1'], {
      env: cleanEnv(env),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // Read the first line, then go away, as `head -1` does.
    await new Promise<void>((resolve) => child.stderr.once('data', () => resolve()));
    child.stderr.destroy();
    child.stdout.destroy();
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(0);
    const status = await readJournal(join(dir, 'j'));
    expect(status.counts.completed).toBe(jobs.length);
    expect([...submissionsPerJob(gateway).values()]).toEqual(Array(jobs.length).fill(1));
    expect(existsSync(join(dir, 'j.lock'))).toBe(false);
    expect(readdirSync(dir).filter((name) => name.includes('mediagw-staging'))).toEqual([]);
  });
});

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('mediagw jobs run --events-port', () => {
  it('reconciles a job in doubt from the webhook event its own receiver gets, without sending it again', async () => {
    // Real time (speed 1) so that the receiver's timestamp check holds; short tasks instead.
    gateway = await startMockGateway({
      requestLogLimit: 100_000,
      taskDurations: { video: { queuedMs: 0, runMs: 200 } },
    });
    const env = { MEDIAGW_API_KEY: gateway.apiKey, MEDIAGW_BASE_URL: gateway.url };
    const client = testClient(gateway.clientOptions());
    const webhooks = mockWebhooks(gateway).configure({ jitter: false });
    const url = 'https://hooks.example.com/jobs-cli';
    const created = await client.webhooks.endpoints.create({ url });
    const verifier = await startReceiver({ secrets: { [created.endpoint.key_id]: created.signing_secret } });
    webhooks.route(url, verifier.url);
    await client.webhooks.endpoints.verify(created.endpoint.id);
    await verifier.close();
    gateway.inject({
      match: { method: 'POST', path: '/v1/videos/generations' },
      fault: { reset: 'after-body', runHandler: true },
    });
    const path = writeManifest(join(dir, 'm.jsonl'), [videoJob('lost'), videoJob('fine')]);
    const args = ['jobs', 'run', path, '--journal', join(dir, 'j'), '--output-dir', join(dir, 'out')];
    args.push('--concurrency', '1', '--poll-interval', '20', '--notify-endpoint', created.endpoint.id);
    const first = await run(args, { env });
    expect(first.code).toBe(5);
    const status = JSON.parse((await run(['jobs', 'status', '--journal', join(dir, 'j'), '--json'])).stdout);
    const lost = status.jobs.find((j: { id: string }) => j.id === 'lost');
    expect(lost).toMatchObject({ state: 'in_doubt', client_reference_id: expect.stringMatching(/^mgj-/) });
    const task = gateway.tasks
      .list()
      .find(
        (t) => (t.data as { client_reference_id?: string }).client_reference_id === lost.client_reference_id,
      );
    expect(task).toBeDefined();

    const port = await freePort();
    webhooks.route(url, `http://127.0.0.1:${port}/`);
    const second = start([...args, '--events-port', String(port)], {
      env: {
        ...env,
        MEDIAGW_WEBHOOK_SECRET: created.signing_secret,
        MEDIAGW_WEBHOOK_KID: created.endpoint.key_id,
      },
    });
    await until(() => second.output().includes('receiving webhook events'), 'the receiver');
    await until(() => webhooks.events().some((e) => e.taskIds.includes(task!.id)), 'the task event');
    webhooks.redeliver(webhooks.events().find((e) => e.taskIds.includes(task!.id))!);
    const result = await second.result;
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('lost: completed lost.mp4');
    expect(Object.fromEntries(submissionsPerJob(gateway))).toEqual({ lost: 1, fine: 1 });
    expect(result.stderr + result.stdout).not.toContain(created.signing_secret);
  });
});

const hasScript = spawnSync('script', ['--version'], { encoding: 'utf8' }).status === 0;
const ESC = String.fromCharCode(27);
const plain = (text: string) => text.replace(new RegExp(`${ESC}\\[[0-9;?]*[A-Za-z]|${ESC}[78]|\r`, 'g'), '');

describe.skipIf(!hasScript)('mediagw jobs run on a terminal', () => {
  it('draws one bar of completed jobs, with the failures on lines of their own', async () => {
    const { env } = await mock(200);
    const jobs = [
      ...mixedJobs(4),
      {
        id: 'bad',
        operation: 'videos.create',
        body: { model: 'vidmodel-2.0-mini', prompt: 'mock:fail bad', duration: 5 },
      },
    ];
    const path = writeManifest(join(dir, 'm.jsonl'), jobs);
    const args = ['jobs', 'run', path, '--journal', join(dir, 'j'), '--output-dir', join(dir, 'out')];
    const quoted = [process.execPath, BIN, ...args, '--poll-interval', '20']
      .map((a) => `'${a.replaceAll("'", "'\\''")}'`)
      .join(' ');
    const child = spawn('script', ['-q', '-e', '-c', quoted, '/dev/null'], {
      env: cleanEnv({ ...env, TERM: 'xterm-256color' }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let drawn = '';
    child.stdout.on('data', (c: Buffer) => {
      drawn += c.toString();
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    clearTimeout(timer);
    expect(code).toBe(3);
    const text = plain(drawn);
    expect(text).toMatch(/jobs [█░]+ 4\/5 completed \| 1 failed/);
    expect(text).toContain('4 of 5 jobs completed, 1 failed');
    expect(text).toMatch(/bad: failed .*task_failed/);
    // On a terminal the bar stands for the lines of each change.
    expect(text).not.toContain('job-001: completed');
  });
});

describe('secrets of a job run', () => {
  it.each([
    ['redis://jobs:hunter2@127.0.0.1:6379/0', 'redis://jobs:****@127.0.0.1:6379/0'],
    ['redis://:hunter2@127.0.0.1:6379', 'redis://:****@127.0.0.1:6379'],
    // A password holding @ or : is masked whole, as the URL parser delimits it.
    ['redis://jobs:hun@ter:2@10.0.0.1:6380/1', 'redis://jobs:****@10.0.0.1:6380/1'],
    ['redis://jobs@127.0.0.1:6379', 'redis://jobs@127.0.0.1:6379'],
    ['redis://127.0.0.1:6379/2', 'redis://127.0.0.1:6379/2'],
    ['redis://x:hun@ter2@[bad/0', 'redis://****@[bad/0'],
    ['journal.jsonl', 'journal.jsonl'],
  ])('a journal named in messages: %s as %s', (journal, shown) => {
    expect(shownJournal(journal)).toBe(shown);
    expect(shownJournal(journal)).not.toMatch(/hun|ter2/);
  });

  it('never prints the password of a redis:// journal, nor the webhook secret, in messages or --json', async () => {
    const { env } = await mock(200);
    const path = writeManifest(join(dir, 'm.jsonl'), mixedJobs(1));
    const port = await freePort(); // nothing listens there
    const journal = `redis://jobs:hunter2-s3cret@127.0.0.1:${port}/0`;
    for (const extra of [[], ['--json']]) {
      const result = await run(
        [
          'jobs',
          'run',
          path,
          '--journal',
          journal,
          '--run',
          'r1',
          '--output-dir',
          join(dir, 'out'),
          ...extra,
        ],
        { env },
      );
      expect(result.code).toBe(1);
      expect(result.stdout + result.stderr).toContain(`127.0.0.1:${port}`);
      expect(result.stdout + result.stderr).not.toContain('hunter2');
    }
    const status = await run(['jobs', 'status', '--journal', journal, '--run', 'r1', '--json']);
    expect(status.code).toBe(1);
    expect(status.stdout + status.stderr).not.toContain('hunter2');
  });
});

describe('kill -9 of the runner', () => {
  // The claimed jobs waiting for their turn were left in doubt, though none of them was sent:
  // only --resubmit-in-doubt, with its warning of double billing, would send them.
  it('while claimed jobs wait for their --rate turn leaves them pending, and the next run sends each once', async () => {
    const { env, gateway } = await mock(200);
    const path = writeManifest(
      join(dir, 'm.jsonl'),
      ['a', 'b', 'c', 'd'].map((id) => videoJob(id)),
    );
    const journal = join(dir, 'j');
    const out = join(dir, 'out');
    const args = ['jobs', 'run', path, '--journal', journal, '--output-dir', out, '--concurrency', '4'];
    const child = start([...args, '--rate', '1', '--poll-interval', '20'], { env });
    const lines = () => (existsSync(journal) ? readFileSync(journal, 'utf8').split('\n') : []);
    // The first job's answer is recorded; the other three are claimed, a second from their turn.
    await until(
      () =>
        lines().some((l) => l.includes('"e":"submitted"')) &&
        lines().filter((l) => l.includes('"e":"intent"')).length === 4,
      'the first answer and four claims',
    );
    child.child.kill('SIGKILL');
    expect((await child.result).signal).toBe('SIGKILL');
    expect([...submissionsPerJob(gateway).values()]).toEqual([1]);
    const left = await readJournal(journal);
    expect(left.jobs.filter((j) => j.state === 'pending')).toHaveLength(3);
    expect(left.counts.in_doubt).toBe(0);

    const final = await run([...args, '--poll-interval', '20'], { env, timeoutMs: 60_000 });
    expect(final.code, final.stderr).toBe(0);
    expect(Object.fromEntries(submissionsPerJob(gateway))).toEqual({ a: 1, b: 1, c: 1, d: 1 });
    expect(filesIn(out)).toEqual(['a.mp4', 'b.mp4', 'c.mp4', 'd.mp4']);
  });

  it('at random points, resumed each time: no job is submitted twice, and the folder holds only outputs', async () => {
    const { env, gateway } = await mock(100);
    const jobs = mixedJobs(16);
    const path = writeManifest(join(dir, 'm.jsonl'), jobs);
    const out = join(dir, 'out');
    const args = [...runArgs(path), '--concurrency', '3', '--poll-interval', '20'];
    // A fixed sequence of delays (ms after the first submission): the points differ from run to run.
    const delays = [0, 40, 120, 15, 250, 70, 5, 180];
    let cutShort = 0;
    for (const delay of delays) {
      const child = start(args, { env });
      const sentBefore = gateway.requests.length;
      await Promise.race([
        until(() => gateway.requests.length > sentBefore, 'a request', 20_000),
        child.result,
      ]);
      await new Promise((resolve) => setTimeout(resolve, delay));
      child.child.kill('SIGKILL');
      if ((await child.result).signal === 'SIGKILL') cutShort++;
      for (const [id, count] of submissionsPerJob(gateway)) expect(count, `submissions of ${id}`).toBe(1);
      if (existsSync(out))
        expect(readdirSync(out).filter((n) => !/^job-\d{3}(-\d)?\.(mp4|png|json)$/.test(n))).toEqual([]);
    }
    // The kills did land in the middle of runs, not after their ends.
    expect(cutShort).toBeGreaterThan(0);
    const final = await run(args, { env, timeoutMs: 60_000 });
    for (const [id, count] of submissionsPerJob(gateway)) expect(count, `submissions of ${id}`).toBe(1);
    const status = await readJournal(join(dir, 'j'));
    // A kill between a journal's intent and the answer leaves that job in doubt: never resent.
    const inDoubt = status.jobs.filter((j) => j.state === 'in_doubt').map((j) => j.id);
    expect(status.counts.completed + inDoubt.length).toBe(jobs.length);
    expect(final.code).toBe(inDoubt.length > 0 ? 5 : 0);
    const expected = status.jobs.flatMap((j) => j.files ?? []).sort();
    expect(filesIn(out)).toEqual(expected);
    // No staging folder left beside the output folder.
    expect(filesIn(dir)).toEqual(['j', 'm.jsonl', 'out']);
  });
});
