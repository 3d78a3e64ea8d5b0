/**
 * Preview, then upgrade (`vidmodel-2.5`): a cheap 480p preview (`draft: true`), then a 1080p
 * task from it (`draft_task_id`). The upgrade body holds only the upgrade's own fields: the
 * prompt, duration and references are inherited and must not be resent. A preview can be
 * upgraded within 7 days, as often as wanted; each upgrade is a new task and a new charge.
 *
 *   npx tsx examples/videos-preview-upgrade.ts [outDir]   (starts its own mock gateway)
 */
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { MediaGateway, type Video25PreviewParams, type Video25UpgradeParams } from 'mediagw';
import { startMockGateway } from 'mediagw/testing';

/** Options of {@link main}. */
export interface ExampleOptions {
  baseURL: string;
  apiKey: string;
  outDir?: string | undefined;
  /** Milliseconds between polls. @default the spec's 5-10 s for vidmodel-2.5, with jitter */
  pollIntervalMs?: number | undefined;
}

/** Makes a preview, saves it, upgrades it to 1080p and saves the result. */
export async function main(opts: ExampleOptions) {
  const client = new MediaGateway({ baseURL: opts.baseURL, apiKey: opts.apiKey });
  const outDir = resolve(opts.outDir ?? 'example-output');
  await mkdir(outDir, { recursive: true });
  const wait = {
    interval: opts.pollIntervalMs,
    onProgress: (t: { progress?: string | undefined }) => console.log(`  ${t.progress ?? ''}`),
  };

  const previewParams: Video25PreviewParams = {
    model: 'vidmodel-2.5',
    prompt: 'a paper boat drifting down a rainy street gutter',
    draft: true, // 480p only: leave resolution out or set '480p'
    duration: 6,
    aspect_ratio: '16:9',
  };
  console.log(`preview reserves ${client.videos.estimateReservation(previewParams).seconds} s at 480p`);
  const preview = await client.videos.createAndWait(previewParams, wait);
  const previewFile = await (await client.videos.downloadContent(preview.id)).saveTo(
    join(outDir, 'preview.mp4'),
  );
  console.log(`preview ${preview.id} → ${previewFile.path}`);

  const upgradeParams: Video25UpgradeParams = {
    model: 'vidmodel-2.5',
    draft_task_id: preview.id,
    output_format: 'mp4',
    return_last_frame: true,
  };
  // The upgrade reserves the preview's duration at the 1080p tier, without its reference video.
  const estimate = client.videos.estimateReservation(upgradeParams, { previewDuration: 6 });
  console.log(`upgrade reserves ${estimate.seconds} s at ${estimate.tier}`);
  const upgraded = await client.videos.createAndWait(upgradeParams, wait);
  const files = [previewFile.path];
  files.push(
    (await (await client.videos.downloadContent(upgraded.id)).saveTo(join(outDir, 'upgraded-1080p.mp4')))
      .path,
  );
  files.push(
    (
      await (
        await client.videos.downloadLastFrame(upgraded.id)
      ).saveTo(join(outDir, 'upgraded-last-frame.png'))
    ).path,
  );
  console.log(`upgrade ${upgraded.id} → ${files.slice(1).join(', ')}`);
  return { previewId: preview.id, upgradeId: upgraded.id, files, estimate };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const gateway = await startMockGateway({ speed: 5 });
  try {
    await main({ baseURL: gateway.url, apiKey: gateway.apiKey, outDir: process.argv[2] });
  } finally {
    await gateway.close();
  }
}
