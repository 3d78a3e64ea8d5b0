/**
 * Motion control (`motion-v3-motion-control`): a reference image moved like the person in a
 * reference video. The charge follows the reference video's length (per second, by `mode`);
 * `duration` is only a pre-deduction estimate for when the gateway cannot measure the video.
 *
 *   npx tsx examples/videos-motion.ts [outDir]   (starts its own mock gateway)
 */
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { MediaGateway, type MotionControlParams } from 'mediagw';
import { startMockGateway } from 'mediagw/testing';

/** Options of {@link main}. */
export interface ExampleOptions {
  baseURL: string;
  apiKey: string;
  outDir?: string | undefined;
  /** Milliseconds between polls. @default 5 s, with jitter */
  pollIntervalMs?: number | undefined;
}

/** Submits a motion-control task, waits for it and saves the result. */
export async function main(opts: ExampleOptions) {
  const client = new MediaGateway({ baseURL: opts.baseURL, apiKey: opts.apiKey });
  const outDir = resolve(opts.outDir ?? 'example-output');
  await mkdir(outDir, { recursive: true });

  const params: MotionControlParams = {
    model: 'motion-v3-motion-control',
    image_url: 'https://media.example.com/mascot.png',
    video_url: 'https://media.example.com/dance-8s.mp4', // public, mp4/mov, at most 100 MB
    character_orientation: 'image', // the reference video must be 3-10 s
    mode: 'std',
    prompt: 'keep the camera still',
    keep_original_sound: 'no',
    watermark_info: { enabled: false },
  };
  const unknown = client.videos.estimateReservation(params);
  const known = client.videos.estimateReservation(params, {
    referenceVideoSeconds: 7.6,
    prices: { std: 0.05, pro: 0.09 }, // your account's prices per reference second
  });
  console.log(`reserves up to ${unknown.seconds} s (${unknown.notes.join('; ')})`);
  console.log(`with the video's length known: ${known.seconds} s at ${known.tier}, cost ${known.cost}`);

  const task = await client.videos.createAndWait(params, {
    interval: opts.pollIntervalMs,
    onSubmitted: (id) => console.log(`submitted ${id}`),
    onProgress: (t) => console.log(`  ${t.status} ${t.progress ?? ''}`),
  });
  const file = await (await client.videos.downloadContent(task.id)).saveTo(join(outDir, 'motion.mp4'));
  console.log(`saved ${file.path}`);
  return { taskId: task.id, files: [file.path], estimates: { unknown, known } };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const gateway = await startMockGateway({ speed: 5 });
  try {
    await main({ baseURL: gateway.url, apiKey: gateway.apiKey, outDir: process.argv[2] });
  } finally {
    await gateway.close();
  }
}
