// Covers: src/cli/interrupt.ts
/**
 * SIGINT and SIGTERM sent to the built binary, a real child process, at each stage of a command:
 * during a submission, a wait, a download and an upload. Each ends with 130 or 143 (never killed
 * by the signal), leaves no partial file, prints one JSON document under --json, and prints a
 * resume command only when following it finishes the job.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type MockGateway, pngImage, startMockGateway } from '../../src/testing/index.js';
import { BIN, type CliResult, cleanEnv, ensureBuilt, oneDocument, start, until } from './helpers.js';

let gateway: MockGateway;

beforeAll(async () => {
  await ensureBuilt();
  // Real time: a 5 s mini video runs for 10 s, so a wait is still going when the signal comes.
  gateway = await startMockGateway({ speed: 1 });
}, 180_000);
afterAll(() => gateway?.close());

const env = () => ({ MEDIAGW_API_KEY: gateway.apiKey, MEDIAGW_BASE_URL: gateway.url });
const video = (...flags: string[]) => [
  'videos',
  'create',
  '-m',
  'vidmodel-2.0-mini',
  '-p',
  'a red kite',
  '-d',
  '5',
  '--poll-interval',
  '20',
  ...flags,
];
const partFiles = (dir: string) => readdirSync(dir).filter((f) => f.endsWith('.part'));
const submissions = (g: MockGateway) =>
  g.requests.filter((r) => r.method === 'POST' && r.path === '/v1/videos/generations').length;

/** Runs a printed command through the shell, with the binary standing for `mediagw`. */
function runHint(hint: string, cwd: string, extraEnv: Record<string, string>): Promise<CliResult> {
  expect(hint.startsWith('mediagw ')).toBe(true);
  const command = `"${process.execPath}" "${BIN}" ${hint.slice('mediagw '.length)}`;
  const child = spawn('sh', ['-c', command], { cwd, env: cleanEnv(extraEnv) });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  return new Promise((resolve) =>
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    }),
  );
}

describe('a signal during a download', () => {
  test.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
    // The terminal or SSH session closed: the command died by the signal, its .part left behind.
    ['SIGHUP', 129],
  ] as const)(
    '%s: exit %i, no partial file, one JSON document with the resume command',
    async (signal, exit) => {
      const dir = mkdtempSync(join(tmpdir(), 'mediagw-signal-download-'));
      const task = gateway.tasks.create({ account: 'acct_1', kind: 'video', model: 'vidmodel-2.0-mini' });
      gateway.tasks.finishNow(task.id);
      // The media origin sends the video 16 bytes every 50 ms: minutes for the whole file.
      const drip = gateway.inject({
        match: { origin: 'media' },
        fault: { drip: { everyMs: 50, bytes: 16 } },
      });
      const out = join(dir, 'kite.mp4');
      const run = start(['tasks', 'wait', task.id, '--output', out, '--json'], { env: env(), cwd: dir });
      await until(() => partFiles(dir).length > 0, 'the download to start writing');
      run.child.kill(signal);
      const result = await run.result;
      drip.cancel();
      expect(result.signal).toBeNull();
      expect(result.code).toBe(exit);
      expect(readdirSync(dir)).toEqual([]);
      const { error } = oneDocument(result);
      expect(error).toMatchObject({
        exit_code: exit,
        signal,
        task_id: task.id,
        resume: `mediagw tasks wait ${task.id} --output ${out} --json`,
      });
      expect(String(error.message)).toContain('no partial file was left');
    },
  );

  test('the printed resume command saves the file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mediagw signal resume '));
    const task = gateway.tasks.create({ account: 'acct_1', kind: 'video', model: 'vidmodel-2.0-mini' });
    gateway.tasks.finishNow(task.id);
    const drip = gateway.inject({ match: { origin: 'media' }, fault: { drip: { everyMs: 50, bytes: 16 } } });
    const run = start(['tasks', 'wait', task.id, '--output', 'my kite.mp4'], { env: env(), cwd: dir });
    await until(() => partFiles(dir).length > 0, 'the download to start writing');
    run.child.kill('SIGINT');
    const stopped = await run.result;
    drip.cancel();
    gateway.clearFaults();
    expect(stopped.code).toBe(130);
    const hint = /^Resume with: (.+)$/m.exec(stopped.stderr)?.[1] ?? '';
    expect(hint).toBe(`mediagw tasks wait ${task.id} --output 'my kite.mp4'`);
    const resumed = await runHint(hint, dir, env());
    expect(resumed.code).toBe(0);
    expect(readFileSync(join(dir, 'my kite.mp4')).subarray(4, 8).toString()).toBe('ftyp');
    expect(partFiles(dir)).toEqual([]);
  });
});

