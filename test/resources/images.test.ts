// Covers: src/resources/images.ts
import { HttpResponse, http } from 'msw';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import type { MediaGateway } from '../../src/index.js';
import { pngImage } from '../../src/testing/index.js';
import { testClient } from '../helpers/client.js';
import { type MswServer, startMswServer } from '../helpers/msw-server.js';

// Request shapes of client.images, uploads and midjourney as a second parser (undici's
// Request.formData) reads them, and where the key goes.

let gatewaySide: MswServer;
let elsewhere: MswServer;
let client: MediaGateway;
const KEY = 'mgw_test_request_shapes_0001';
const PNG = pngImage({ seed: 1 });
const submitted = { code: 200, data: [{ status: 'submitted', task_id: 'task_1' }] };

beforeAll(async () => {
  gatewaySide = await startMswServer();
  elsewhere = await startMswServer();
  client = testClient({ apiKey: KEY, baseURL: `${gatewaySide.url}/v1/` });
});
beforeEach(() => {
  gatewaySide.requests.length = 0;
  elsewhere.requests.length = 0;
});
afterAll(async () => {
  await gatewaySide.close();
  await elsewhere.close();
});

type FormEntry = [string, string | { name: string; type: string; size: number }];

async function formOf(index = 0): Promise<FormEntry[]> {
  const seen = gatewaySide.requests[index]!;
  const request = new Request(seen.url, {
    method: 'POST',
    headers: seen.headers,
    body: new Uint8Array(seen.body),
  });
  const form = await request.formData();
  const entries: FormEntry[] = [];
  form.forEach((value, name) => {
    entries.push([
      name,
      typeof value === 'string' ? value : { name: value.name, type: value.type, size: value.size },
    ]);
  });
  return entries;
}

describe('multipart as another parser reads it', () => {
  test('editAsync: text fields, notifications as one JSON string, files as image[] in order', async () => {
    gatewaySide.use(http.post('*/v1/images/edits/async', () => HttpResponse.json(submitted)));
    const notifications = { webhook: { endpoint_id: 'whep_1', events: ['task.completed' as const] } };
    const submission = await client.images.editAsync({
      model: 'imgmodel-2',
      prompt: 'merge',
      n: 1,
      quality: 'high',
      image: [PNG, new Blob([new Uint8Array(PNG)], { type: 'image/png' })],
      notifications,
      client_reference_id: 'r-1',
    });
    expect(submission.task_id).toBe('task_1');
    const seen = gatewaySide.requests[0]!;
    expect(seen.url.pathname).toBe('/v1/images/edits/async');
    expect(Number(seen.headers.get('content-length'))).toBe(seen.body.length);
    expect(await formOf()).toEqual([
      ['model', 'imgmodel-2'],
      ['prompt', 'merge'],
      ['n', '1'],
      ['quality', 'high'],
      ['notifications', JSON.stringify(notifications)],
      ['client_reference_id', 'r-1'],
      ['image[]', { name: 'image.png', type: 'image/png', size: PNG.length }],
      ['image[]', { name: 'image.png', type: 'image/png', size: PNG.length }],
    ]);
  });

  test('uploads.image: exactly one part, file', async () => {
    gatewaySide.use(
      http.post('*/v1/uploads/images', () =>
        HttpResponse.json({
          url: 'u',
          filename: 'a.png',
          content_type: 'image/png',
          bytes: 1,
          created_at: 1,
        }),
      ),
    );
    await client.uploads.image(new File([new Uint8Array(PNG)], 'a.png', { type: 'image/png' }));
    expect(await formOf()).toEqual([['file', { name: 'a.png', type: 'image/png', size: PNG.length }]]);
  });
});

describe('JSON submissions and task queries', () => {
  test('generateAsync and midjourney send exactly the fields given', async () => {
    gatewaySide.use(
      http.post('*/v1/images/generations/async', () => HttpResponse.json(submitted)),
      http.post('*/v1/midjourney/generations', () => HttpResponse.json(submitted)),
    );
    await client.images.generateAsync({ model: 'imgmodel-2.5-flare', prompt: 'p', client_reference_id: 'x' });
    await client.midjourney.generate({ prompt: 'p', anything: { nested: [1] } });
    expect(gatewaySide.requests.map((r) => [r.url.pathname, JSON.parse(r.body.toString())])).toEqual([
      [
        '/v1/images/generations/async',
        { model: 'imgmodel-2.5-flare', prompt: 'p', client_reference_id: 'x' },
      ],
      ['/v1/midjourney/generations', { prompt: 'p', anything: { nested: [1] } }],
    ]);
  });

  test('getTask encodes the ID and passes the model', async () => {
    gatewaySide.use(
      http.get('*/v1/tasks/:id', () =>
        HttpResponse.json({
          code: 200,
          data: { status: 'completed', result: { images: ['https://x/1.png'] } },
        }),
      ),
    );
    const task = await client.images.getTask('task/1 2', { model: 'imgmodel-2' });
    expect(gatewaySide.requests[0]?.url.pathname).toBe('/v1/tasks/task%2F1%202');
    expect(gatewaySide.requests[0]?.url.searchParams.get('model')).toBe('imgmodel-2');
    expect(task).toMatchObject({
      task_id: 'task/1 2',
      state: 'succeeded',
      images: [{ url: 'https://x/1.png' }],
    });
  });
});

describe('images.download', () => {
  beforeEach(() => {
    const png = () => new HttpResponse(new Uint8Array(PNG), { headers: { 'content-type': 'image/png' } });
    gatewaySide.use(
      http.get('*/files/1.png', png),
      http.get(
        '*/moved.png',
        () => new HttpResponse(null, { status: 302, headers: { location: `${elsewhere.url}/x.png` } }),
      ),
    );
    elsewhere.use(http.get('*/x.png', png));
  });

  test("sends the key to the gateway's origin only", async () => {
    await (await client.images.download({ url: `${gatewaySide.url}/files/1.png` })).arrayBuffer();
    await (await client.images.download(`${elsewhere.url}/x.png`)).arrayBuffer();
    expect(gatewaySide.requests[0]?.headers.get('authorization')).toBe(`Bearer ${KEY}`);
    expect(elsewhere.requests[0]?.headers.get('authorization')).toBeNull();
  });

  test('drops the key when the gateway redirects elsewhere', async () => {
    const bytes = Buffer.from(
      await (await client.images.download(`${gatewaySide.url}/moved.png`)).arrayBuffer(),
    );
    expect(bytes).toEqual(PNG);
    expect(gatewaySide.requests[0]?.headers.get('authorization')).toBe(`Bearer ${KEY}`);
    expect(elsewhere.requests[0]?.headers.get('authorization')).toBeNull();
  });

  test('decodes b64_json without a request and names its type', async () => {
    const download = await client.images.download({ b64_json: PNG.toString('base64') });
    expect(download.contentType).toBe('image/png');
    expect(download.contentLength).toBe(PNG.length);
    expect(Buffer.from(await download.arrayBuffer())).toEqual(PNG);
    await expect(client.images.download({} as { url: string })).rejects.toThrow(/url or b64_json/);
    expect(gatewaySide.requests).toHaveLength(0);
  });
});
