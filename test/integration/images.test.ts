// Covers: the client against the mock gateway: images
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fetch } from 'undici';
import { afterAll, describe, expect, test } from 'vitest';
import {
  ContentModerationError,
  fileFromBase64,
  fileFromPath,
  NotFoundError,
  PermissionDeniedError,
  RequestValidationError,
} from '../../src/index.js';
import type { ImageEditParams, ImageGenerateParams } from '../../src/schemas/images/types.js';
import { mp4Video, pngImage } from '../../src/testing/index.js';
import { png } from '../core/image-fixtures.js';
import { testClient } from '../helpers/client.js';
import { rejection } from '../helpers/rejection.js';
import {
  apiRequests,
  PNG_MAGIC,
  partSummary,
  sha256,
  sha256File,
  writePaddedFile,
} from './images-helpers.js';
import { mockGatewayClient } from './mock-client.js';

const { gateway, client, agent } = await mockGatewayClient();
const dir = await mkdtemp(join(tmpdir(), 'mediagw-images-'));
afterAll(() => rm(dir, { recursive: true, force: true }));

async function bytesOf(download: { arrayBuffer(): Promise<ArrayBuffer> }): Promise<Buffer> {
  return Buffer.from(await download.arrayBuffer());
}

describe('images.generate (synchronous)', () => {
  test('n images come back as URLs on the gateway; the request carries only the fields set', async () => {
    const params = { model: 'imgmodel-2', prompt: 'a paper crane', n: 3, size: '1024x1024' } as const;
    const response = await client.images.generate(params);
    expect(response.data).toHaveLength(3);
    expect(typeof response.created).toBe('number');
    for (const entry of response.data)
      expect(entry.url?.startsWith(`${gateway.url}/v1/images/results/`)).toBe(true);
    const sent = apiRequests(gateway, 'POST', '/v1/images/generations');
    expect(sent.map((r) => r.body)).toEqual([params]);
    expect(sent[0]?.headers['content-type']).toBe('application/json');
  });

  test('download sends the key to the gateway only, never to the media origin it redirects to', async () => {
    const { data } = await client.images.generate({ model: 'imgmodel-2', prompt: 'a kite' });
    gateway.resetRequests();
    const download = await client.images.download(data[0]!);
    expect(download.contentType).toBe('image/png');
    const bytes = await bytesOf(download);
    expect(bytes.subarray(0, 8)).toEqual(PNG_MAGIC);
    const [onGateway, onMedia] = gateway.requests;
    expect(onGateway?.origin).toBe('api');
    expect(onGateway?.headers.authorization).toMatch(/^Bearer /);
    expect(onGateway?.status).toBe(302);
    expect(onMedia?.origin).toBe('media');
    expect(onMedia?.status).toBe(200);
    expect(onMedia?.headers.authorization).toBeUndefined();
    expect(gateway.requests.some((r) => r.origin === 'media' && r.headers.authorization)).toBe(false);
  });

  test('a URL string on the media origin is downloaded without the key', async () => {
    const record = gateway.media.publishImage({ account: 'acct_1', seed: 9 });
    const bytes = await bytesOf(await client.images.download(record.url));
    expect(bytes).toEqual(pngImage({ seed: 9 }));
    expect(gateway.requests.map((r) => [r.origin, r.headers.authorization])).toEqual([['media', undefined]]);
  });

  test('result URLs need the key of the account that made them', async () => {
    const { data } = await client.images.generate({ model: 'imgmodel-2', prompt: 'a boat' });
    const other = testClient({
      apiKey: gateway.account('acct_2').apiKey,
      baseURL: gateway.url,
      dispatcher: agent,
    });
    await expect(other.images.download(data[0]!)).rejects.toBeInstanceOf(NotFoundError);
    const anonymous = await fetch(data[0]!.url!, { dispatcher: agent, redirect: 'manual' });
    expect(anonymous.status).toBe(401);
    await anonymous.body?.cancel();
  });

  test('b64_json entries are decoded by download (mock:b64)', async () => {
    const response = await client.images.generate({
      model: 'imgmodel-2.5-flare',
      prompt: 'mock:b64 a moth',
      n: 2,
    });
    expect(response.data).toHaveLength(2);
    expect(response.data[0]?.url).toBeUndefined();
    const download = await client.images.download(response.data[0]!);
    expect(download.contentType).toBe('image/png');
    const bytes = await bytesOf(download);
    expect(bytes).toEqual(Buffer.from(response.data[0]!.b64_json!, 'base64'));
    expect(bytes.subarray(0, 8)).toEqual(PNG_MAGIC);
    expect(gateway.requests).toHaveLength(1); // decoding makes no request
  });

  test('a refused request is never sent', async () => {
    const error = await rejection(
      // @ts-expect-error the types refuse it too: image_urls is an imgmodel-2 extension
      client.images.generate({
        model: 'imgmodel-2.5-sunburst',
        prompt: 'x',
        image_urls: ['https://example.com/a.png'],
      }),
    );
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(error.issues?.map((i) => i.path)).toEqual(['image_urls']);
    await expect(
      client.images.generate({
        model: 'imgmodel-2',
        prompt: 'x',
        image: 'a.png',
      } as unknown as ImageGenerateParams),
    ).rejects.toThrow(/images\.edit/);
    expect(gateway.requests).toHaveLength(0);
  });

  test('moderation: 400 nsfw_content_detected becomes ContentModerationError; no task', async () => {
    const tasksBefore = gateway.tasks.list().length;
    const params = {
      model: 'imgmodel-2',
      prompt: 'mock:moderation',
      nsfw_check: true,
    } as ImageGenerateParams;
    const error = await rejection(client.images.generate(params));
    expect(error).toBeInstanceOf(ContentModerationError);
    expect((error as ContentModerationError).categories).toEqual(['sexual', 'violence']);
    await expect(client.images.generateAsync(params)).rejects.toBeInstanceOf(ContentModerationError);
    expect(gateway.tasks.list()).toHaveLength(tasksBefore);
    expect(gateway.ledger.entries).toHaveLength(0);
  });

  test('a key restricted to other models gets PermissionDeniedError', async () => {
    const restricted = testClient({
      apiKey: gateway.account('acct_1').restrictedKey!,
      baseURL: gateway.url,
      dispatcher: agent,
    });
    await expect(restricted.images.generate({ model: 'imgmodel-2', prompt: 'ok' })).resolves.toBeTruthy();
    await expect(
      restricted.images.generate({ model: 'imgmodel-2.5-flare', prompt: 'no' }),
    ).rejects.toBeInstanceOf(PermissionDeniedError);
  });
});

