/**
 * Generates images synchronously and saves them: as URLs (downloaded with the key only when
 * the URL is on the gateway) and as base64 (decoded locally).
 *
 *   npx tsx examples/images-generate.ts [outDir]   (starts its own mock gateway)
 */
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { MediaGateway } from 'mediagw';
import { startMockGateway } from 'mediagw/testing';

/** Options of {@link main}. */
export interface ExampleOptions {
  baseURL: string;
  apiKey: string;
  outDir?: string | undefined;
}

/** Generates two images with `imgmodel-2` and one with `imgmodel-2.5-flare`, and saves all three. */
export async function main(opts: ExampleOptions): Promise<{ files: string[] }> {
  const client = new MediaGateway({ baseURL: opts.baseURL, apiKey: opts.apiKey });
  const outDir = resolve(opts.outDir ?? 'example-output');
  await mkdir(outDir, { recursive: true });
  const files: string[] = [];

  // Text-to-image is JSON. `n` is the number of outputs; the maximum depends on the route.
  const response = await client.images.generate({
    model: 'imgmodel-2',
    prompt: 'a paper crane on a wooden desk, morning light',
    n: 2,
    size: '1024x1024',
  });
  for (const [i, entry] of response.data.entries()) {
    // Result URLs are temporary: download promptly. `download` also decodes `b64_json` entries.
    const saved = await (await client.images.download(entry)).saveTo(join(outDir, `crane-${i + 1}.png`));
    files.push(saved.path);
  }

  // The 2.5 models are separate model IDs (not aliases of imgmodel-2): switch `model` explicitly.
  const flare = await client.images.generate({ model: 'imgmodel-2.5-flare', prompt: 'a lighthouse at dusk' });
  for (const entry of flare.data) {
    const saved = await (await client.images.download(entry)).saveTo(join(outDir, 'lighthouse.png'));
    files.push(saved.path);
  }
  console.log(`saved ${files.length} images under ${outDir}`);
  return { files };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const gateway = await startMockGateway();
  try {
    await main({ baseURL: gateway.url, apiKey: gateway.apiKey, outDir: process.argv[2] });
  } finally {
    await gateway.close();
  }
}
