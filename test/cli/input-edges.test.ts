// Covers: src/cli/input.ts
/**
 * Input at its edges: --json honoured whatever fails before it is parsed, request files and
 * stdin capped in size however much they hold, and text that is not UTF-8 refused before
 * anything reaches the gateway. Each check reads the mock gateway's request log.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, openSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type MockGateway, startMockGateway } from '../../src/testing/index.js';
import { BIN, type CliResult, cleanEnv, ensureBuilt, oneDocument, run } from './helpers.js';

let gateway: MockGateway;
const dir = mkdtempSync(join(tmpdir(), 'mediagw-cli-input-'));

beforeAll(async () => {
  await ensureBuilt();
  gateway = await startMockGateway({ speed: 200 });
}, 180_000);
afterAll(() => gateway?.close());

const env = () => ({ MEDIAGW_API_KEY: gateway.apiKey, MEDIAGW_BASE_URL: gateway.url });
const sent = () => gateway.requests.length;
const writeFile = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

describe('--json is read before anything can fail', () => {
  test.each([
    [['--max-retries', 'abc', '--json', 'tasks', 'get', 'x'], /--max-retries must be a whole number/],
    [['tasks', 'get', 'x', '--timeout', '5', '--json'], /unknown option '--timeout'/],
    [['--json', '--max-retries', '1.5', 'tasks', 'get', 'x'], /--max-retries must be a whole number/],
  ])('%j: one error document on stdout, exit 1', async (args, message) => {
    const before = sent();
    const result = await run(args, { env: env() });
    expect(result.code).toBe(1);
    const { error } = oneDocument(result);
    expect(error.exit_code).toBe(1);
    expect(error.message).toMatch(message);
    expect(sent()).toBe(before);
  });
});

describe('request files and stdin are capped', () => {
  test('--file /dev/zero is refused at 32 MiB, and nothing is sent', async () => {
    const before = sent();
    const result = await run(['videos', 'create', '--file', '/dev/zero', '--json'], { env: env() });
    expect(result.code).toBe(1);
    expect(oneDocument(result).error.message).toBe(
      '/dev/zero holds more than 32 MiB (the most a request file may hold): nothing was sent',
    );
    expect(sent()).toBe(before);
  });

  test.each([
    ['a missing file', () => join(dir, 'missing.json'), '{} does not exist (ENOENT); nothing was sent'],
    ['a folder', () => dir, '{} is a folder, not a file (EISDIR); nothing was sent'],
    [
      'an empty file',
      () => writeFile('empty.json', ''),
      '{} is empty: it must hold the request as JSON; nothing was sent',
    ],
    [
      'blank lines only',
      () => writeFile('blank.json', '\n \n'),
      '{} is empty: it must hold the request as JSON; nothing was sent',
    ],
  ])(
    '--file naming %s: the message says what is wrong in words, and nothing is sent',
    async (_name, path, message) => {
      const file = path();
      const before = sent();
      const result = await run(['videos', 'create', '--file', file, '--json'], { env: env() });
      expect(result.code).toBe(1);
      expect(oneDocument(result).error.message).toBe(message.replace('{}', file));
      expect(sent()).toBe(before);
    },
  );

  test('an endless stdin (-f -) is refused at 32 MiB, and nothing is sent', async () => {
    const before = sent();
    const child = spawn(process.execPath, [BIN, 'videos', 'create', '-f', '-', '--json'], {
      env: cleanEnv(env()),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.stdin.on('error', () => undefined); // EPIPE once the command stops reading
    const closed = new Promise<CliResult>((resolve) =>
      child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })),
    );
    // A writer that would go on for 256 MiB, and stops as soon as the command is gone.
    const chunk = Buffer.alloc(1024 * 1024, 0x20);
    let written = 0;
    let gone = false;
    void closed.then(() => (gone = true));
    while (!gone && written < 256) {
      if (!child.stdin.write(chunk))
        await new Promise((resolve) => {
          child.stdin.once('drain', resolve);
          void closed.then(resolve);
        });
      written++;
    }
    child.stdin.destroy();
    const result = await closed;
    expect(result.code).toBe(1);
    expect(oneDocument(result).error.message).toBe(
      'stdin holds more than 32 MiB (the most a request file may hold): nothing was sent',
    );
    expect(written).toBeLessThan(256);
    expect(sent()).toBe(before);
  });
});

describe('stdin that is a folder', () => {
  // `-f - < folder` read as an empty stdin: "stdin is empty".
  test('is named a folder, and nothing is sent', async () => {
    const before = sent();
    const child = spawn(process.execPath, [BIN, 'videos', 'create', '-f', '-'], {
      env: cleanEnv(env()),
      stdio: [openSync(tmpdir(), 'r'), 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(1);
    expect(stderr).toContain('stdin is a folder: give the request file, or pipe its text; nothing was sent');
    expect(sent()).toBe(before);
  });
});

describe('text that is not UTF-8 is refused before sending', () => {
  test('a request file in Latin-1: exit 1 naming the file and the byte, nothing sent', async () => {
    const path = join(dir, 'latin1.json');
    writeFileSync(
      path,
      Buffer.from('{"model":"vidmodel-2.0-mini","prompt":"café au lait","duration":5}', 'latin1'),
    );
    const before = sent();
    const result = await run(['videos', 'create', '-f', path], { env: env() });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`${path} is not valid UTF-8 (byte 42 is not)`);
    expect(sent()).toBe(before);
  });

  test('stdin in Latin-1 is refused too', async () => {
    const before = sent();
    const result = await run(['videos', 'create', '-f', '-', '--json'], {
      env: env(),
      input: Buffer.from('{"model":"vidmodel-2.0-mini","prompt":"café","duration":5}', 'latin1'),
    });
    expect(result.code).toBe(1);
    expect(oneDocument(result).error.message).toMatch(/^stdin is not valid UTF-8/);
    expect(sent()).toBe(before);
  });

  test.each([
    [
      '-p',
      ['videos', 'create', '-m', 'vidmodel-2.0-mini', '-d', '5', '-p', 'caf\uFFFD au lait'],
      /prompt \(given on the command line\) holds U\+FFFD/,
    ],
    [
      '--body',
      ['videos', 'create', '--body', '{"model":"vidmodel-2.0-mini","duration":5,"prompt":"caf\uFFFD"}'],
      /--body holds U\+FFFD/,
    ],
    [
      '--client-reference-id',
      [
        'images',
        'generate',
        '-m',
        'imgmodel-2',
        '-p',
        'a crane',
        '--async',
        '--client-reference-id',
        'caf\uFFFD',
      ],
      /--client-reference-id holds U\+FFFD/,
    ],
    [
      '--url',
      ['library', 'assets', 'submit', '--type', 'Image', '--url', 'https://example.com/caf\uFFFD.png'],
      /assets \(given on the command line\) holds U\+FFFD/,
    ],
  ])(
    '%s holding the character Node puts for bytes that are not UTF-8: refused, nothing sent',
    async (_flag, args, message) => {
      const before = sent();
      const result = await run(args, { env: env() });
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(message);
      expect(sent()).toBe(before);
    },
  );

  test('the same request in UTF-8 is sent as written', async () => {
    const path = join(dir, 'utf8.json');
    writeFileSync(path, '{"model":"vidmodel-2.0-mini","prompt":"café au lait","duration":5}');
    const result = await run(['videos', 'create', '-f', path, '--json'], { env: env() });
    expect(result.code).toBe(0);
    const request = gateway.requests.findLast((r) => r.path === '/v1/videos/generations');
    expect(request?.body).toMatchObject({ prompt: 'café au lait' });
  });
});
