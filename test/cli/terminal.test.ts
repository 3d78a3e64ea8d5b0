// Covers: src/cli/progress.ts, src/cli/output.ts
/**
 * On a terminal: colours, and progress bars that redraw in place (status, percent, elapsed
 * time, deadline; bytes and rate). The binary runs under `script`, which gives it a pseudo
 * terminal; where `script` is missing the test is skipped.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type MockGateway, startMockGateway } from '../../src/testing/index.js';
import { BIN, cleanEnv, ensureBuilt } from './helpers.js';

const hasScript = spawnSync('script', ['--version'], { encoding: 'utf8' }).status === 0;
let gateway: MockGateway;
const dir = mkdtempSync(join(tmpdir(), 'mediagw-cli-tty-'));

beforeAll(async () => {
  await ensureBuilt();
  gateway = await startMockGateway({ speed: 20 });
}, 180_000);
afterAll(() => gateway?.close());

/**
 * Runs the binary on a pseudo terminal and returns everything it drew. Asynchronous: the mock
 * gateway answering it runs in this process.
 */
async function onTerminal(args: string[], env: Record<string, string> = {}): Promise<string> {
  const quoted = [process.execPath, BIN, ...args].map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(' ');
  const vars = cleanEnv({
    MEDIAGW_API_KEY: gateway.apiKey,
    MEDIAGW_BASE_URL: gateway.url,
    TERM: 'xterm-256color',
    ...env,
  });
  if (!env.NO_COLOR) delete vars.NO_COLOR;
  const child = spawn('script', ['-q', '-e', '-c', quoted, '/dev/null'], {
    env: vars,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let drawn = '';
  child.stdout.on('data', (c: Buffer) => {
    drawn += c.toString();
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  clearTimeout(timer);
  expect(code).toBe(0);
  return drawn;
}

const ESC = String.fromCharCode(27);
const plain = (text: string) => text.replace(new RegExp(`${ESC}\\[[0-9;?]*[A-Za-z]|${ESC}[78]`, 'g'), '');

describe.skipIf(!hasScript)('on a terminal', () => {
  test('--wait draws a bar with the status, percent, elapsed time and deadline; --output one with bytes and rate', async () => {
    const out = join(dir, 'kite.mp4');
    const drawn = await onTerminal([
      'videos',
      'create',
      '-m',
      'vidmodel-2.0-mini',
      '-p',
      'a kite',
      '-d',
      '5',
      '--output',
      out,
      '--poll-interval',
      '50',
      '--timeout',
      '120',
    ]);
    // Each redraw starts with a move to the first column (cursorTo): one frame per redraw.
    const frames = drawn.split(new RegExp(`${ESC}\\[\\d*G|\r|\n`)).map(plain);
    expect(
      frames.some((f) =>
        /cgt-\S+ [█░]+ \d+% \| (queued|in_progress) \| \d+s elapsed \| deadline in [12]m\d\ds/.test(f),
      ),
    ).toBe(true);
    expect(frames.some((f) => /cgt-\S+ █+ 100% \| completed \| \d+s elapsed \| deadline in/.test(f))).toBe(
      true,
    );
    expect(frames.some((f) => /kite\.mp4 █+ 4\.0 KB \/ 4\.0 KB \| .+\/s/.test(f))).toBe(true);
    expect(readFileSync(out).subarray(4, 8).toString()).toBe('ftyp');
    // The bar redraws in place rather than printing one line per poll.
    expect(plain(drawn)).not.toMatch(/task cgt-\S+: queued/);
  });

  test('colours on a terminal; none with NO_COLOR', async () => {
    const coloured = await onTerminal(['tasks', 'get', gatewayTask()]);
    expect(coloured).toContain(`${ESC}[`);
    const uncoloured = await onTerminal(['tasks', 'get', gatewayTask()], { NO_COLOR: '1' });
    expect(uncoloured).not.toContain(`${ESC}[`);
  });
});

function gatewayTask(): string {
  return gateway.tasks.create({ account: 'acct_1', kind: 'video', model: 'vidmodel-2.5' }).id;
}
