/**
 * Edits images with real uploaded files: two references sent as repeated `image[]` parts in
 * the order the prompt names them, then a masked edit with `imgmodel-2`.
 *
 *   npx tsx examples/images-edit.ts [outDir]   (starts its own mock gateway)
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { fileFromBase64, fileFromPath, MediaGateway } from 'mediagw';
import { pngImage, startMockGateway } from 'mediagw/testing';

/** Options of {@link main}. */
export interface ExampleOptions {
  baseURL: string;
  apiKey: string;
  outDir?: string | undefined;
}

/** Writes two sample inputs and a mask, runs two edits and saves their results. */
export async function main(opts: ExampleOptions): Promise<{ files: string[] }> {
  const client = new MediaGateway({ baseURL: opts.baseURL, apiKey: opts.apiKey });
  const outDir = resolve(opts.outDir ?? 'example-output');
  await mkdir(outDir, { recursive: true });
  // Sample inputs; in your code these are your own files.
  const catPath = join(outDir, 'input-cat.png');
  const roomPath = join(outDir, 'input-room.png');
  await writeFile(catPath, pngImage({ seed: 1, width: 128, height: 128 }));
  await writeFile(roomPath, pngImage({ seed: 2, width: 128, height: 128 }));
  const files: string[] = [];

  // Several files go as image[] in this order: the prompt describes them in the same order.
  // fileFromPath streams from disk; nothing is read into memory.
  const references = await client.images.edit({
    model: 'imgmodel-2.5-sunburst',
    prompt: 'the cat from the first image sitting in the room from the second image',
    image: [await fileFromPath(catPath), await fileFromPath(roomPath)],
  });
  for (const [i, entry] of references.data.entries()) {
    files.push(
      (await (await client.images.download(entry)).saveTo(join(outDir, `edited-${i + 1}.png`))).path,
    );
  }

  // A mask (PNG with alpha, the input's size) is for imgmodel-2 only; the 2.5 models refuse it.
  // Base64 text is not a file: decode it with fileFromBase64 first.
  const maskBase64 = pngImage({ seed: 3, width: 128, height: 128 }).toString('base64');
  const masked = await client.images.edit({
    model: 'imgmodel-2',
    prompt: 'replace the transparent area with a window',
    image: await fileFromPath(roomPath),
    mask: fileFromBase64(maskBase64, { filename: 'mask.png' }),
  });
  for (const entry of masked.data) {
    files.push((await (await client.images.download(entry)).saveTo(join(outDir, 'masked.png'))).path);
  }
  console.log(`saved ${files.length} edited images under ${outDir}`);
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