describe('a signal during a wait', () => {
  test('SIGTERM with --json: exit 143, one document naming the task and the resume command', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mediagw-signal-wait-'));
    const before = submissions(gateway);
    const run = start(video('--output', 'kite.mp4', '--json'), { env: env(), cwd: dir });
    await until(() => /task cgt-\S+: queued/.test(run.output()), 'the wait to start');
    run.child.kill('SIGTERM');
    const result = await run.result;
    expect(result.signal).toBeNull();
    expect(result.code).toBe(143);
    const { error } = oneDocument(result);
    const id = String(error.task_id);
    expect(error).toMatchObject({
      exit_code: 143,
      signal: 'SIGTERM',
      resume: `mediagw tasks wait ${id} --output kite.mp4 --json`,
    });
    expect(submissions(gateway)).toBe(before + 1);
    expect(readdirSync(dir)).toEqual([]);
  });

  // The second, arriving as the command ended, met Node's default handler: the process died by
  // SIGINT instead of exiting 130 with its document.
  test('two Ctrl+C 5 ms apart: exit 130 and one document, every time', async () => {
    for (let trial = 0; trial < 3; trial++) {
      const dir = mkdtempSync(join(tmpdir(), 'mediagw-signal-twice-'));
      const run = start(video('--output', 'kite.mp4', '--json'), { env: env(), cwd: dir });
      await until(() => /task cgt-\S+: queued/.test(run.output()), 'the wait to start');
      run.child.kill('SIGINT');
      await new Promise((resolve) => setTimeout(resolve, 5));
      run.child.kill('SIGINT');
      const result = await run.result;
      expect(result.signal, `trial ${trial}`).toBeNull();
      expect(result.code).toBe(130);
      expect(oneDocument(result).error).toMatchObject({ exit_code: 130, signal: 'SIGINT' });
    }
  });

  test('videos create --output: the resume command printed after Ctrl+C waits and saves the video', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mediagw-signal-hint-'));
    const run = start(
      video('--output', 'kite.mp4', '--last-frame', 'last.png', '--body', '{"return_last_frame":true}'),
      {
        env: env(),
        cwd: dir,
      },
    );
    await until(() => /task cgt-\S+: queued/.test(run.output()), 'the wait to start');
    run.child.kill('SIGINT');
    const stopped = await run.result;
    expect(stopped.code).toBe(130);
    const id = /submitted task (\S+)/.exec(stopped.stderr)?.[1] ?? '';
    const hint = /^Resume with: (.+)$/m.exec(stopped.stderr)?.[1] ?? '';
    expect(hint).toBe(`mediagw tasks wait ${id} --output kite.mp4 --last-frame last.png`);
    gateway.tasks.finishNow(id);
    const before = submissions(gateway);
    const resumed = await runHint(hint, dir, env());
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(readFileSync(join(dir, 'kite.mp4')).subarray(4, 8).toString()).toBe('ftyp');
    expect(readFileSync(join(dir, 'last.png')).subarray(1, 4).toString()).toBe('PNG');
    expect(submissions(gateway)).toBe(before);
  });

  test('--base-url given as a flag is part of the resume command', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mediagw-signal-flag-'));
    const run = start([...video('--wait'), '--base-url', gateway.url], {
      env: { MEDIAGW_API_KEY: gateway.apiKey },
      cwd: dir,
    });
    await until(() => /task cgt-\S+: queued/.test(run.output()), 'the wait to start');
    run.child.kill('SIGINT');
    const stopped = await run.result;
    expect(stopped.code).toBe(130);
    const id = /submitted task (\S+)/.exec(stopped.stderr)?.[1] ?? '';
    const hint = /^Resume with: (.+)$/m.exec(stopped.stderr)?.[1] ?? '';
    expect(hint).toBe(`mediagw tasks wait ${id} --base-url ${gateway.url}`);
    gateway.tasks.finishNow(id);
    const resumed = await runHint(hint, dir, { MEDIAGW_API_KEY: gateway.apiKey });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toMatch(/status\s+completed/);
  });

  test('under --mock no resume command is printed: the mock and its tasks end with the command', async () => {
    const run = start([
      '--mock',
      'videos',
      'create',
      '-m',
      'vidmodel-2.0-mini',
      '-p',
      'mock:slow a kite',
      '-d',
      '5',
      '--output',
      'kite.mp4',
      '--json',
    ]);
    await until(() => /task cgt-\S+: queued/.test(run.output()), 'the wait to start');
    run.child.kill('SIGINT');
    const result = await run.result;
    expect(result.code).toBe(130);
    const { error } = oneDocument(result);
    expect(error.resume).toBeUndefined();
    expect(String(error.message)).toContain('there is nothing to resume');
    expect(result.stderr).not.toContain('Resume with');
  });

  test('--mock --async prints no command to wait with', async () => {
    const result = await start([
      '--mock',
      'images',
      'generate',
      '-m',
      'imgmodel-2',
      '-p',
      'a crane',
      '--async',
    ]).result;
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/submitted task task_\S+/);
    expect(result.stdout).not.toContain('wait for it');
  });
});

