// Covers: src/cli/commands/images.ts, src/cli/commands/videos.ts, src/cli/commands/library.ts, src/cli/commands/embeddings.ts
/**
 * The request commands end to end: the built binary against the mock gateway over loopback,
 * with results parsed back from --json and files checked on disk.
 */
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type MockGateway, pngImage, startMockGateway } from '../../src/testing/index.js';
import { ensureBuilt, type RunOptions, run, start, until } from './helpers.js';

let gateway: MockGateway;
const dir = mkdtempSync(join(tmpdir(), 'mediagw-cli-requests-'));

beforeAll(async () => {
  await ensureBuilt();
  // Fast mock time: a video takes 10 mock seconds, 50 ms here.
  gateway = await startMockGateway({ speed: 200 });
}, 180_000);
afterAll(() => gateway?.close());

const env = (): Record<string, string> => ({
  MEDIAGW_API_KEY: gateway.apiKey,
  MEDIAGW_BASE_URL: gateway.url,
});
const cli = (args: string[], options: RunOptions = {}) => run(args, { env: env(), ...options });
const json = (stdout: string) => JSON.parse(stdout.trim());
const FAST = ['--poll-interval', '20'];
/** `videos create` of a 5 s mini video with this prompt, then `flags`. */
const miniVideo = (prompt: string, ...flags: string[]) => [
  'videos',
  'create',
  '-m',
  'vidmodel-2.0-mini',
  '-p',
  prompt,
  '-d',
  '5',
  ...flags,
];

