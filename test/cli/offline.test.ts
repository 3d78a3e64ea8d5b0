// Covers: src/cli/program.ts
/**
 * The commands that need no gateway: --help, --version, validate, estimate. Run with no key
 * and no base URL in the environment, so any request they tried to make would fail.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { VERSION } from '../../src/version.js';
import { ensureBuilt, run } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'mediagw-cli-offline-'));
const file = (name: string, body: unknown) => {
  const path = join(dir, name);
  writeFileSync(path, typeof body === 'string' ? body : JSON.stringify(body));
  return path;
};

beforeAll(ensureBuilt, 180_000);

describe('--version and --help', () => {
  test('--version prints the package version', async () => {
    const { code, stdout } = await run(['--version']);
    expect(code).toBe(0);
    expect(stdout.trim()).toBe(VERSION);
  });

  test.each([
    ['images', 'generate'],
    ['images', 'edit'],
    ['videos', 'create'],
    ['embeddings', 'create'],
    ['uploads', 'create'],
    ['library', 'groups', 'create'],
    ['library', 'groups', 'list'],
    ['library', 'groups', 'get'],
    ['library', 'groups', 'update'],
    ['library', 'groups', 'delete'],
    ['library', 'assets', 'submit'],
    ['library', 'assets', 'list'],
    ['library', 'assets', 'get'],
    ['library', 'assets', 'update'],
    ['library', 'assets', 'delete'],
    ['tasks', 'get'],
    ['tasks', 'wait'],
    ['validate'],
    ['estimate'],
    ['webhooks', 'sign'],
    ['webhooks', 'send'],
    ['mock'],
  ])('mediagw %s %s --help shows usage and an example', async (...command) => {
    const { code, stdout } = await run([...command.filter(Boolean), '--help']);
    expect(code).toBe(0);
    expect(stdout).toContain(`Usage: mediagw ${command.filter(Boolean).join(' ')}`);
    expect(stdout).toMatch(new RegExp(`Examples?:\\n  \\$ mediagw ${command.filter(Boolean).join(' ')}`));
  });

  test('the top-level help documents the exit codes and the environment', async () => {
    const { stdout } = await run(['--help']);
    for (const line of [
      '0    success',
      '3    the task failed',
      '5    a submission',
      '130  interrupted',
      'MEDIAGW_API_KEY',
    ])
      expect(stdout).toContain(line);
  });

  test('an unknown command or flag is a usage error: exit 1', async () => {
    expect((await run(['imagez'])).code).toBe(1);
    const flag = await run(['validate', 'x.json', '--nope']);
    expect(flag.code).toBe(1);
    expect(flag.stderr).toContain("unknown option '--nope'");
    const json = await run(['validate', 'x.json', '--nope', '--json']);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toEqual({
      error: { type: 'UsageError', message: "unknown option '--nope'", exit_code: 1 },
    });
  });

  test('a command that needs the gateway says which flag and variable are missing: exit 1', async () => {
    const { code, stderr } = await run(['tasks', 'get', 'cgt-1']);
    expect(code).toBe(1);
    expect(stderr).toContain('--api-key');
    expect(stderr).toContain('MEDIAGW_API_KEY');
  });
});

describe('mediagw validate', () => {
  const good = file('good.json', { model: 'vidmodel-2.0-mini', prompt: 'a red kite', duration: 5 });
  const bad = file('bad.json', {
    model: 'vidmodel-2.0-mini',
    prompt: '',
    duration: 99,
    image_with_roles: [{ url: 'https://example.com/a.png', role: 'sideways' }],
  });

  test('a valid request: exit 0, one line per file', async () => {
    const { code, stdout } = await run(['validate', good]);
    expect(code).toBe(0);
    expect(stdout).toContain(`✓ ${good} (videos.create)`);
  });

  test('every broken rule is listed with its field path: exit 1', async () => {
    const { code, stdout } = await run(['validate', good, bad]);
    expect(code).toBe(1);
    expect(stdout).toContain(`✗ ${bad} (videos.create)`);
    expect(stdout).toMatch(/^ {4}prompt: .+/m);
    expect(stdout).toMatch(/^ {4}duration: .*4 to 15/m);
  });

  test('--json prints one document per file, parsed back', async () => {
    const { code, stdout } = await run(['validate', good, bad, '--json']);
    expect(code).toBe(1);
    const docs = stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(docs).toHaveLength(2);
    expect(docs[0]).toEqual({ file: good, operation: 'videos.create', valid: true, issues: [] });
    expect(docs[1].valid).toBe(false);
    expect(docs[1].issues.map((i: { path: string }) => i.path)).toEqual(
      expect.arrayContaining(['prompt', 'duration']),
    );
    for (const issue of docs[1].issues) expect(issue.message).toEqual(expect.any(String));
  });

  test('--as names the operation when the model does not say', async () => {
    const group = file('group.json', { name: '' });
    expect((await run(['validate', group])).stderr).toContain('pass --as');
    const { code, stdout } = await run(['validate', group, '--as', 'library.groups.create', '--json']);
    expect(code).toBe(1);
    expect(JSON.parse(stdout).issues[0].path).toBe('name');
  });

  test('a file that is not JSON is a usage error naming the file', async () => {
    const broken = file('broken.json', '{"model":');
    const { code, stderr } = await run(['validate', broken]);
    expect(code).toBe(1);
    expect(stderr).toContain(`${broken} is not valid JSON`);
  });
});

describe('mediagw estimate', () => {
  test('the reservation of a request, with hints and a price', async () => {
    const request = file('estimate.json', {
      model: 'vidmodel-2.0-mini',
      prompt: 'x',
      duration: 6,
      video_urls: ['https://example.com/a.mp4'],
    });
    const { code, stdout } = await run([
      'estimate',
      request,
      '--video-duration',
      '3.2',
      '--price',
      '720P-input=0.1',
      '--json',
    ]);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({
      model: 'vidmodel-2.0-mini',
      seconds: 10,
      tier: '720P-input',
      billableSeconds: { generated: 6, referenceVideo: 4 },
      cost: 1,
    });
    const human = await run(['estimate', request]);
    expect(human.stdout).toMatch(/reserves\s+21 s at tier 720P-input/);
    expect(human.stdout).toContain('note: reference video durations unknown');
  });

  test('an invalid request: exit 1 with the broken rules', async () => {
    const request = file('estimate-bad.json', { model: 'vidmodel-2.0-mini', prompt: 'x', duration: 99 });
    const { code, stderr } = await run(['estimate', request]);
    expect(code).toBe(1);
    expect(stderr).toMatch(/duration: .*4 to 15/);
  });
});
