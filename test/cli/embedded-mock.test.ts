// Covers: src/cli/commands/mock.ts, src/cli/mock-bin.ts
/**
 * `mediagw --mock`: the command starts the embedded mock gateway in its own process and talks
 * to it over loopback, waiting at the mock's pace rather than the spec's.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { ensureBuilt, run } from './helpers.js';

beforeAll(ensureBuilt, 180_000);

describe('mediagw --mock', () => {
  // The video was submitted, billed and waited for, and only then was the frame refused (404).
  test('--last-frame without return_last_frame is refused before sending; with it, the frame is saved', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mediagw-last-frame-'));
    try {
      const args = ['--mock', 'videos', 'create', '-m', 'vidmodel-2.0-mini', '-p', 'kite', '-d', '5'];
      const refused = await run([...args, '--last-frame', join(dir, 'no.png'), '--verbose']);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('--last-frame needs a request that asks for the frame');
      expect(refused.stderr).not.toContain('POST /v1/videos');
      const saved = await run(
        [...args, '--body', '{"return_last_frame":true}', '--last-frame', join(dir, 'last.png')],
        { timeoutMs: 60_000 },
      );
      expect(saved.code, saved.stderr).toBe(0);
      expect(readdirSync(dir)).toEqual(['last.png']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('videos create --wait polls at the mock clock, so a task is seen moving, then done', async () => {
    const { code, stdout, stderr } = await run([
      '--mock',
      '--verbose',
      'videos',
      'create',
      '-m',
      'vidmodel-2.0-mini',
      '-p',
      'a crane over a lake',
      '--wait',
    ]);
    expect(code, stderr).toBe(0);
    expect(stdout).toMatch(/status\s+completed/);
    const id = /submitted task (\S+)/.exec(stderr)?.[1];
    expect(id).toBeTruthy();
    const queries = stderr
      .split('\n')
      .filter((line) => line.startsWith(`→ GET `) && line.endsWith(`/v1/videos/${id}`));
    // The mock's 10 s task takes about 1 s at its speed of 10. Waiting at the spec's pace for
    // mini (3-5 s) would query twice: once at once, once after the task ended. At the mock's
    // pace (3-5 mock seconds, 0.3-0.5 s) the wait queries while the task still runs.
    expect(queries.length).toBeGreaterThanOrEqual(3);
    expect(stderr).toMatch(new RegExp(`task ${id}: in_progress`));
  });
});