describe('images', () => {
  test('generate --output saves a real PNG; --json prints the answer with the saved path', async () => {
    const out = join(dir, 'crane.png');
    const { code, stdout, stderr } = await cli([
      'images',
      'generate',
      '-m',
      'imgmodel-2',
      '-p',
      'a paper crane',
      '--output',
      out,
      '--json',
    ]);
    expect(code).toBe(0);
    const doc = json(stdout);
    expect(doc.data[0].url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    expect(doc.saved).toEqual([out]);
    expect(readFileSync(out).subarray(1, 4).toString()).toBe('PNG');
    expect(stderr).toMatch(/saved crane\.png \(\d+(\.\d)? KB in [\d.]+ s, .+\/s\)/);
  });

  test('generate --wait submits a task, waits and prints it; progress goes to stderr only', async () => {
    const { code, stdout, stderr } = await cli([
      'images',
      'generate',
      '-m',
      'imgmodel-2',
      '-p',
      'a crane',
      '--wait',
      ...FAST,
      '--json',
    ]);
    expect(code).toBe(0);
    const task = json(stdout);
    expect(task).toMatchObject({ state: 'succeeded', images: [{ url: expect.any(String) }] });
    expect(stderr).toMatch(new RegExp(`task ${task.task_id}: succeeded 100%`));
    // The task ID is said before the wait, as videos create --wait says it.
    expect(stderr).toContain(`submitted task ${task.task_id}`);
    expect(stdout.trim().split('\n')).toHaveLength(1);
  });

  test('--async prints the task ID and the command that waits for it; tasks wait resumes it', async () => {
    const submitted = await cli(['images', 'generate', '-m', 'imgmodel-2', '-p', 'a crane', '--async']);
    expect(submitted.code).toBe(0);
    const id = /submitted task (\S+)/.exec(submitted.stdout)?.[1] ?? '';
    expect(submitted.stdout).toContain(`wait for it: mediagw tasks wait ${id} --model imgmodel-2`);
    const out = join(dir, 'waited.png');
    const waited = await cli(['tasks', 'wait', id, '--model', 'imgmodel-2', ...FAST, '--output', out]);
    expect(waited.code).toBe(0);
    expect(waited.stdout).toMatch(/status\s+succeeded/);
    expect(readFileSync(out).subarray(1, 4).toString()).toBe('PNG');
  });

  test('edit sends the files as multipart and saves the result', async () => {
    const source = join(dir, 'source.png');
    writeFileSync(source, pngImage({ seed: 3 }));
    const out = join(dir, 'edited.png');
    const { code } = await cli([
      'images',
      'edit',
      '-m',
      'imgmodel-2',
      '-i',
      source,
      '-p',
      'make it snow',
      '-o',
      out,
    ]);
    expect(code).toBe(0);
    expect(readFileSync(out).subarray(1, 4).toString()).toBe('PNG');
    const request = gateway.requests.findLast((r) => r.path === '/v1/images/edits');
    expect(request?.parts?.map((p) => p.name)).toEqual(expect.arrayContaining(['image', 'prompt', 'model']));
  });

  test('a request the SDK refuses is never sent: exit 1 with each broken rule', async () => {
    const before = gateway.requests.length;
    const { code, stderr } = await cli(['images', 'generate', '-m', 'imgmodel-9', '-p', '']);
    expect(code).toBe(1);
    expect(stderr).toMatch(/model: must be one of/);
    expect(gateway.requests.length).toBe(before);
  });
});

describe('videos and tasks', () => {
  test('create --output waits, then streams the video to disk', async () => {
    const out = join(dir, 'kite.mp4');
    const { code, stdout, stderr } = await cli([
      'videos',
      'create',
      '-m',
      'vidmodel-2.0-mini',
      '-p',
      'a red kite',
      '-d',
      '5',
      '--output',
      out,
      ...FAST,
      '--json',
    ]);
    expect(code).toBe(0);
    const task = json(stdout);
    expect(task).toMatchObject({ status: 'completed', saved: [out] });
    expect(readFileSync(out).subarray(4, 8).toString()).toBe('ftyp');
    expect(stderr).toContain(`submitted task ${task.id}`);
    expect(stderr).toMatch(/saved kite\.mp4/);
  });

  test('body from --file with flags laid over it', async () => {
    const request = join(dir, 'video.json');
    writeFileSync(
      request,
      JSON.stringify({ model: 'vidmodel-2.0-mini', prompt: 'from the file', duration: 5 }),
    );
    const { code, stdout } = await cli(['videos', 'create', '-f', request, '-p', 'from the flag', '--json']);
    expect(code).toBe(0);
    expect(json(stdout)).toMatchObject({
      task_id: expect.stringMatching(/^cgt-/),
      status: expect.any(String),
    });
    const sent = gateway.requests.findLast((r) => r.path === '/v1/videos/generations');
    expect(sent?.body).toMatchObject({ prompt: 'from the flag', duration: 5 });
  });

  test('a failed task: exit 3, and --json prints one error document with the task', async () => {
    const { code, stdout } = await cli([
      'videos',
      'create',
      '-m',
      'vidmodel-2.0-mini',
      '-p',
      'mock:fail',
      '-d',
      '5',
      '--wait',
      ...FAST,
      '--json',
    ]);
    expect(code).toBe(3);
    const { error } = json(stdout);
    expect(error).toMatchObject({
      type: 'TaskFailedError',
      exit_code: 3,
      code: 'task_failed',
      task: { status: 'failed' },
    });
    const human = await cli([
      'videos',
      'create',
      '-m',
      'vidmodel-2.0-mini',
      '-p',
      'mock:fail',
      '-d',
      '5',
      '--wait',
      ...FAST,
    ]);
    expect(human.code).toBe(3);
    expect(human.stderr).toMatch(/error: Task cgt-\S+ failed \(task_failed\)/);
  });

  test('tasks get shows a task once', async () => {
    const task = gateway.tasks.create({ account: 'acct_1', kind: 'video', model: 'vidmodel-2.5' });
    const { code, stdout } = await cli(['tasks', 'get', task.id, '--json']);
    expect(code).toBe(0);
    expect(json(stdout)).toMatchObject({
      id: task.id,
      status: expect.stringMatching(/queued|in_progress|completed/),
    });
  });

  test.each([
    ['--timeout', '-5', /--timeout must be from 0\.001 to 2147483\.647, got -5/],
    ['--timeout', '9999999', /--timeout must be from 0\.001 to 2147483\.647, got 9999999/],
    ['--poll-interval', '0', /--poll-interval must be from 1 to 2147483647, got 0/],
  ])(
    'a wait flag %s %s it could not run: usage error, and nothing submitted',
    async (flag, value, message) => {
      const submissions = () => gateway.requests.filter((r) => r.method === 'POST').length;
      const before = submissions();
      const { code, stderr } = await cli(miniVideo('a kite', '--wait', flag, value));
      expect(code).toBe(1);
      expect(stderr).toMatch(message);
      expect(submissions()).toBe(before);
    },
  );

  test.each([
    [
      ['videos', 'create', '-m', 'vidmodel-2.0-mini', '-p', 'a kite', '-d', '5', '--timeout', '5'],
      '--timeout',
    ],
    [
      ['videos', 'create', '-m', 'vidmodel-2.0-mini', '-p', 'a kite', '-d', '5', '--poll-interval', '20'],
      '--poll-interval',
    ],
    [['images', 'generate', '-m', 'imgmodel-2', '-p', 'a kite', '--async', '--timeout', '5'], '--timeout'],
    [['images', 'generate', '-m', 'imgmodel-2', '-p', 'a kite', '--timeout', '5'], '--timeout'],
    [
      [
        'library',
        'assets',
        'submit',
        '--type',
        'Image',
        '--url',
        'https://example.com/a.png',
        '--timeout',
        '5',
      ],
      '--timeout',
    ],
  ])(
    '%j: a wait flag on a run that does not wait is refused, naming it, and nothing is sent',
    async (args, flag) => {
      const before = gateway.requests.length;
      const { code, stderr } = await cli(args);
      expect(code).toBe(1);
      expect(stderr).toContain(
        `${flag} shapes a wait, and this run does not wait: add --wait, or drop ${flag}`,
      );
      expect(gateway.requests.length).toBe(before);
    },
  );

  test('the same flags with a wait they shape are taken: --output waits for the video', async () => {
    const out = join(dir, 'timed.mp4');
    const { code } = await cli(miniVideo('a timed kite', '--output', out, '--timeout', '120', ...FAST));
    expect(code).toBe(0);
    expect(statSync(out).size).toBeGreaterThan(0);
  });

  test('a deadline that passes: exit 4, the task goes on, the resume command is printed', async () => {
    const { code, stderr } = await cli(miniVideo('mock:slow', '--wait', '--timeout', '0.2', ...FAST));
    expect(code).toBe(4);
    expect(stderr).toMatch(/Resume with: mediagw tasks wait cgt-\S+/);
  });

  test('Ctrl+C during a wait: exit 130, the resume hint, and nothing cancelled or resubmitted', async () => {
    const slow = await startMockGateway({ speed: 1 });
    try {
      const run = start(
        ['videos', 'create', '-m', 'vidmodel-2.0-mini', '-p', 'a slow kite', '-d', '5', '--wait', ...FAST],
        {
          env: { MEDIAGW_API_KEY: slow.apiKey, MEDIAGW_BASE_URL: slow.url },
        },
      );
      await until(() => /task cgt-\S+: queued/.test(run.output()), 'the wait to start');
      run.child.kill('SIGINT');
      const { code, stderr } = await run.result;
      expect(code).toBe(130);
      const id = /submitted task (\S+)/.exec(stderr)?.[1] ?? '';
      expect(stderr).toContain(
        `Stopped waiting for task ${id}. It goes on: nothing was cancelled or resubmitted.`,
      );
      expect(stderr).toContain(`Resume with: mediagw tasks wait ${id}`);
      const wire = slow.requests.map((r) => `${r.method} ${r.path}`);
      expect(wire.filter((w) => w === 'POST /v1/videos/generations')).toHaveLength(1);
      expect(wire.filter((w) => w.startsWith('DELETE') || w.includes('cancel'))).toEqual([]);
      expect(slow.tasks.list({ account: 'acct_1' })).toHaveLength(1);
    } finally {
      await slow.close();
    }
  });
});

describe('gateway refusals and ambiguous submissions', () => {
  test('a 404: exit 2 with the request ID', async () => {
    const { code, stderr } = await cli(['tasks', 'get', 'cgt-unknown']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/404/);
    expect(stderr).toMatch(/request ID: req_\d+/);
  });

  test('a submission whose connection is reset after the body: exit 5, and how to check', async () => {
    gateway.inject({
      match: { path: '/v1/videos/generations' },
      fault: { reset: 'after-body', runHandler: true },
    });
    const { code, stdout } = await cli([
      'videos',
      'create',
      '-m',
      'vidmodel-2.0-mini',
      '-p',
      'x',
      '-d',
      '5',
      '--json',
    ]);
    expect(code).toBe(5);
    const { error } = json(stdout);
    expect(error.type).toBe('AmbiguousSubmissionError');
    expect(error.message).toContain('before submitting again');
  });

  test('the key never appears in the output, even with --verbose and on errors', async () => {
    const results = await Promise.all([
      cli(['--verbose', 'tasks', 'get', 'cgt-unknown']),
      cli(['--verbose', 'embeddings', 'create', '-m', 'bge-m3', '-i', 'hello', '--json']),
      run([
        '--verbose',
        'tasks',
        'get',
        'cgt-1',
        '--api-key',
        'mgw_secret_value_123',
        '--base-url',
        gateway.url,
      ]),
    ]);
    expect(results[0].stderr).toMatch(/GET/);
    for (const r of results) {
      expect(r.stdout + r.stderr).not.toContain(gateway.apiKey);
      expect(r.stdout + r.stderr).not.toContain('mgw_secret_value_123');
    }
    expect(results[2].code).toBe(2);
  });
});

describe('embeddings, uploads and library', () => {
  test('embeddings create: a table for people, the full vectors with --json', async () => {
    const human = await cli(['embeddings', 'create', '-m', 'bge-m3', '-i', 'red kite', '-i', 'paper crane']);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/^index\s+dimensions\s+first values$/m);
    const { stdout } = await cli(['embeddings', 'create', '-m', 'bge-m3', '-i', 'red kite', '--json']);
    expect(json(stdout).data[0].embedding.length).toBeGreaterThan(4);
  });

  test('uploads create prints the URL to use', async () => {
    const file = join(dir, 'upload.png');
    writeFileSync(file, pngImage({ seed: 5 }));
    const { code, stdout } = await cli(['uploads', 'create', file, '--json']);
    expect(code).toBe(0);
    expect(json(stdout)).toMatchObject({ url: expect.stringMatching(/^http/), content_type: 'image/png' });
  });

  test('groups create, list and delete; assets submit --wait and list', async () => {
    const created = json((await cli(['library', 'groups', 'create', '--name', 'spring', '--json'])).stdout);
    expect(created).toMatchObject({ id: expect.any(String), name: 'spring' });
    const list = await cli(['library', 'groups', 'list', '--all', '--json']);
    expect(json(list.stdout).items.map((g: { id: string }) => g.id)).toContain(created.id);

    const review = await cli([
      'library',
      'assets',
      'submit',
      '--group',
      created.id,
      '--type',
      'Image',
      '--url',
      'https://example.com/a.png',
      '--wait',
      ...FAST,
      '--json',
    ]);
    expect(review.code).toBe(0);
    expect(json(review.stdout)).toMatchObject({ status: 'completed', usable_assets: [expect.any(String)] });
    const assets = await cli(['library', 'assets', 'list', '--group', created.id]);
    expect(assets.stdout).toMatch(/^id\s+type\s+status\s+group\s+name$/m);
    expect(assets.stdout).toContain('Active');

    const blocked = await cli(['library', 'groups', 'delete', created.id]);
    expect(blocked.code).toBe(2);
  });
});

