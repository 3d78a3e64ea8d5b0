// Covers: src/jobs/manifest.ts
/**
 * The manifest reader and `planJobs`: every bad line by number and id with field paths, ids of
 * 1-128 printable characters used once, known operations, the body's own rules, and totals.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { planJobs, readJobs } from '../../src/jobs/index.js';
import { scratch } from './helpers.js';

let dir: string;
let remove: () => void;
beforeEach(() => {
  ({ dir, remove } = scratch());
});
afterEach(() => remove());

const video = (id: unknown, extra: Record<string, unknown> = {}) => ({
  id,
  operation: 'videos.create',
  body: { model: 'vidmodel-2.0-mini', prompt: 'a kite', duration: 5, ...extra },
});

function manifest(lines: Array<unknown | string>): string {
  const path = join(dir, 'm.jsonl');
  writeFileSync(path, `${lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n')}\n`);
  return path;
}

describe('planJobs', () => {
  it('reports each bad line by number and id, with field paths, and keeps counting the good ones', async () => {
    const path = manifest([
      video('a'),
      '',
      '{"id": "b", "operation": ',
      video('a'),
      { id: 'c', operation: 'videos.delete', body: {} },
      video('d', { duration: 99 }),
      video(''),
      video('x'.repeat(129)),
      video('tab\there'),
      video('../escape'),
      { id: 'e', operation: 'images.generate', body: { model: 'imgmodel-2', prompt: 'p' }, extra: 1 },
      { id: 'f', operation: 'embeddings.create', body: { model: 'bge-m3', input: ['text'] } },
      { id: 'g', operation: 'images.generateAsync', body: [] },
      [],
    ]);
    const plan = await planJobs(path);
    expect(plan.valid).toBe(false);
    expect(plan.jobs).toBe(2);
    expect(plan.lines).toBe(13);
    const bad = Object.fromEntries(
      plan.invalid.map((l) => [l.line, { id: l.id, paths: l.issues.map((i) => i.path) }]),
    );
    expect(bad).toEqual({
      3: { id: undefined, paths: [''] },
      4: { id: 'a', paths: ['id'] },
      5: { id: 'c', paths: ['operation'] },
      6: { id: 'd', paths: ['body.duration'] },
      7: { id: '', paths: ['id'] },
      8: { id: 'x'.repeat(129), paths: ['id'] },
      9: { id: 'tab\there', paths: ['id'] },
      10: { id: '../escape', paths: ['id'] },
      11: { id: 'e', paths: ['extra'] },
      13: { id: 'g', paths: ['body'] },
      14: { id: undefined, paths: [''] },
    });
    expect(plan.invalid.find((l) => l.line === 4)?.issues[0]?.message).toContain('line 1');
    expect(plan.invalid.find((l) => l.line === 3)?.issues[0]?.message).toMatch(/not valid JSON/);
  });

  // 128 characters of two or four bytes each make a file name past 255 bytes: the job was sent,
  // then its output could never be saved.
  it.each([
    [202, false, 'é'.repeat(101)],
    [204, false, '🎬'.repeat(51)],
    [200, true, 'é'.repeat(100)],
    [128, true, 'x'.repeat(128)],
  ])('an id of %i bytes in UTF-8: valid %s', async (bytes, valid, id) => {
    const plan = await planJobs(manifest([video(id)]));
    expect(plan.valid).toBe(valid);
    if (!valid)
      expect(plan.invalid[0]?.issues).toEqual([
        {
          path: 'id',
          message: `must be at most 200 bytes in UTF-8 (it names the output files), got ${bytes}`,
        },
      ]);
  });

  it('totals jobs per operation and reserved seconds per model and tier', async () => {
    const path = manifest([
      video('v1'),
      video('v2', { duration: 10 }),
      {
        id: 'v3',
        operation: 'videos.create',
        body: { model: 'vidmodel-2.5', prompt: 'a lighthouse', duration: 5 },
      },
      { id: 'i1', operation: 'images.generate', body: { model: 'imgmodel-2', prompt: 'p' } },
      { id: 'é-ü 1', operation: 'embeddings.create', body: { model: 'bge-m3', input: ['t'] } },
    ]);
    const plan = await planJobs(path);
    expect(plan.valid).toBe(true);
    expect(plan.operations).toEqual({ 'videos.create': 3, 'images.generate': 1, 'embeddings.create': 1 });
    const mini = plan.reserved.filter((r) => r.model === 'vidmodel-2.0-mini');
    expect(mini.reduce((n, r) => n + r.seconds, 0)).toBe(15);
    expect(mini.reduce((n, r) => n + r.jobs, 0)).toBe(2);
    expect(plan.reserved.some((r) => r.model === 'vidmodel-2.5')).toBe(true);
    expect(plan.reservedSeconds).toBe(plan.reserved.reduce((n, r) => n + r.seconds, 0));
  });

  it('refuses two jobs sent with the same client_reference_id: their events could not be told apart', async () => {
    const path = manifest([
      video('a', { client_reference_id: 'ref' }),
      video('b', { client_reference_id: 'ref' }),
    ]);
    const plan = await planJobs(path);
    expect(plan.invalid).toEqual([
      { line: 2, id: 'b', issues: [expect.objectContaining({ path: 'body.client_reference_id' })] },
    ]);
  });

  it('refuses ids that would share output names: kite (kite-1, kite-2, …) and kite-1, in either order', async () => {
    const plan = await planJobs(
      manifest([video('kite'), video('kite-1'), video('crane-2'), video('crane'), video('kite-0')]),
    );
    expect(plan.invalid.map((l) => [l.line, l.id, l.issues[0]?.message])).toEqual([
      [2, 'kite-1', expect.stringContaining('job kite (line 1)')],
      [4, 'crane', expect.stringContaining('job crane-2 (line 3)')],
    ]);
  });

  it('reads a long manifest as a stream, one job at a time', async () => {
    const path = join(dir, 'long.jsonl');
    const line = JSON.stringify(video('x')).replace('"x"', '"ID"');
    writeFileSync(path, Array.from({ length: 5000 }, (_, i) => line.replace('ID', `job-${i}`)).join('\n'));
    let count = 0;
    const reader = readJobs(path);
    const first = await reader.next();
    expect(first.value).toMatchObject({ line: 1, job: { id: 'job-0' } });
    for await (const item of reader) if (item.job) count++;
    expect(count).toBe(4999);
  });
});
