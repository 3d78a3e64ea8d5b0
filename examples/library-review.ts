/**
 * Submits two images to the media library for review, waits for the review task, prints the
 * usable `asset://` references, and uses one in a `vidmodel-2.5` video request.
 *
 *   npx tsx examples/library-review.ts   (starts its own mock gateway)
 */
import { pathToFileURL } from 'node:url';
import { MediaGateway } from 'mediagw';
import { startMockGateway } from 'mediagw/testing';

/** Options of {@link main}. */
export interface ExampleOptions {
  baseURL: string;
  apiKey: string;
  outDir?: string | undefined;
  /** Milliseconds between polls. @default the spec's 5-10 s */
  interval?: number | undefined;
}

/** What the example produced. */
export interface ReviewResult {
  reviewTaskId: string;
  status: string;
  usable: string[];
  videoTaskId: string;
  videoStatus: string;
}

export async function main(opts: ExampleOptions): Promise<ReviewResult> {
  const client = new MediaGateway({ baseURL: opts.baseURL, apiKey: opts.apiKey });
  const wait = opts.interval === undefined ? {} : { interval: opts.interval };

  // 1. Submit a review batch: 1-20 materials of one type. Without group or group_id a group is created.
  const review = await client.library.assets.submit({
    model: 'vidmodel-2.5',
    group: { name: 'presenter', description: 'the presenter of the product videos' },
    asset_type: 'Image',
    assets: [
      { url: 'https://example.com/presenter-front.png', name: 'front' },
      { url: 'https://example.com/presenter-side.png', name: 'side' },
    ],
  });
  console.log(`review task ${review.id} (${review.status}) in group ${review.group_id}`);

  // 2. Wait for it. A failed batch still resolves: some materials may be usable.
  const done = await client.library.reviewTasks.waitForTask(review.id, {
    ...wait,
    onProgress: (task) => console.log(`  review ${task.status} ${task.progress ?? 0}%`),
  });
  for (const failed of done.result?.failed_assets ?? []) console.log(`  rejected: ${failed.name}`);
  console.log('usable asset references:');
  for (const ref of done.usable_assets) console.log(`  ${ref}`);
  const [first] = done.usable_assets;
  if (!first) throw new Error(`review ${done.id} ended ${done.status} without usable materials`);

  // 3. Use an approved material unchanged in a video request.
  const submission = await client.videos.create({
    model: 'vidmodel-2.5',
    prompt: 'The presenter in @图片1 waves at the camera and smiles',
    image_urls: [first],
    duration: 5,
  });
  console.log(`video task ${submission.task_id} submitted with ${first}`);
  const video = await client.videos.waitForTask(submission.task_id, { ...wait, model: 'vidmodel-2.5' });
  console.log(`video ${video.status}`);
  return {
    reviewTaskId: done.id,
    status: done.status,
    usable: done.usable_assets,
    videoTaskId: submission.task_id,
    videoStatus: video.status,
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const gateway = await startMockGateway();
  try {
    await main({ baseURL: gateway.url, apiKey: gateway.apiKey });
  } finally {
    await gateway.close();
  }
}
