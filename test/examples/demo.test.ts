// Covers: examples/: the demo against the mock gateway
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { mp4Video } from '../../src/testing/index.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const CHILD_TIMEOUT_MS = 60_000;

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  stdout: string;
  stderr: string;
}

/** Runs examples/demo.ts the way `npm run demo` does (through tsx), killing it if it hangs. */
function runDemo(outDir: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'examples/demo.ts', outDir], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, CHILD_TIMEOUT_MS);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, timedOut, stdout, stderr });
    });
  });
}

let outDir: string;

beforeEach(async () => {
  outDir = await mkdtemp(join(tmpdir(), 'mediagw-demo-'));
});
afterEach(async () => {
  await rm(outDir, { recursive: true, force: true });
});

describe('demo', () => {
  test(
    'npm run demo exits 0, writes its images and videos to the given folder and waits by webhook',
    async () => {
      const run = await runDemo(outDir);
      const output = `stdout:\n${run.stdout}\nstderr:\n${run.stderr}`;
      expect(run.timedOut, output).toBe(false);
      expect(run.code, output).toBe(0);
      expect(run.stdout).toContain(`Files are in ${outDir}`);

      for (const name of ['generated.png', 'edited.png', 'last-frame.png']) {
        const bytes = await readFile(join(outDir, name));
        expect(bytes.length, name).toBeGreaterThan(0);
        expect(bytes.subarray(0, 8), name).toEqual(PNG_MAGIC);
      }
      for (const name of ['video.mp4', 'video-by-event.mp4']) {
        expect(await readFile(join(outDir, name)), name).toEqual(mp4Video());
      }

      // The generated image, byte for byte as saved, is the first reference of the edit.
      const edit =
        /edited with two reference files, generated\.png \((\d+) bytes\) then palette\.png \(\d+ bytes\), sent as image\[\]/.exec(
          run.stdout,
        );
      expect(edit, run.stdout).not.toBeNull();
      expect(Number(edit?.[1])).toBe((await readFile(join(outDir, 'generated.png'))).length);
      expect(run.stdout).toContain('the wait ended on the webhook event');
      expect(run.stdout).not.toContain('the wait ended by polling');
    },
    CHILD_TIMEOUT_MS + 30_000,
  );
});
