// Consumer type test: results list the spec's fields, required where the spec always sends
// them, and fields the spec does not name are read through withExtraFields or an `in` check.
// Type-checked like list.ts (see there). Never run.
import {
  type Asset,
  type ImagesResponse,
  type MediaGateway,
  type ReviewTask,
  type UploadedImage,
  type VideoTask,
  type VideoTaskCompat,
  type WithExtraFields,
  withExtraFields,
} from 'mediagw';

export async function results(client: MediaGateway, id: string): Promise<string[]> {
  const task: VideoTask = await client.videos.retrieve(id);
  // Always sent: no undefined to handle.
  const progress: string = task.progress;
  const object: 'video' = task.object;
  // Sent on a condition: optional.
  // @ts-expect-error url is sent on success only
  const url: string = task.url;
  // @ts-expect-error a field the spec does not name is not on the type
  task.seed;

  // The escape hatch: unknown, to be checked before use.
  const open: WithExtraFields<VideoTask> = withExtraFields(task);
  const seed: unknown = open.seed;
  // @ts-expect-error an extra field is unknown, not any
  const seedNumber: number = open.seed;
  const status: string = open.status; // listed fields keep their types
  if ('seed' in task) void task.seed;

  const compat: VideoTaskCompat = await client.videos.retrieveCompat(id);
  const format: string = compat.data.format;
  const error: { message?: string | undefined } | null = compat.data.error;

  const asset: Asset = await client.library.assets.retrieve(id);
  const reference: string = asset.asset_url;
  const group: string = asset.group_id;
  const review: ReviewTask = await client.library.reviewTasks.retrieve(id);
  const usable: Asset[] = review.result?.usable_assets ?? [];
  const percent: number = review.progress;

  const upload: UploadedImage = await client.uploads.image(new Uint8Array(8));
  // @ts-expect-error an upload has url, filename, content_type, bytes and created_at only
  upload.width;
  const images: ImagesResponse = await client.images.generate({ model: 'imgmodel-2', prompt: 'x' });
  // @ts-expect-error the response has created and data; anything else is read with withExtraFields
  images.usage;

  void [url, seed, seedNumber, error, usable, percent];
  return [progress, object, status, format, reference, group];
}