describe('a signal during a submission or an upload', () => {
  test('a request read from a stdin nobody writes to: exit 130, one document, nothing sent', async () => {
    const before = gateway.requests.length;
    const child = spawn(process.execPath, [BIN, 'videos', 'create', '-f', '-', '--json', '--verbose'], {
      env: cleanEnv(env()),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const closed = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    await until(() => stderr.includes('reading the request from stdin'), 'the command to read stdin');
    child.kill('SIGINT');
    const code = await closed;
    child.stdin.destroy();
    expect(code).toBe(130);
    expect(stdout.trim().split('\n')).toHaveLength(1);
    expect(JSON.parse(stdout).error).toMatchObject({
      exit_code: 130,
      signal: 'SIGINT',
      message: 'Stopped while reading the request from stdin: nothing was sent.',
    });
    expect(gateway.requests.length).toBe(before);
  });

  // The open of a FIFO nobody writes to waits in a worker thread, which held the process at its
  // exit: the message came only with a second Ctrl+C.
  test('a request file that is a FIFO nobody writes to: one Ctrl+C ends it, exit 130, nothing sent', async () => {
    const fifo = join(mkdtempSync(join(tmpdir(), 'mediagw-cli-fifo-')), 'request.json');
    execFileSync('mkfifo', [fifo]);
    const before = gateway.requests.length;
    const run = start(['videos', 'create', '-f', fifo, '--json', '--verbose'], {
      env: env(),
      timeoutMs: 10_000,
    });
    await until(
      () => run.output().includes(`reading the request from ${fifo}`),
      'the command to open the FIFO',
    );
    run.child.kill('SIGINT');
    const result = await run.result;
    expect(result.code).toBe(130);
    expect(oneDocument(result).error).toMatchObject({
      exit_code: 130,
      signal: 'SIGINT',
      message: `Stopped while reading the request from ${fifo}: nothing was sent.`,
    });
    expect(gateway.requests.length).toBe(before);
  });

  // The aborted read was reported as one more bad file: exit 1, and no signal in the document.
  test('validate of a FIFO nobody writes to: Ctrl+C ends it with exit 130 and the signal document', async () => {
    const fifo = join(mkdtempSync(join(tmpdir(), 'mediagw-cli-fifo-')), 'request.json');
    execFileSync('mkfifo', [fifo]);
    const run = start(['validate', fifo, '--json'], { timeoutMs: 10_000 });
    // Bounded: the command has started and waits on the FIFO's open well within this.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    run.child.kill('SIGINT');
    const result = await run.result;
    expect(result.code).toBe(130);
    expect(oneDocument(result).error).toMatchObject({ exit_code: 130, signal: 'SIGINT' });
  });

  /** Starts `args`, holds its submission at `path`, sends SIGINT once it arrived: the error document, and the submissions before and after. */
  async function stopInFlight(args: string[], path: string) {
    const hang = gateway.inject({ match: { method: 'POST', path }, fault: { hang: true } });
    const sent = () => gateway.requests.filter((r) => r.method === 'POST' && r.path === path).length;
    const before = sent();
    const run = start(args, { env: env() });
    await until(() => sent() > before, 'the submission to reach the gateway');
    run.child.kill('SIGINT');
    const result = await run.result;
    hang.cancel();
    gateway.clearFaults();
    expect(result.code).toBe(130);
    const { error } = oneDocument(result);
    expect(error).toMatchObject({ exit_code: 130, signal: 'SIGINT' });
    expect(error.resume).toBeUndefined();
    return { message: String(error.message), sentOnce: sent() === before + 1 };
  }

  test('a submission in flight: exit 130, one document, sent once, and no resume command', async () => {
    const stopped = await stopInFlight(video('--wait', '--json'), '/v1/videos/generations');
    expect(stopped.message).toMatch(/may have created the task.*check/i);
    expect(stopped.sentOnce).toBe(true);
  });

  // It creates a review task and its materials: interrupted runs each made one more.
  test('a library submission in flight: exit 130, and the message says to check before submitting again', async () => {
    const stopped = await stopInFlight(
      ['library', 'assets', 'submit', '--type', 'Image', '--url', 'https://example.com/a.png', '--json'],
      '/v1/vidmodel2/private-avatar/assets',
    );
    expect(stopped.message).toMatch(/may have created the review task.*check `mediagw library assets list`/);
    expect(stopped.sentOnce).toBe(true);
  });

  // With -f, a signal after the read said "Stopped while reading the request …: nothing was
  // sent" though the request was on the wire (and the group created).
  test.each([
    [['library', 'groups', 'create'], '/v1/vidmodel2/private-avatar/groups', /may have created the group/],
    [['embeddings', 'create'], '/v1/embeddings', /may have computed the embeddings, and billed them/],
  ])(
    '%j with -f, in flight: the message says what may have been done, not "nothing was sent"',
    async (command, path, said) => {
      const dir = mkdtempSync(join(tmpdir(), 'mediagw-signal-file-'));
      const file = join(dir, 'request.json');
      writeFileSync(
        file,
        JSON.stringify(command[0] === 'library' ? { name: 'g1' } : { model: 'bge-m3', input: 'x' }),
      );
      try {
        const stopped = await stopInFlight([...command, '-f', file, '--json'], path);
        expect(stopped.message).toMatch(said);
        expect(stopped.message).not.toContain('nothing was sent');
        expect(stopped.sentOnce).toBe(true);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );

  test('an upload being sent: exit 130 and one document', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mediagw-signal-upload-'));
    const file = join(dir, 'big.png');
    // A real PNG followed by 12 MiB: more than the socket buffers hold, so the body is still going out.
    const png = Buffer.concat([pngImage({ seed: 7 }), Buffer.alloc(12 * 1024 * 1024)]);
    writeFileSync(file, png);
    let received = 0;
    // A receiver that takes the request and then reads nothing more.
    const stalled: Server = createServer((req) => {
      received++;
      req.pause();
    });
    await new Promise<void>((resolve) => stalled.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(stalled.address() as AddressInfo).port}`;
      const run = start(['uploads', 'create', file, '--json'], {
        env: { MEDIAGW_API_KEY: 'mgw_test_upload', MEDIAGW_BASE_URL: url },
      });
      await until(() => received > 0, 'the upload to start');
      run.child.kill('SIGINT');
      const result = await run.result;
      expect(result.code).toBe(130);
      const { error } = oneDocument(result);
      expect(error).toMatchObject({ exit_code: 130, signal: 'SIGINT' });
      expect(String(error.message)).toContain(`upload of ${file}`);
    } finally {
      stalled.closeAllConnections();
      await new Promise((resolve) => stalled.close(resolve));
    }
  });
});
