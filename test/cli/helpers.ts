/**
 * Runs the built `mediagw` binary as a user would: a child process with its own environment,
 * against the mock gateway over loopback. The binary is built once (npx tsup) when dist/ is
 * missing or older than the sources; parallel test files share one build through a lock folder.
 */

import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

export const root = fileURLToPath(new URL('../../', import.meta.url));
export const BIN = join(root, 'dist/cli/bin.js');
export const MOCK_BIN = join(root, 'dist/cli/mock-bin.js');

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs);
  }
  return newest;
}

function fresh(): boolean {
  if (!existsSync(BIN) || !existsSync(join(root, 'dist/index.js'))) return false;
  const built = Math.min(statSync(BIN).mtimeMs, statSync(join(root, 'dist/index.js')).mtimeMs);
  return built >= Math.max(newestSource(join(root, 'src')), statSync(join(root, 'tsup.config.ts')).mtimeMs);
}

/** Builds dist/ unless it is up to date. Call from `beforeAll` with a long timeout. */
export async function ensureBuilt(): Promise<void> {
  const lock = join(root, 'dist/.cli-test-build');
  for (let i = 0; i < 1800; i++) {
    if (fresh()) return;
    mkdirSync(join(root, 'dist'), { recursive: true });
    let owner = false;
    try {
      mkdirSync(lock);
      owner = true;
    } catch {
      // Another test file is building: wait for it (bounded).
      await new Promise((resolve) => setTimeout(resolve, 100));
      continue;
    }
    try {
      const result = spawnSync('npx', ['tsup'], { cwd: root, encoding: 'utf8', timeout: 170_000 });
      if (result.status !== 0) throw new Error(`npx tsup failed:\n${result.stdout}${result.stderr}`);
      return;
    } finally {
      if (owner) rmSync(lock, { recursive: true, force: true });
    }
  }
  throw new Error('dist/ was not built in time');
}

/** What a finished run printed and how it ended. */
export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** The one JSON document a `--json` run printed on stdout; fails when there is none or more than one. */
export function oneDocument(result: CliResult): { error: Record<string, unknown> } {
  const lines = result.stdout.split('\n').filter((l) => l.trim() !== '');
  expect(lines, `stdout: ${result.stdout}\nstderr: ${result.stderr}`).toHaveLength(1);
  return JSON.parse(lines[0] ?? '');
}

/** Options of a run: extra environment (merged over a clean one) and stdin text. */
export interface RunOptions {
  env?: Record<string, string | undefined>;
  input?: string | Buffer;
  cwd?: string;
  timeoutMs?: number;
}

/** A clean environment: no key, no base URL, no colours, nothing from the developer's shell. */
export function cleanEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1' };
  for (const [k, v] of Object.entries(extra)) if (v !== undefined) env[k] = v;
  return env;
}

/** Starts the binary and returns the child and a promise of its result. */
export function start(args: string[], options: RunOptions = {}, bin = BIN) {
  const child = spawn(process.execPath, [bin, ...args], {
    cwd: options.cwd ?? root,
    env: cleanEnv(options.env),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  child.stdin.end(options.input ?? '');
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 30_000);
  const result = new Promise<CliResult>((resolve) =>
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    }),
  );
  return {
    child,
    result,
    output: () => stdout + stderr,
    stdout: () => stdout,
  };
}

/** Runs the binary to its end. */
export function run(args: string[], options: RunOptions = {}): Promise<CliResult> {
  return start(args, options).result;
}

/** Waits (bounded) until `check()` holds. */
export async function until(check: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Sends `signal` to the child and waits for it to close. */
export function stop(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): void {
  if (child.exitCode === null && child.signalCode === null) child.kill(signal);
}
