/**
 * A tour of mediagw against the embedded mock gateway: `npm run demo`.
 *
 * Uploads an image, generates and edits images, submits a video with a webhook subscription
 * to a local receiver and waits for it through the events hub, streams the video and its
 * last frame to ./demo-output/, embeds two texts, and runs a media library review.
 */
import { mkdir } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { cosineSimilarity, fileFromPath, MediaGateway, TaskEventHub, type VideoMiniParams } from 'mediagw';
import { mockWebhooks, pngImage, startMockGateway } from 'mediagw/testing';
import { createNodeWebhookHandler, type HandledWebhookEvent } from 'mediagw/webhooks';

const outDir = resolve(process.argv[2] ?? 'demo-output');
const started = Date.now();
let stepNumber = 0;
const step = (text: string) => console.log(`\n${++stepNumber}. ${text}`);
const say = (text: string) => console.log(`   ${text}`);
const ms = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;

async function main(): Promise<void> {
  await mkdir(outDir, { recursive: true });
  step('Starting the mock gateway on 127.0.0.1');
  const gateway = await startMockGateway({ speed: 20 });
  const receiver = createServer();
  try {
    say(`gateway ${gateway.url}, media origin ${gateway.mediaUrl}`);
    const client = new MediaGateway({ apiKey: gateway.apiKey, baseURL: gateway.url });

    step('Images');
    const uploaded = await client.uploads.image(
      new Blob([new Uint8Array(pngImage({ width: 96, height: 96 }))], { type: 'image/png' }),
    );
    say(`uploaded a ${uploaded.bytes}-byte PNG: ${uploaded.url}`);
    const generated = await client.images.generate({
      model: 'imgmodel-2',
      prompt: 'a paper crane',
      size: '1024x1024',
    });
    const [first] = generated.data;
    if (!first) throw new Error('the gateway returned no image');
    const generatedFile = await (await client.images.download(first)).saveTo(`${outDir}/generated.png`);
    say(`generated one image synchronously → ${generatedFile.path}`);
    // The saved file is the generated image's bytes: its download stream is read once, and
    // fileFromPath streams it back from disk instead of fetching the temporary URL again.
    const palette = new File([new Uint8Array(pngImage({ width: 64, height: 64, seed: 2 }))], 'palette.png', {
      type: 'image/png',
    });
    const references = [await fileFromPath(generatedFile.path), palette];
    const edited = await client.images.edit({
      model: 'imgmodel-2',
      prompt: 'the crane from the first image in the colours of the second',
      image: references,
    });
    const [editedImage] = edited.data;
    if (editedImage) {
      const saved = await (await client.images.download(editedImage)).saveTo(`${outDir}/edited.png`);
      const inputs = references.map((f) => `${f.name} (${f.size} bytes)`).join(' then ');
      say(`edited with two reference files, ${inputs}, sent as image[] → ${saved.path}`);
    }

    step('Video, waited for by polling');
    const kite: VideoMiniParams = {
      model: 'vidmodel-2.0-mini',
      prompt: 'a red kite over a grey sea, slow pan',
      duration: 5,
      resolution: '720p',
      aspect_ratio: '16:9',
      return_last_frame: true,
    };
    const estimate = client.videos.estimateReservation(kite);
    say(`submission reserves ${estimate.seconds} s at tier ${estimate.tier}`);
    const polled = await client.videos.createAndWait(kite, {
      interval: 150,
      onSubmitted: (id) => say(`submitted task ${id}`),
      onProgress: (t) => say(`${t.status} ${t.progress ?? ''}`),
    });
    const video = await (await client.videos.downloadContent(polled.id)).saveTo(`${outDir}/video.mp4`, {
      onProgress: (p) => {
        if (p.bytes === p.total) say(`streamed ${p.bytes} bytes`);
      },
    });
    const frame = await (await client.videos.downloadLastFrame(polled.id)).saveTo(`${outDir}/last-frame.png`);
    say(`video → ${video.path}; last frame → ${frame.path}`);

    step('A local webhook receiver');
    const hub = new TaskEventHub();
    const events: HandledWebhookEvent[] = [];
    const created = await client.webhooks.endpoints.create({ url: 'https://hooks.demo.example/mediagw' });
    receiver.on(
      'request',
      createNodeWebhookHandler({
        secrets: { [created.endpoint.key_id]: created.signing_secret },
        // No clock needed: the mock signs with real time, however fast its own clock runs.
        onEvent: (event) => {
          events.push(event);
          hub.publish(event);
        },
      }),
    );
    await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done));
    const { port } = receiver.address() as AddressInfo;
    mockWebhooks(gateway).route('https://hooks.demo.example/mediagw', `http://127.0.0.1:${port}/mediagw`);
    await client.webhooks.endpoints.verify(created.endpoint.id);
    say(`endpoint ${created.endpoint.id} registered and verified; receiver on 127.0.0.1:${port}`);

    step('Video, waited for through its webhook event');
    const params: VideoMiniParams = {
      model: 'vidmodel-2.0-mini',
      prompt: 'a paper boat drifting on a pond',
      duration: 5,
      notifications: {
        webhook: { endpoint_id: created.endpoint.id, events: ['task.completed', 'task.failed'] },
      },
    };
    gateway.resetRequests();
    const task = await client.videos.createAndWait(params, {
      events: hub,
      onSubmitted: (id) => say(`submitted task ${id}; waiting for its event`),
    });
    const queries = gateway.requests.filter(
      (r) => r.method === 'GET' && r.path.startsWith('/v1/videos/'),
    ).length;
    const byEvent = events.some((e) => 'task_id' in e.data && e.data.task_id === task.id);
    say(
      byEvent
        ? `the wait ended on the webhook event (${queries} confirming task query, no polling)`
        : `the wait ended by polling (${queries} task queries)`,
    );
    const boat = await (await client.videos.downloadContent(task.id)).saveTo(`${outDir}/video-by-event.mp4`);
    say(`video → ${boat.path}`);

    step('Embeddings');
    const texts = ['a red kite over the sea', 'a kite flying above the ocean'];
    const { data, model, dimensions } = await client.embeddings.create({ model: 'bge-m3', input: texts });
    const [a, b] = data;
    if (a && b)
      say(
        `${model} (${dimensions} dimensions): cosine similarity ${cosineSimilarity(a.embedding, b.embedding).toFixed(3)}`,
      );

    step('Media library review');
    const review = await client.library.assets.submit({
      model: 'vidmodel-2.5',
      asset_type: 'Image',
      group: { name: 'demo characters' },
      assets: [
        { url: 'https://media.demo.example/actor-front.png', name: 'front' },
        { url: 'https://media.demo.example/actor-side.png', name: 'side' },
      ],
    });
    say(`review task ${review.id} is ${review.status}`);
    const reviewed = await client.library.reviewTasks.waitForTask(review.id, { interval: 300 });
    say(`review ${reviewed.status}; usable: ${reviewed.usable_assets.join(', ') || '(none)'}`);

    console.log(`\nDone in ${ms()}. Files are in ${outDir}`);
  } finally {
    receiver.close();
    receiver.closeAllConnections();
    await gateway.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
