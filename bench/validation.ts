/**
 * (7) Validation cost: microseconds for `parseVideoRequest` (what `videos.create` runs before
 * sending) on the largest legal `vidmodel-2.5` request: 30 images (10 URLs and 20 with roles,
 * first and last frame among them), 10 videos, 10 audios, every reference named in the prompt,
 * every optional field set. `JSON.stringify` of the same body, which sending it costs anyway,
 * is given for scale.
 */

import { runInChild } from './lib/child.js';
import { type BenchContext, modulePath, reps } from './lib/context.js';
import { loadMediagw } from './lib/package.js';
import type { Row } from './lib/results.js';
import { median } from './lib/stats.js';

const url = (kind: string, i: number) =>
  `https://cdn.example.com/refs/${kind}-${String(i).padStart(2, '0')}.bin`;
const range = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

/** The largest legal `vidmodel-2.5` request the spec allows (every count at its maximum). */
export function largestV25Request(): Record<string, unknown> {
  const mentions = [
    ...range(30).map((i) => `@图片${i}`),
    ...range(10).map((i) => `@视频${i}`),
    ...range(10).map((i) => `@音频${i}`),
  ].join(' ');
  return {
    model: 'vidmodel-2.5',
    prompt:
      `A slow dolly shot through a lantern-lit night market in the rain, reflections on wet stone, steam rising from food stalls; keep the characters of ${mentions} consistent, match the camera motion of the reference videos and the rhythm of the reference audio. `.repeat(
        3,
      ),
    duration: 30,
    resolution: '1080p',
    ratio: 'adaptive',
    aspect_ratio: 'adaptive',
    image_urls: range(10).map((i) => url('image', i)),
    image_with_roles: [
      { url: url('frame', 1), role: 'first_frame' },
      { url: url('frame', 2), role: 'last_frame' },
      ...range(18).map((i) => ({ url: url('role', i), role: 'reference_image' })),
    ],
    video_urls: range(10).map((i) => url('video', i)),
    audio_urls: range(10).map((i) => url('audio', i)),
    generate_audio: true,
    audio: true,
    watermark: false,
    seed: 424242,
    output_format: 'mp4',
    omni_reference_task_type: 'reference',
    nsfw_check: true,
    return_last_frame: true,
    negative_prompt: 'blurry, low contrast, text overlays',
    generation_type: 'standard',
    camerafixed: false,
    service_tier: 'default',
    tools: [{ type: 'web_search' }],
    notifications: {
      webhook: {
        endpoint_id: 'whep_0123456789',
        events: ['task.completed', 'task.failed', 'batch.completed'],
      },
    },
    client_reference_id: 'r'.repeat(128),
  };
}

function microsPerCall(fn: () => unknown, calls: number): number {
  const started = performance.now();
  for (let i = 0; i < calls; i++) fn();
  return ((performance.now() - started) * 1000) / calls;
}

interface WorkerResult {
  firstCallMicros: number;
  validate: number[];
  stringify: number[];
}

/** Child side: the first call (cold), then rounds of timed calls. */
export async function validationWorker(args: { rounds: number; calls: number }): Promise<WorkerResult> {
  const { parseVideoRequest } = await loadMediagw();
  const body = largestV25Request();
  const started = performance.now();
  parseVideoRequest(body); // throws if the request is not legal
  const firstCallMicros = (performance.now() - started) * 1000;
  microsPerCall(() => parseVideoRequest(body), args.calls / 2);
  const validate: number[] = [];
  const stringify: number[] = [];
  for (let round = 0; round < args.rounds; round++) {
    validate.push(microsPerCall(() => parseVideoRequest(body), args.calls));
    stringify.push(microsPerCall(() => JSON.stringify(body), args.calls));
  }
  return { firstCallMicros, validate, stringify };
}

/** Parent side: one fresh child process. */
export async function measure(ctx: BenchContext): Promise<Row[]> {
  const args = { rounds: reps(ctx, 7, 3), calls: 2000 };
  const result = await runInChild<WorkerResult>(modulePath(import.meta.url), 'validationWorker', args);
  const mediagw = median(result.validate);
  const limit = median(result.stringify);
  ctx.log(
    `validation: ${mediagw.toFixed(1)} µs per call (first call ${result.firstCallMicros.toFixed(0)} µs)`,
  );
  ctx.note(
    `(7) validation: ${args.rounds} rounds of ${args.calls} calls after ${args.calls / 2} warm-up calls; the first call in a fresh process took ` +
      `${result.firstCallMicros.toFixed(0)} µs; the body is ${JSON.stringify(largestV25Request()).length} bytes of JSON.`,
  );
  return [
    {
      id: 'validation.v25',
      figure: '(7) parseVideoRequest, largest legal vidmodel-2.5 request',
      unit: 'µs',
      better: 'lower',
      mediagw,
      limit,
      limitLabel: 'JSON.stringify of the body',
      ratio: mediagw / limit,
      samples: { mediagw: result.validate, limit: result.stringify },
    },
  ];
}
