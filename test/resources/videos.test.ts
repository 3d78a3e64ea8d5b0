// Covers: src/resources/videos.ts
import { HttpResponse, http } from 'msw';
import { describe, expect, test } from 'vitest';
import {
  AmbiguousSubmissionError,
  APIUserAbortError,
  RequestValidationError,
  TaskFailedError,
} from '../../src/core/errors.js';
import { testClient } from '../helpers/client.js';
import { type MswServer, useMswServer } from '../helpers/msw-server.js';
import { rejection } from '../helpers/rejection.js';

let server: MswServer;
useMswServer((started) => {
  server = started;
});

const client = () => testClient({ apiKey: 'k_videos', baseURL: `${server.url}/v1/` });
const envelope = { code: 200, data: [{ status: 'submitted', task_id: 'task_v1' }], error: null };

describe('videos.create', () => {
  test('sends exactly the fields the caller set, to /v1/videos/generations', async () => {
    server.use(http.post('*/v1/videos/generations', () => HttpResponse.json(envelope)));
    const params = { model: 'vidmodel-2.5', prompt: 'a lighthouse', seed: 0 } as const;
    const submission = await client().videos.create(params);
    expect(submission).toMatchObject({ task_id: 'task_v1', status: 'submitted' });
    const [seen] = server.requests;
    expect(seen?.url.pathname).toBe('/v1/videos/generations');
    expect(JSON.parse(seen?.body.toString() ?? '')).toEqual(params);
  });

  test('refuses an invalid request before sending anything', async () => {
    const error = await rejection(
      client().videos.create({ model: 'vidmodel-2.0-mini', prompt: 'x', duration: 20 } as never),
    );
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(error.issues?.[0]?.path).toBe('duration');
    expect(server.requests).toHaveLength(0);
  });
});

describe('videos.createAndWait', () => {
  test('an unreadable submission answer is ambiguous and the wait never starts', async () => {
    server.use(
      http.post(
        '*/v1/videos/generations',
        () => new HttpResponse('{"code":200,"data":[{"task', { status: 200 }),
      ),
      http.get('*/v1/videos/:id', () => HttpResponse.json({ id: 'x', status: 'completed' })),
    );
    const submitted: string[] = [];
    const error = await rejection(
      client().videos.createAndWait(
        { model: 'vidmodel-2.0-mini', prompt: 'kite', duration: 5 },
        { onSubmitted: (id) => submitted.push(id) },
      ),
    );
    expect(error).toBeInstanceOf(AmbiguousSubmissionError);
    expect(submitted).toEqual([]);
    expect(server.requests.map((r) => r.method)).toEqual(['POST']);
  });

  test('submits once, reports the task ID, then polls until completed', async () => {
    let polls = 0;
    server.use(
      http.post('*/v1/videos/generations', () => HttpResponse.json(envelope)),
      http.get('*/v1/videos/:id', ({ params }) =>
        HttpResponse.json({
          id: params.id,
          object: 'video',
          status: ++polls < 2 ? 'in_progress' : 'completed',
          progress: polls < 2 ? '50%' : '100%',
        }),
      ),
    );
    const submitted: string[] = [];
    const progress: string[] = [];
    const task = await client().videos.createAndWait(
      { model: 'vidmodel-2.0-mini', prompt: 'kite', duration: 5 },
      {
        interval: 5,
        onSubmitted: (id) => submitted.push(id),
        onProgress: (t) => progress.push(String(t.progress)),
      },
    );
    expect(task.status).toBe('completed');
    expect(submitted).toEqual(['task_v1']);
    expect(progress).toEqual(['50%', '100%']);
    expect(server.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
  });

  test("the caller's abort while onSubmitted never settles ends the call, with the task ID", async () => {
    server.use(http.post('*/v1/videos/generations', () => HttpResponse.json(envelope)));
    const controller = new AbortController();
    const call = rejection(
      client().videos.createAndWait(
        { model: 'vidmodel-2.0-mini', prompt: 'kite', duration: 5 },
        {
          signal: controller.signal,
          onSubmitted: () => {
            setTimeout(() => controller.abort(new Error('user left')), 10);
            return new Promise(() => {});
          },
        },
      ),
    );
    const error = await call;
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect(error.taskId).toBe('task_v1');
    expect(error.message).toMatch(/aborted while onSubmitted ran.*task task_v1 was submitted and is billed/);
    expect(server.requests.map((r) => r.method)).toEqual(['POST']);
  });

  test("the caller's abort while onProgress never settles ends the wait", async () => {
    server.use(
      http.get('*/v1/videos/:id', ({ params }) => HttpResponse.json({ id: params.id, status: 'queued' })),
    );
    const controller = new AbortController();
    const error = await rejection(
      client().videos.waitForTask('task_v1', {
        interval: 5,
        signal: controller.signal,
        onProgress: () => {
          setTimeout(() => controller.abort(new Error('user left')), 10);
          return new Promise(() => {});
        },
      }),
    );
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect((error.cause as Error).message).toBe('user left');
  });

  test('a failed task raises TaskFailedError with its code', async () => {
    server.use(
      http.get('*/v1/videos/:id', ({ params }) =>
        HttpResponse.json({ id: params.id, status: 'failed', error: { code: 'task_failed', message: 'no' } }),
      ),
    );
    const error = await rejection(client().videos.waitForTask('task_v1', { interval: 5 }));
    expect(error).toBeInstanceOf(TaskFailedError);
    expect(error.code).toBe('task_failed');
    // The error names its kind, and holds the video task as last read.
    expect(error).toMatchObject({ kind: 'video', task: { id: 'task_v1', status: 'failed' } });
  });
});

describe('videos paths', () => {
  test('retrieve, retrieveCompat, content and last frame', async () => {
    server.use(
      http.get('*/v1/videos/:id', ({ params }) => HttpResponse.json({ id: params.id, status: 'queued' })),
      http.get('*/v1/video/generations/:id', ({ params }) =>
        HttpResponse.json({ code: 'success', message: '', data: { task_id: params.id, status: 'queued' } }),
      ),
      http.get(
        '*/v1/videos/:id/content',
        () => new HttpResponse('MP4', { headers: { 'content-type': 'video/mp4' } }),
      ),
      http.get(
        '*/v1/videos/:id/last-frame',
        () => new HttpResponse('PNG', { headers: { 'content-type': 'image/png' } }),
      ),
    );
    const videos = client().videos;
    expect((await videos.retrieve('a/b')).id).toBe('a/b');
    expect((await videos.retrieveCompat('t2')).data.task_id).toBe('t2');
    const content = await videos.downloadContent('t3');
    expect(content.contentType).toBe('video/mp4');
    expect(Buffer.from(await content.arrayBuffer()).toString()).toBe('MP4');
    const frame = await videos.downloadLastFrame('t4');
    expect(Buffer.from(await frame.arrayBuffer()).toString()).toBe('PNG');
    expect(server.requests.map((r) => r.url.pathname)).toEqual([
      '/v1/videos/a%2Fb',
      '/v1/video/generations/t2',
      '/v1/videos/t3/content',
      '/v1/videos/t4/last-frame',
    ]);
  });
});
