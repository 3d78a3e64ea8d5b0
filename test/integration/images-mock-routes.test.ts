// Covers: the mock gateway's image routes
import { Agent, FormData, fetch } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { RequestValidationError } from '../../src/core/errors.js';
import { type MockGateway, pngImage, startMockGateway } from '../../src/testing/index.js';
import { png } from '../core/image-fixtures.js';
import { testClient } from '../helpers/client.js';

// The mock gateway's image routes as a client other than the SDK sees them: what they refuse
// (with the spec's error shapes) and what they record.

let gateway: MockGateway;
const agent = new Agent({ keepAliveTimeout: 1_000 });

beforeAll(async () => {
  gateway = await startMockGateway({ clock: 'manual' });
});
beforeEach(() => gateway.resetRequests());
afterAll(async () => {
  await gateway.close();
  await agent.close();
});

async function send(method: string, path: string, body?: unknown) {
  const init: Parameters<typeof fetch>[1] = {
    method,
    dispatcher: agent,
    headers: { authorization: `Bearer ${gateway.apiKey}` },
  };
  if (body instanceof FormData) init.body = body;
  else if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers = { ...init.headers, 'content-type': 'application/json' };
  }
  const response = await fetch(`${gateway.url}${path}`, init);
  return { status: response.status, body: (await response.json()) as { code?: string; message?: string } };
}

function form(fields: Record<string, string>, files: Array<[string, Uint8Array, string?]> = []): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  for (const [name, bytes, filename = 'f.png'] of files) {
    data.append(name, new Blob([bytes as Uint8Array<ArrayBuffer>], { type: 'image/png' }), filename);
  }
  return data;
}

const base = { model: 'imgmodel-2', prompt: 'x' };

