/**
 * Uploads a local image and prints its public URL.
 *
 *   npx tsx examples/uploads.ts [path-to-image]   (starts its own mock gateway)
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { fileFromPath, MediaGateway, RequestValidationError, type UploadedImage } from 'mediagw';
import { pngImage, startMockGateway } from 'mediagw/testing';

/** Options of {@link main}. */
export interface ExampleOptions {
  baseURL: string;
  apiKey: string;
  outDir?: string | undefined;
  /** The image to upload. @default a sample PNG written under `outDir` */
  path?: string | undefined;
}

/** Uploads one image (JPEG, PNG, GIF or WebP, at most 20 MiB) and returns the uploaded image. */
export async function main(opts: ExampleOptions): Promise<UploadedImage> {
  const client = new MediaGateway({ baseURL: opts.baseURL, apiKey: opts.apiKey });
  let path = opts.path;
  if (!path) {
    const outDir = resolve(opts.outDir ?? 'example-output');
    await mkdir(outDir, { recursive: true });
    path = join(outDir, 'upload-sample.png');
    await writeFile(path, pngImage({ seed: 7, width: 96, height: 96 }));
  }
  try {
    // The file streams from disk as the single multipart part `file`.
    const uploaded = await client.uploads.image(await fileFromPath(path));
    // Anyone who knows the URL can read it, and it has no guaranteed retention.
    console.log(`${uploaded.filename} (${uploaded.content_type}, ${uploaded.bytes} bytes) → ${uploaded.url}`);
    return uploaded;
  } catch (error) {
    // Over 20 MiB, or not an image by its bytes: refused before anything is sent.
    if (error instanceof RequestValidationError) console.log(`not uploaded: ${error.message}`);
    throw error;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const gateway = await startMockGateway();
  try {
    await main({ baseURL: gateway.url, apiKey: gateway.apiKey, path: process.argv[2] });
  } finally {
    await gateway.close();
  }
}
