/**
 * (9) Error-body parsing on hostile input: milliseconds for `APIError.fromResponse` (what every
 * non-2xx answer goes through) on 1 MiB error bodies built to make a backtracking parser
 * quadratic: moderation messages of dots, brackets and quotes, spaces, separators; a library
 * message of `assets[` and digits; a 1 MiB text body. The figure is the slowest of them per
 * round, as a median over rounds. `JSON.parse` of the same bodies, which the transport runs
 * anyway, is given for scale.
 */

import { runInChild } from './lib/child.js';
import { type BenchContext, modulePath, reps } from './lib/context.js';
import { loadMediagw } from './lib/package.js';
import type { Row } from './lib/results.js';
import { median } from './lib/stats.js';

const MiB = 1 << 20;

/** The hostile bodies, as JSON text: each about 1 MiB. */
export function adversarialBodies(): Record<string, string> {
  const moderation = (message: string) =>
    JSON.stringify({ code: 'nsfw_content_detected', message, data: null });
  return {
    dots: moderation(`Flagged: a${'.'.repeat(MiB)}a`),
    brackets: moderation(`: ${'[\'"`'.repeat(MiB / 4)}x`),
    spaces: moderation(`:${' '.repeat(MiB)}x`),
    separators: moderation(`:${',|'.repeat(MiB / 2)}`),
    library: JSON.stringify({
      error: { message: `invalid_asset_material assets[${'9'.repeat(MiB)}`, type: 'media_library_error' },
    }),
    text: JSON.stringify(`a${'.'.repeat(MiB)}a`),
  };
}

interface WorkerResult {
  parse: number[];
  json: number[];
  slowest: string;
}

/** Child side: rounds of one parse of every body; each round's figure is its slowest body. */
export async function errorBodyWorker(args: { rounds: number }): Promise<WorkerResult> {
  const { APIError } = await loadMediagw();
  const bodies = Object.entries(adversarialBodies());
  const parsed = bodies.map(([name, text]) => [name, JSON.parse(text) as unknown] as const);
  const fromResponse = (body: unknown) =>
    APIError.fromResponse({ status: 400, body, headers: {}, requestId: 'req_1', operation: 'POST /v1/x' });
  for (const [, body] of parsed) fromResponse(body); // warm-up
  const parse: number[] = [];
  const json: number[] = [];
  const slowestCount = new Map<string, number>();
  for (let round = 0; round < args.rounds; round++) {
    let worst = 0;
    let worstName = '';
    for (const [name, body] of parsed) {
      const started = performance.now();
      fromResponse(body);
      const ms = performance.now() - started;
      if (ms > worst) [worst, worstName] = [ms, name];
    }
    parse.push(worst);
    slowestCount.set(worstName, (slowestCount.get(worstName) ?? 0) + 1);
    let worstJson = 0;
    for (const [, text] of bodies) {
      const started = performance.now();
      JSON.parse(text);
      worstJson = Math.max(worstJson, performance.now() - started);
    }
    json.push(worstJson);
  }
  const slowest = [...slowestCount].sort((a, b) => b[1] - a[1])[0]?.[0] ?? '';
  return { parse, json, slowest };
}

/** Parent side: one fresh child process. */
export async function measure(ctx: BenchContext): Promise<Row[]> {
  const args = { rounds: reps(ctx, 15, 5) };
  const result = await runInChild<WorkerResult>(modulePath(import.meta.url), 'errorBodyWorker', args);
  const mediagw = median(result.parse);
  const limit = median(result.json);
  ctx.log(
    `errors: ${mediagw.toFixed(2)} ms for the slowest 1 MiB hostile error body (JSON.parse ${limit.toFixed(2)} ms)`,
  );
  ctx.note(
    `(9) error bodies: ${args.rounds} rounds over ${Object.keys(adversarialBodies()).join(', ')} (1 MiB each); ` +
      `the slowest was most often "${result.slowest}".`,
  );
  return [
    {
      id: 'errors.hostile-1MiB',
      figure: '(9) APIError.fromResponse, slowest 1 MiB hostile error body',
      unit: 'ms',
      better: 'lower',
      mediagw,
      limit,
      limitLabel: 'JSON.parse of the body',
      ratio: mediagw / limit,
      samples: { mediagw: result.parse, limit: result.json },
    },
  ];
}
