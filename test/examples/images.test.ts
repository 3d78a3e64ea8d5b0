// Covers: examples/: the image examples against the mock gateway
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import { main as generateAsync } from '../../examples/images-async.js';
import { main as edit } from '../../examples/images-edit.js';
import { main as generate } from '../../examples/images-generate.js';
import { main as upload } from '../../examples/uploads.js';
import { type MockGateway, startMockGateway } from '../../src/testing/index.js';

const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
let gateway: MockGateway;
let outDir: string;

beforeAll(async () => {
  gateway = await startMockGateway({ speed: 200 });
  outDir = await mkdtemp(join(tmpdir(), 'mediagw-image-examples-'));
});
beforeEach(() => {
  gateway.resetRequests();
  vi.spyOn(console, 'log').mockImplementation(() => undefined);
});
afterAll(async () => {
  vi.restoreAllMocks();
  await gateway.close();
  await rm(outDir, { recursive: true, force: true });
});

const opts = () => ({ baseURL: gateway.url, apiKey: gateway.apiKey, outDir });

async function expectPngs(files: string[]) {
  for (const file of files) expect((await readFile(file)).subarray(0, 8)).toEqual(PNG_MAGIC);
}

describe('image examples', () => {
  test('images-generate saves every generated image', async () => {
    const { files } = await generate(opts());
    expect(files.map((f) => basename(f))).toEqual(['crane-1.png', 'crane-2.png', 'lighthouse.png']);
    await expectPngs(files);
    const sent = gateway.requests.filter((r) => r.path === '/v1/images/generations');
    expect(sent.map((r) => (r.body as { model: string }).model)).toEqual([
      'imgmodel-2',
      'imgmodel-2.5-flare',
    ]);
  });

  test('images-edit sends two references as image[] in order, then a masked edit', async () => {
    const { files } = await edit(opts());
    expect(files.map((f) => basename(f))).toEqual(['edited-1.png', 'masked.png']);
    await expectPngs(files);
    const [references, masked] = gateway.requests.filter((r) => r.path === '/v1/images/edits');
    const fileParts = (r: typeof references) =>
      (r?.parts ?? []).filter((p) => p.filename !== undefined).map((p) => [p.name, p.filename]);
    expect(fileParts(references)).toEqual([
      ['image[]', 'input-cat.png'],
      ['image[]', 'input-room.png'],
    ]);
    expect(fileParts(masked)).toEqual([
      ['image', 'input-room.png'],
      ['mask', 'mask.png'],
    ]);
  });

  test('images-async submits once, waits and saves all three images', async () => {
    const { taskId, files } = await generateAsync({ ...opts(), pollIntervalMs: 20 });
    expect(taskId).toMatch(/^task_/);
    expect(files).toHaveLength(3);
    await expectPngs(files);
    expect(gateway.requests.filter((r) => r.path === '/v1/images/generations/async')).toHaveLength(1);
    expect(gateway.tasks.get(taskId)?.data).toMatchObject({ client_reference_id: 'postcards-001' });
  });

  test('uploads sends the file part and prints the public URL', async () => {
    const uploaded = await upload(opts());
    expect(uploaded).toMatchObject({ filename: 'upload-sample.png', content_type: 'image/png' });
    expect(uploaded.url.startsWith(gateway.mediaUrl)).toBe(true);
    expect(console.log).toHaveBeenCalledWith(expect.stringContaining(uploaded.url));
  });
});