describe('images.edit (multipart)', () => {
  test('one file goes in part image, fields as text parts before it', async () => {
    const input = pngImage({ seed: 3 });
    const response = await client.images.edit({
      model: 'imgmodel-2',
      prompt: 'make it night',
      n: 2,
      image: fileFromBase64(input.toString('base64'), { filename: 'day.png' }),
    });
    expect(response.data).toHaveLength(2);
    const [sent] = apiRequests(gateway, 'POST', '/v1/images/edits');
    expect(sent?.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(Number(sent?.headers['content-length'])).toBeGreaterThan(input.length);
    expect(partSummary(sent)).toEqual([
      { name: 'model', value: 'imgmodel-2' },
      { name: 'prompt', value: 'make it night' },
      { name: 'n', value: '2' },
      { name: 'image', filename: 'day.png', contentType: 'image/png' },
    ]);
    expect(sent?.parts?.[3]?.sha256).toBe(sha256(input));
  });

  test('several files go in repeated image[] parts in the caller order', async () => {
    const first = pngImage({ seed: 1 });
    const second = pngImage({ seed: 2, width: 32, height: 48 });
    const pathA = join(dir, 'a.png');
    await writePaddedFile(pathA, first, first.length);
    await client.images.edit({
      model: 'imgmodel-2.5-sunburst',
      prompt: 'the cat from the first image in the room of the second',
      image: [await fileFromPath(pathA), new Blob([new Uint8Array(second)], { type: 'image/png' })],
    });
    const [sent] = apiRequests(gateway, 'POST', '/v1/images/edits');
    const files = (sent?.parts ?? []).filter((p) => p.filename !== undefined);
    expect(files.map((p) => [p.name, p.filename, p.contentType, p.sha256])).toEqual([
      ['image[]', 'a.png', 'image/png', sha256(first)],
      ['image[]', 'image.png', 'image/png', sha256(second)],
    ]);
  });

  test('a mask goes in part mask after the image (imgmodel-2)', async () => {
    const input = pngImage({ seed: 4 });
    const mask = pngImage({ seed: 5 });
    await client.images.edit({ model: 'imgmodel-2', prompt: 'fill the hole', image: input, mask });
    const [sent] = apiRequests(gateway, 'POST', '/v1/images/edits');
    expect(partSummary(sent).map((p) => p.name)).toEqual(['model', 'prompt', 'image', 'mask']);
    expect(sent?.parts?.[3]?.sha256).toBe(sha256(mask));
  });

  test('a mask with a 2.5 model, or without alpha, or of another size is refused before sending', async () => {
    const input = pngImage({ seed: 4 });
    const cases = [
      { model: 'imgmodel-2.5-flare' as const, mask: pngImage() },
      { model: 'imgmodel-2' as const, mask: png(64, 64, { colorType: 2 }) },
      { model: 'imgmodel-2' as const, mask: pngImage({ width: 32, height: 32 }) },
    ];
    for (const { model, mask } of cases) {
      // A mask with a 2.5 model does not compile either; the check at run time is what is tested here.
      const params = { model, prompt: 'x', image: input, mask } as ImageEditParams;
      const error = await rejection(client.images.edit(params));
      expect(error).toBeInstanceOf(RequestValidationError);
      expect(error.issues?.map((i) => i.path)).toEqual(['mask']);
    }
    await expect(
      client.images.edit({ model: 'imgmodel-2', prompt: 'x', image: 'https://example.com/a.png' as never }),
    ).rejects.toThrow(/fileFromURL/);
    expect(gateway.requests).toHaveLength(0);
  });

  test('files that are not images are refused before sending, each at its path (edit and editAsync)', async () => {
    const text = new Blob([new TextEncoder().encode('not an image')], { type: 'image/png' });
    const one = await rejection(client.images.edit({ model: 'imgmodel-2', prompt: 'x', image: text }));
    expect(one).toBeInstanceOf(RequestValidationError);
    expect(one.issues).toEqual([
      {
        path: 'image',
        message: expect.stringContaining('must be a JPEG, PNG, GIF or WebP image by its bytes'),
      },
    ]);
    const several = await rejection(
      client.images.editAsync({
        model: 'imgmodel-2.5-sunburst',
        prompt: 'x',
        image: [pngImage(), mp4Video(), new Uint8Array(0)],
      }),
    );
    expect(several).toBeInstanceOf(RequestValidationError);
    expect(several.message).toContain('images.editAsync was not sent');
    expect(several.issues).toEqual([
      { path: 'image[1]', message: expect.stringContaining('by its bytes') },
      { path: 'image[2]', message: expect.stringContaining('must not be empty') },
    ]);
    expect(gateway.requests).toHaveLength(0);
  });

  test('a 20 MiB file is streamed from disk with its Content-Length and arrives whole', async () => {
    const path = join(dir, 'large.png');
    const size = 20 * 1024 * 1024;
    await writePaddedFile(path, pngImage({ seed: 6 }), size);
    expect((await stat(path)).size).toBe(size);
    await client.images.edit({ model: 'imgmodel-2', prompt: 'upscale', image: await fileFromPath(path) });
    const [sent] = apiRequests(gateway, 'POST', '/v1/images/edits');
    const part = sent?.parts?.find((p) => p.name === 'image');
    expect(part?.size).toBe(size);
    expect(part?.filename).toBe('large.png');
    expect(part?.sha256).toBe(await sha256File(path));
    expect(Number(sent?.headers['content-length'])).toBeGreaterThan(size);
    expect(sent?.status).toBe(200);
  });
});