describe('what a failure after the submission keeps', () => {
  test.each([
    [
      'a folder that does not exist',
      () => join(dir, 'nowhere', 'k.mp4'),
      /the folder .*nowhere does not exist; create it first \(nothing was sent\)/,
    ],
    ['a folder', () => dir, /is a folder: give the path of a file \(nothing was sent\)/],
    // These passed the check: the video was billed, then not saved (or a raw ENOTDIR).
    [
      'a new folder named with a trailing slash',
      () => `${join(dir, 'new-folder')}/`,
      /is a folder: give the path of a file \(nothing was sent\)/,
    ],
    [
      'a file named as a folder',
      () => {
        writeFileSync(join(dir, 'notes.txt'), 'x');
        return join(dir, 'notes.txt', 'k.mp4');
      },
      /a part of the path is a file, not a folder \(nothing was sent\)/,
    ],
  ])('--output in %s: refused before the video is sent, exit 1', async (_name, output, message) => {
    const before = gateway.requests.length;
    const { code, stderr } = await cli(miniVideo('unsaved', '--output', output()));
    expect(code).toBe(1);
    expect(stderr).toMatch(message);
    expect(gateway.requests.length).toBe(before);
  });

  // The video was billed: a download that fails names the task and the command that saves it.
  test('a video whose download is refused: exit 2, the task ID and the resume command, typed as the SDK error', async () => {
    gateway.inject({ match: { method: 'GET', path: /\/content$/ }, fault: { status: 403 } });
    const { code, stdout } = await cli(
      miniVideo('refused download', '--output', join(dir, 'r.mp4'), '--json', ...FAST),
    );
    expect(code).toBe(2);
    const { error } = json(stdout);
    expect(error).toMatchObject({ type: 'PermissionDeniedError', status: 403, exit_code: 2 });
    expect(error.task_id).toMatch(/^cgt-/);
    expect(error.resume).toContain(`tasks wait ${error.task_id}`);
    expect(error.message).toContain(
      `Task ${error.task_id}: It is done; nothing was cancelled or resubmitted.`,
    );
  });

  // A synchronous answer has no task: the images not saved are named, not lost with the run.
  test('images generate -n 2 whose download is refused: the URLs of the images not saved are in the message', async () => {
    gateway.inject({ match: { method: 'GET', path: '/v1/images/results/' }, fault: { status: 403 } });
    const { code, stdout } = await cli([
      'images',
      'generate',
      '-m',
      'imgmodel-2',
      '-p',
      'two cranes',
      '-n',
      '2',
      '--output',
      join(dir, 'two.png'),
      '--json',
    ]);
    expect(code).toBe(2);
    const { error } = json(stdout);
    expect(error.type).toBe('PermissionDeniedError');
    expect(error.message).toMatch(
      /\nNot saved: \S+\/v1\/images\/results\/\S+ \S+\/v1\/images\/results\/\S+ \(download with your API key, before they expire\)$/,
    );
  });
});
