/**
 * Text-to-video with `vidmodel-2.5`: estimate the reservation, submit once, store the task ID,
 * wait with progress, then stream the video and its last frame to files.
 *
 *   npx tsx examples/videos-text.ts [outDir]   (starts its own mock gateway)
 */
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  AmbiguousSubmissionError,
  MediaGateway,
  TaskFailedError,
  type VideoCreateParams,
  WaitTimeoutError,
} from 'mediagw';
import { startMockGateway } from 'mediagw/testing';

/** Options of {@link main}. */
export interface ExampleOptions {
  baseURL: string;
  apiKey: string;
  outDir?: string | undefined;
  /** Milliseconds between polls. @default the spec's 5-10 s for vidmodel-2.5, with jitter */
  pollIntervalMs?: number | undefined;
}

/** Generates a 5-second video and saves it with its last frame. */
export async function main(opts: ExampleOptions) {
  const client = new MediaGateway({ baseURL: opts.baseURL, apiKey: opts.apiKey });
  const outDir = resolve(opts.outDir ?? 'example-output');
  await mkdir(outDir, { recursive: true });

  // The SDK never fills in defaults: set what must stay stable (the gateway's defaults for
  // vidmodel-2.5 changed on 2026-10-01).
  const params: VideoCreateParams = {
    model: 'vidmodel-2.5',
    prompt: 'a lighthouse at dusk, waves breaking on the rocks, slow aerial orbit',
    duration: 5,
    resolution: '720p',
    aspect_ratio: '16:9',
    generate_audio: true,
    output_format: 'mp4',
    return_last_frame: true,
    client_reference_id: 'lighthouse-001',
  };

  const estimate = client.videos.estimateReservation(params);
  console.log(`reserves ${estimate.seconds} s at tier ${estimate.tier}`);

  try {
    const task = await client.videos.createAndWait(params, {
      interval: opts.pollIntervalMs,
      // Store the ID before waiting: if the wait is cut short, query it later, never resubmit.
      onSubmitted: (taskId) => console.log(`submitted ${taskId}`),
      onProgress: (t) => console.log(`  ${t.status} ${t.progress ?? ''}`),
    });
    console.log(`completed in ${task.actual_time} s (submission to completion, waiting included)`);

    const video = await client.videos.downloadContent(task.id);
    const saved = await video.saveTo(join(outDir, 'lighthouse.mp4'), {
      onProgress: ({ bytes, total }) => console.log(`  ${bytes} of ${total ?? '?'} bytes`),
    });
    const files = [saved.path];
    // last_frame_url is present only when return_last_frame was true and the frame exists.
    if (task.last_frame_url) {
      const frame = await client.videos.downloadLastFrame(task.id);
      files.push((await frame.saveTo(join(outDir, 'lighthouse-last-frame.png'))).path);
    }
    console.log(`saved ${files.join(', ')}`);
    return { taskId: task.id, files, estimate };
  } catch (error) {
    if (error instanceof AmbiguousSubmissionError) {
      console.log('the submission may have created a task: look for lighthouse-001 before submitting again');
    } else if (error instanceof WaitTimeoutError) {
      console.log(`still running; query ${error.taskId} later instead of submitting again`);
    } else if (error instanceof TaskFailedError) {
      console.log(`task ${error.taskId} failed: ${error.code ?? ''} ${error.message}`);
    }
    throw error;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const gateway = await startMockGateway({ speed: 5 });
  try {
    await main({ baseURL: gateway.url, apiKey: gateway.apiKey, outDir: process.argv[2] });
  } finally {
    await gateway.close();
  }
}
