// Consumer type test: request objects written `as const`, and readonly arrays, are accepted
// wherever the request takes a list. Type-checked like list.ts (see there). Never run.
import type {
  AssetSubmitParams,
  EmbeddingCreateParams,
  ImageEditParams,
  ImageGenerateAsyncParams,
  MediaGateway,
  Notifications,
  VideoCreateParams,
} from 'mediagw';

export async function readonlyRequests(client: MediaGateway, file: Blob): Promise<void> {
  const notifications = {
    webhook: { endpoint_id: 'whep_1', events: ['task.completed', 'task.failed'] },
  } as const;
  const asNotifications: Notifications = notifications;

  const mini = {
    model: 'vidmodel-2.0-mini',
    prompt: 'a kite over @图片1',
    image_urls: ['https://example.com/kite.png'],
    video_urls: ['https://example.com/wind.mp4'],
    audio_urls: ['https://example.com/wind.mp3'],
    tools: [{ type: 'web_search' }],
    notifications,
  } as const;
  await client.videos.create(mini);

  const roles = {
    model: 'vidmodel-2.5',
    prompt: 'from dawn to dusk',
    aspect_ratio: 'adaptive',
    image_with_roles: [
      { url: 'https://example.com/dawn.png', role: 'first_frame' },
      { url: 'https://example.com/dusk.png', role: 'last_frame' },
    ],
  } as const;
  const video: VideoCreateParams = roles;
  await client.videos.create(video);
  await client.videos.create({
    model: 'vidmodel-2.0',
    image_urls: ['asset://asset_1'] as const,
  });

  const urls: readonly string[] = ['https://example.com/a.png'];
  const generate: ImageGenerateAsyncParams = {
    model: 'imgmodel-2',
    prompt: 'a crane',
    image_urls: urls,
    notifications,
  };
  await client.images.generateAsync(generate);
  const files: readonly Blob[] = [file, file];
  const edit: ImageEditParams = { model: 'imgmodel-2', prompt: 'blend the two', image: files };
  await client.images.edit(edit);
  await client.images.editAsync({
    model: 'imgmodel-2.5-flare',
    prompt: 'x',
    image: [file] as const,
    notifications,
  });

  const texts = ['first', 'second'] as const;
  const embed: EmbeddingCreateParams = { model: 'bge-m3', input: texts };
  await client.embeddings.create(embed);

  const batch = {
    asset_type: 'Image',
    assets: [{ url: 'https://example.com/face.png', name: 'face' }],
  } as const;
  const submit: AssetSubmitParams = batch;
  await client.library.assets.submit(submit);

  // A readonly list is still a list of the right things.
  // @ts-expect-error an embedding input holds strings
  await client.embeddings.create({ model: 'bge-m3', input: [1, 2] as const });
  // @ts-expect-error only task.completed, task.failed and batch.completed can be subscribed
  const wrong: Notifications = { webhook: { endpoint_id: 'whep_1', events: ['task.started'] as const } };

  void asNotifications;
  void wrong;
}