describe('refusals of the image routes: 400 {code, message, data: null}, no task', () => {
  test.each([
    [
      'a JSON body with image',
      '/v1/images/generations',
      { ...base, image: 'https://a/b.png' },
      /image: .*images\.edit/,
    ],
    ['a JSON body with images', '/v1/images/generations/async', { ...base, images: ['x'] }, /images: /],
    [
      'image_urls with a 2.5 model',
      '/v1/images/generations',
      { ...base, model: 'imgmodel-2.5-flare', image_urls: ['https://a/b.png'] },
      /image_urls/,
    ],
    ['an unknown model', '/v1/images/generations', { ...base, model: 'imgmodel-3' }, /model/],
    ['an empty prompt', '/v1/images/generations', { ...base, prompt: '  ' }, /prompt/],
    ['n of zero', '/v1/images/generations', { ...base, n: 0 }, /^n: /],
    ['n over the route maximum', '/v1/images/generations', { ...base, n: 11 }, /n: must be at most 10/],
    ['a malformed size', '/v1/images/generations', { ...base, size: '1024*1024' }, /size/],
    [
      'notifications on the synchronous route',
      '/v1/images/generations',
      { ...base, client_reference_id: 'a' },
      /client_reference_id/,
    ],
    [
      'notifications with callback_url',
      '/v1/images/generations/async',
      {
        ...base,
        callback_url: 'https://a/',
        notifications: { webhook: { endpoint_id: 'whep_1', events: ['task.completed'] } },
      },
      /callback_url|webhook/,
    ],
  ])('JSON: %s', async (_name, path, body, message) => {
    const answer = await send('POST', path, body);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ code: 'invalid_request', data: null });
    expect(answer.body.message).toMatch(message);
  });

  test.each(['/v1/images/generations', '/v1/images/generations/async'])(
    'an edit (multipart) sent to %s is refused there',
    async (path) => {
      const answer = await send('POST', path, form(base, [['image', pngImage()]]));
      expect(answer.status).toBe(400);
      expect(answer.body.message).toMatch(/an edit must not be sent to the generations endpoints/);
    },
  );

  test.each([
    [
      'a URL as image',
      form({ ...base, image: 'https://example.com/a.png' }),
      /^image: URLs or base64 text are not accepted/,
    ],
    [
      'base64 text as image[]',
      form({ ...base, 'image[]': pngImage().toString('base64') }),
      /^image\[\]: URLs or base64 text/,
    ],
    ['no image file', form(base), /image: is required/],
    [
      'a file that is not an image',
      form(base, [['image', Buffer.from('hello, not an image')]]),
      /image: must be a PNG, JPEG/,
    ],
    [
      'mask with a 2.5 model',
      form({ ...base, model: 'imgmodel-2.5-sunburst' }, [
        ['image', pngImage()],
        ['mask', pngImage()],
      ]),
      /mask: .*imgmodel-2/,
    ],
    [
      'a mask without alpha',
      form(base, [
        ['image', pngImage()],
        ['mask', png(64, 64, { colorType: 2 })],
      ]),
      /mask: must be a PNG with an alpha channel/,
    ],
    [
      'a mask of another size',
      form(base, [
        ['image', pngImage()],
        ['mask', pngImage({ width: 8, height: 8 })],
      ]),
      /mask: must have the same dimensions/,
    ],
    ['a non-integer n', form({ ...base, n: '1.5' }, [['image', pngImage()]]), /^n: /],
    [
      'image_urls with a 2.5 model',
      form({ ...base, model: 'imgmodel-2.5-flare', image_urls: '["https://example.com/a.png"]' }, [
        ['image', pngImage()],
      ]),
      /^image_urls: is not supported by imgmodel-2.5-flare/,
    ],
    [
      'image_urls that is not a JSON list',
      form({ ...base, image_urls: 'https://example.com/a.png' }, [['image', pngImage()]]),
      /^image_urls: must be an array/,
    ],
  ])('multipart edits: %s', async (_name, body, message) => {
    const answer = await send('POST', '/v1/images/edits', body);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ code: 'invalid_request', data: null });
    expect(answer.body.message).toMatch(message);
  });

  test('a JSON body to the edits route is refused', async () => {
    const answer = await send('POST', '/v1/images/edits', { ...base, image_urls: ['https://a/b.png'] });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toMatch(/multipart/);
  });

  test('moderation refuses the async routes before a task exists', async () => {
    const before = gateway.tasks.list().length;
    const answer = await send(
      'POST',
      '/v1/images/edits/async',
      form({ ...base, prompt: 'mock:moderation', nsfw_check: 'true' }, [['image', pngImage()]]),
    );
    expect(answer).toEqual({
      status: 400,
      body: { code: 'nsfw_content_detected', message: 'flagged categories: sexual, violence', data: null },
    });
    expect(gateway.tasks.list()).toHaveLength(before);
    // Without nsfw_check the same prompt is accepted.
    const accepted = await send('POST', '/v1/images/generations/async', {
      ...base,
      prompt: 'mock:moderation',
    });
    expect(accepted.status).toBe(200);
    expect(gateway.tasks.list()).toHaveLength(before + 1);
  });
});

// spec: Images, edits — form fields are "`model`, `prompt`, `n`, `size` and the other optional
// fields above", so `image_urls` (an imgmodel-2 extension) is an edit field too: the SDK sends
// it as one JSON-string part and the mock reads it back by the same rule (editFieldFromText).
describe('image_urls and size on both sides', () => {
  const client = () => testClient({ gateway });
  const urls = ['https://example.com/a.png', 'https://example.com/b.png'];

  test('an imgmodel-2 edit with image_urls is sent as a JSON-string part and accepted', async () => {
    const { task_id } = await client().images.editAsync({
      model: 'imgmodel-2',
      prompt: 'blend them',
      image: pngImage(),
      image_urls: urls,
    });
    expect(task_id).toMatch(/^task_/);
    const part = gateway.requests.at(-1)?.parts?.find((p) => p.name === 'image_urls');
    expect(part?.value).toBe(JSON.stringify(urls));
  });

  test('a 2.5 edit with image_urls is refused before sending', async () => {
    const error = await client()
      // @ts-expect-error the types refuse it too: image_urls is an imgmodel-2 extension
      .images.edit({ model: 'imgmodel-2.5-sunburst', prompt: 'x', image: pngImage(), image_urls: urls })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(gateway.requests).toHaveLength(0);
  });

  test.each([
    ['auto', 200],
    ['1024x1536', 200],
    ['1024*1536', 400],
    ['16:9', 400],
  ])('size %s answers %i on both sides', async (size, status) => {
    const body = { model: 'imgmodel-2', prompt: 'x', size } as const;
    const answer = await send('POST', '/v1/images/generations', body);
    expect(answer.status).toBe(status);
    const sdk = await client()
      .images.generate(body)
      .then(
        () => 200,
        (e: unknown) => (e instanceof RequestValidationError ? 400 : e),
      );
    expect(sdk).toBe(status);
  });
});

