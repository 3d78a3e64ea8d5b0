/**
 * Submits an image task, keeps its ID, waits for it with a deadline and saves every image.
 * A wait that times out never resubmits: the task ID is kept and queried later.
 *
 *   npx tsx examples/images-async.ts [outDir]   (starts its own mock gateway)
 */
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { MediaGateway, TaskFailedError, WaitTimeoutError } from 'mediagw';
import { startMockGateway } from 'mediagw/testing';

/** Options of {@link main}. */
export interface ExampleOptions {
  baseURL: string;
  apiKey: string;
  outDir?: string | undefined;
  /** Milliseconds between polls. @default the spec's 3-5 s with jitter */
  pollIntervalMs?: number | undefined;
}

/** Generates three images as a task and saves them; returns the task ID and the saved files. */
export async function main(opts: ExampleOptions): Promise<{ taskId: string; files: string[] }> {
  const client = new MediaGateway({ baseURL: opts.baseURL, apiKey: opts.apiKey });
  const outDir = resolve(opts.outDir ?? 'example-output');
  await mkdir(outDir, { recursive: true });
  const model = 'imgmodel-2';

  const { task_id } = await client.images.generateAsync({
    model,
    prompt: 'three postcards of a harbour town',
    n: 3,
    client_reference_id: 'postcards-001',
  });
  console.log(`submitted ${task_id}`); // store the ID before waiting

  try {
    // The task query needs the model used at submission.
    const task = await client.images.waitForTask(task_id, {
      model,
      timeout: 10 * 60_000,
      interval: opts.pollIntervalMs,
      onProgress: (t) => console.log(`  ${t.status} (${t.state})`),
    });
    const files: string[] = [];
    // Every image is listed, whether the gateway sent {url} objects or bare URLs.
    for (const [i, image] of task.images.entries()) {
      files.push(
        (await (await client.images.download(image)).saveTo(join(outDir, `postcard-${i + 1}.png`))).path,
      );
    }
    console.log(`saved ${files.length} images under ${outDir}`);
    return { taskId: task_id, files };
  } catch (error) {
    if (error instanceof WaitTimeoutError) {
      console.log(`still running; query ${error.taskId} later instead of submitting again`);
    } else if (error instanceof TaskFailedError) {
      console.log(`task failed: ${error.code ?? ''} ${error.message}`);
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
