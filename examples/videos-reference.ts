/**
 * Reference media: a `vidmodel-2.5` reference generation (an image, a video and an audio clip
 * named in the prompt as @图片1, @视频1, @音频1) and a `vidmodel-2.0-mini` first-and-last-frame
 * task. Both are submitted, then waited for side by side, and saved.
 *
 *   npx tsx examples/videos-reference.ts [outDir]   (starts its own mock gateway)
 */
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { MediaGateway, type VideoCreateParams } from 'mediagw';
import { startMockGateway } from 'mediagw/testing';

/** Options of {@link main}. */
export interface ExampleOptions {
  baseURL: string;
  apiKey: string;
  outDir?: string | undefined;
  /** Milliseconds between polls. @default the spec's figure for each model, with jitter */
  pollIntervalMs?: number | undefined;
}

// Public URLs (or asset:// references from the media library). Local files go through
// client.uploads.image() first: base64 and data: URLs are refused.
const MEDIA = 'https://media.example.com';

/** Submits both tasks, waits for them, and saves each video. */
export async function main(opts: ExampleOptions) {
  const client = new MediaGateway({ baseURL: opts.baseURL, apiKey: opts.apiKey });
  const outDir = resolve(opts.outDir ?? 'example-output');
  await mkdir(outDir, { recursive: true });

  const reference: VideoCreateParams = {
    model: 'vidmodel-2.5',
    // Indexes count from 1 in array order, per kind; an absent index is refused before sending.
    prompt: 'the character in @图片1 dances like the dancer in @视频1, to the rhythm of @音频1',
    image_urls: [`${MEDIA}/character.png`],
    video_urls: [`${MEDIA}/dance.mp4`],
    audio_urls: [`${MEDIA}/beat.mp3`],
    omni_reference_task_type: 'reference',
    duration: 8,
    resolution: '720p',
    aspect_ratio: '9:16',
  };
  // The client cannot know how long dance.mp4 is: without a hint the estimate assumes the maximum.
  const worst = client.videos.estimateReservation(reference);
  const hinted = client.videos.estimateReservation(reference, { videoDurations: [6.4] });
  console.log(`reference: reserves ${hinted.seconds} s at ${hinted.tier} (at most ${worst.seconds} s)`);

  const frames: VideoCreateParams = {
    model: 'vidmodel-2.0-mini',
    prompt: 'the flower opens at sunrise',
    image_with_roles: [
      { url: `${MEDIA}/bud.png`, role: 'first_frame' },
      { url: `${MEDIA}/bloom.png`, role: 'last_frame' },
    ],
    // Frame tasks require adaptive: the first image sets the proportion.
    aspect_ratio: 'adaptive',
    duration: 5,
    resolution: '720p',
  };

  const submitted = [];
  for (const params of [reference, frames]) {
    const { task_id } = await client.videos.create(params);
    console.log(`submitted ${params.model} task ${task_id}`);
    submitted.push({ taskId: task_id, model: params.model });
  }
  const tasks = await Promise.all(
    submitted.map(({ taskId, model }) =>
      client.videos.waitForTask(taskId, { model, interval: opts.pollIntervalMs }),
    ),
  );
  const files: string[] = [];
  for (const [i, task] of tasks.entries()) {
    const name = i === 0 ? 'reference-dance.mp4' : 'first-last-frame.mp4';
    files.push((await (await client.videos.downloadContent(task.id)).saveTo(join(outDir, name))).path);
  }
  console.log(`saved ${files.join(', ')}`);
  return { taskIds: tasks.map((t) => t.id), files, estimates: { worst, hinted } };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const gateway = await startMockGateway({ speed: 5 });
  try {
    await main({ baseURL: gateway.url, apiKey: gateway.apiKey, outDir: process.argv[2] });
  } finally {
    await gateway.close();
  }
}