describe('what the routes answer and record', () => {
  test('a multipart edit is recorded part by part; the async envelope names the task', async () => {
    const answer = await send(
      'POST',
      '/v1/images/edits/async',
      form({ ...base, n: '2', client_reference_id: 'ref-1' }, [
        ['image[]', pngImage({ seed: 1 }), 'one.png'],
        ['image[]', pngImage({ seed: 2 }), 'two.png'],
      ]),
    );
    expect(answer.status).toBe(200);
    const data = (
      answer.body as unknown as { code: number; data: Array<{ status: string; task_id: string }> }
    ).data;
    expect(data).toEqual([{ status: 'submitted', task_id: expect.stringMatching(/^task_/) }]);
    const [request] = gateway.requests;
    expect(request?.parts?.map((p) => [p.name, p.filename])).toEqual([
      ['model', undefined],
      ['prompt', undefined],
      ['n', undefined],
      ['client_reference_id', undefined],
      ['image[]', 'one.png'],
      ['image[]', 'two.png'],
    ]);
    const task = gateway.tasks.get(data[0]!.task_id)!;
    expect(task).toMatchObject({ kind: 'image', model: 'imgmodel-2', account: 'acct_1' });
    await gateway.clock.advance(10_000);
    expect(gateway.media.forTask(task.id)).toHaveLength(2);
  });

  test('GET /v1/tasks/:id renders the image task: model required, the wrong one is 404', async () => {
    const { body } = await send('POST', '/v1/images/generations/async', { ...base, n: 2 });
    const id = (body as unknown as { data: Array<{ task_id: string }> }).data[0]!.task_id;
    expect((await send('GET', `/v1/tasks/${id}`)).status).toBe(400);
    expect((await send('GET', `/v1/tasks/${id}?model=imgmodel-2.5-flare`)).status).toBe(404);
    expect((await send('GET', '/v1/tasks/task_unknown?model=imgmodel-2')).status).toBe(404);
    const pending = await send('GET', `/v1/tasks/${id}?model=imgmodel-2`);
    expect(pending).toEqual({
      status: 200,
      body: { code: 200, data: { task_id: id, status: 'pending', progress: 0, result: { images: [] } } },
    });
    await gateway.clock.advance(10_000);
    const done = (await send('GET', `/v1/tasks/${id}?model=imgmodel-2`)).body as unknown as {
      data: { status: string; result: { images: Array<{ url: string }> } };
    };
    expect(done.data.status).toBe('succeeded');
    expect(done.data.result.images).toHaveLength(2);
    expect(done.data.result.images[0]?.url).toMatch(new RegExp(`^${gateway.url}/v1/images/results/`));
  });

  test('a video task is not served by the image task query', async () => {
    const video = gateway.tasks.create({ account: 'acct_1', kind: 'video', model: 'vidmodel-2.5' });
    const answer = await send('GET', `/v1/tasks/${video.id}?model=vidmodel-2.5`);
    expect(answer.status).toBe(404);
    expect(answer.body).toMatchObject({ code: 'not_found', data: null });
  });

  test('a failed task carries its error and no images', async () => {
    const { body } = await send('POST', '/v1/images/generations/async', { ...base, prompt: 'mock:fail' });
    const id = (body as unknown as { data: Array<{ task_id: string }> }).data[0]!.task_id;
    await gateway.clock.advance(10_000);
    const failed = await send('GET', `/v1/tasks/${id}?model=imgmodel-2`);
    expect(failed.body).toEqual({
      code: 200,
      data: {
        task_id: id,
        status: 'failed',
        progress: 100,
        result: { images: [] },
        error: { code: 'task_failed', message: 'mock: generation failed' },
      },
    });
    expect(gateway.media.forTask(id)).toHaveLength(0);
  });
});
