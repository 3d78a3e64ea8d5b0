// Manifests, folders and submission counts for the job-run tests.
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { JobInput } from '../../src/jobs/index.js';
import type { MockGateway } from '../../src/testing/index.js';

/** The submission paths of the gateway: each request there is billable. */
const SUBMISSIONS = new Set([
  '/v1/videos/generations',
  '/v1/images/generations',
  '/v1/images/generations/async',
  '/v1/embeddings',
]);

/** A fresh folder, removed by the returned function. */
export function scratch(): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'mediagw-jobs-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Writes jobs as a manifest, one JSON document a line. */
export function writeManifest(path: string, jobs: readonly unknown[]): string {
  writeFileSync(path, `${jobs.map((job) => JSON.stringify(job)).join('\n')}\n`);
  return path;
}

/** A 5 s mini video job whose prompt names it (`film <id>`), so the request log tells it apart. */
export function videoJob(id: string, prompt = `film ${id}`): JobInput {
  return { id, operation: 'videos.create', body: { model: 'vidmodel-2.0-mini', prompt, duration: 5 } };
}

/** Mixed jobs; each names its id in its prompt (or input), so the request log tells them apart. */
export function mixedJobs(count: number, prefix = 'job'): JobInput[] {
  const jobs: JobInput[] = [];
  for (let i = 1; i <= count; i++) {
    const id = `${prefix}-${String(i).padStart(3, '0')}`;
    const kind = i % 4;
    if (kind === 1) jobs.push(videoJob(id));
    else if (kind === 2)
      jobs.push({
        id,
        operation: 'images.generateAsync',
        body: { model: 'imgmodel-2', prompt: `paint ${id}` },
      });
    else if (kind === 3)
      jobs.push({
        id,
        operation: 'images.generate',
        body: { model: 'imgmodel-2', prompt: `draw ${id}`, n: 2 },
      });
    else jobs.push({ id, operation: 'embeddings.create', body: { model: 'bge-m3', input: [`embed ${id}`] } });
  }
  return jobs;
}

/** The job a submission was for, read from its prompt or input. */
function jobOf(body: unknown): string | undefined {
  const b = body as { prompt?: unknown; input?: unknown } | undefined;
  const text =
    typeof b?.prompt === 'string' ? b.prompt : Array.isArray(b?.input) ? String(b.input[0]) : undefined;
  return text?.split(' ').pop();
}

/**
 * Submissions the gateway received, per job id (every one, faults included); a fault that
 * answered before the body was read counts under `?`.
 */
export function submissionsPerJob(gateway: MockGateway): Map<string, number> {
  const counts = new Map<string, number>();
  for (const request of gateway.requests) {
    if (request.method !== 'POST' || !SUBMISSIONS.has(request.path)) continue;
    const id = request.body === undefined ? '?' : jobOf(request.body);
    if (id) counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  return counts;
}

/** Files in a folder, sorted. */
export function filesIn(dir: string): string[] {
  return readdirSync(dir).sort();
}
