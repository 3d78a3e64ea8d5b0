// Covers: src/core/arguments.ts
import { afterAll, beforeEach, describe, expect, test } from 'vitest';
import { RequestValidationError } from '../../src/index.js';
import { pngImage, startMockGateway } from '../../src/testing/index.js';
import { testClient } from '../helpers/client.js';

// Every public method, called as plain JavaScript may call it: an argument left out, null, a
// number or a string where an object belongs. Each is refused with a RequestValidationError that
// names the argument, and nothing reaches the gateway (a mock on 127.0.0.1).

const gateway = await startMockGateway({ clock: 'manual' });
const client = testClient({ gateway });
beforeEach(() => gateway.resetRequests());
afterAll(() => gateway.close());

// Any method: the table calls each as untyped JavaScript would.
type Call = (...args: never[]) => unknown;

/** A parameter: its name in messages, whether it may be left out, and the value that passes. */
interface Param {
  /** The path the refusal names for `null` or a number (and for a missing value, unless `missingPath`). */
  path: string;
  good: unknown;
  optional?: boolean;
  missingPath?: string;
}

const id = (path: string): Param => ({ path, good: 'id_1' });
const options: Param = { path: 'options', good: {}, optional: true };
const params = (good: unknown): Param => ({ path: '', good });

const image = { model: 'imgmodel-2', prompt: 'a kite' } as const;
const video = { model: 'vidmodel-2.0-mini', prompt: 'a kite' } as const;

const METHODS: Record<string, [Call, Param[]]> = {
  'images.generate': [client.images.generate, [params(image), options]],
  'images.generateAsync': [client.images.generateAsync, [params(image), options]],
  'images.edit': [client.images.edit, [params({ ...image, image: pngImage() }), options]],
  'images.editAsync': [client.images.editAsync, [params({ ...image, image: pngImage() }), options]],
  'images.getTask': [
    client.images.getTask,
    [id('taskId'), { path: 'params', good: { model: 'imgmodel-2' }, missingPath: 'model' }, options],
  ],
  'images.waitForTask': [
    client.images.waitForTask,
    [id('taskId'), { path: 'options', good: { model: 'imgmodel-2' } }],
  ],
  'images.download': [
    client.images.download,
    [{ path: 'entry', good: { url: `${gateway.url}/x.png` } }, options],
  ],
  'videos.create': [client.videos.create, [params(video), options]],
  'videos.retrieve': [client.videos.retrieve, [id('taskId'), options]],
  'videos.retrieveCompat': [client.videos.retrieveCompat, [id('taskId'), options]],
  'videos.waitForTask': [client.videos.waitForTask, [id('taskId'), options]],
  'videos.createAndWait': [client.videos.createAndWait, [params(video), options]],
  'videos.downloadContent': [client.videos.downloadContent, [id('taskId'), options]],
  'videos.downloadLastFrame': [client.videos.downloadLastFrame, [id('taskId'), options]],
  'videos.estimateReservation': [
    client.videos.estimateReservation,
    [params(video), { path: 'hints', good: {}, optional: true }],
  ],
  'embeddings.create': [client.embeddings.create, [params({ model: 'bge-m3', input: 'a' }), options]],
  'embeddings.createBatched': [
    client.embeddings.createBatched,
    [{ path: 'texts', good: ['a'] }, { path: 'params', good: { model: 'bge-m3' } }, options],
  ],
  'uploads.image': [client.uploads.image, [{ path: 'file', good: pngImage() }, options]],
  'library.groups.create': [client.library.groups.create, [params({ name: 'g' }), options]],
  'library.groups.list': [client.library.groups.list, [{ path: '', good: {}, optional: true }, options]],
  'library.groups.retrieve': [client.library.groups.retrieve, [id('groupId'), options]],
  'library.groups.update': [client.library.groups.update, [id('groupId'), params({ name: 'h' }), options]],
  'library.groups.delete': [client.library.groups.delete, [id('groupId'), options]],
  'library.assets.submit': [
    client.library.assets.submit,
    [params({ group_id: 'g_1', assets: [{ url: 'https://cdn.example.com/a.png' }] }), options],
  ],
  'library.assets.list': [client.library.assets.list, [{ path: '', good: {}, optional: true }, options]],
  'library.assets.retrieve': [client.library.assets.retrieve, [id('assetId'), options]],
  'library.assets.update': [client.library.assets.update, [id('assetId'), params({ name: 'n' }), options]],
  'library.assets.delete': [client.library.assets.delete, [id('assetId'), options]],
  'library.reviewTasks.retrieve': [client.library.reviewTasks.retrieve, [id('reviewTaskId'), options]],
  'library.reviewTasks.waitForTask': [client.library.reviewTasks.waitForTask, [id('reviewTaskId'), options]],
  'webhooks.capabilities': [client.webhooks.capabilities, [params({ model: 'vidmodel-2.5' }), options]],
  'webhooks.endpoints.create': [
    client.webhooks.endpoints.create,
    [params({ url: 'https://hooks.example.com/in' }), options],
  ],
  'webhooks.endpoints.verify': [client.webhooks.endpoints.verify, [id('endpointId'), options]],
  'webhooks.endpoints.update': [
    client.webhooks.endpoints.update,
    [id('endpointId'), params({ enabled: true }), options],
  ],
  'webhooks.endpoints.rotateSecret': [client.webhooks.endpoints.rotateSecret, [id('endpointId'), options]],
  'webhooks.events.list': [client.webhooks.events.list, [params({ task_id: 't_1' }), options]],
  'webhooks.events.deliveries': [client.webhooks.events.deliveries, [id('eventId'), options]],
  'webhooks.events.redeliver': [client.webhooks.events.redeliver, [id('eventId'), options]],
  'midjourney.generate': [client.midjourney.generate, [params({ prompt: 'a moth' }), options]],
};

/** The receivers of the methods above, by the name their calls start with. */
const RESOURCES: Record<string, object> = {
  images: client.images,
  videos: client.videos,
  embeddings: client.embeddings,
  uploads: client.uploads,
  'library.groups': client.library.groups,
  'library.assets': client.library.assets,
  'library.reviewTasks': client.library.reviewTasks,
  webhooks: client.webhooks,
  'webhooks.endpoints': client.webhooks.endpoints,
  'webhooks.events': client.webhooks.events,
  midjourney: client.midjourney,
};
// Private helpers TypeScript keeps on the prototype; no caller can name them.
const PRIVATE = new Set(['images.multipart', 'webhooks.endpoints.post']);

test('the table holds every public method of every resource', () => {
  const found = Object.entries(RESOURCES).flatMap(([prefix, resource]) =>
    Object.getOwnPropertyNames(Object.getPrototypeOf(resource))
      .filter((name) => name !== 'constructor')
      .map((name) => `${prefix}.${name}`)
      .filter((name) => !PRIVATE.has(name)),
  );
  expect(found.sort()).toEqual(Object.keys(METHODS).sort());
});

/** Calls `name` with its good arguments, one of them replaced (or cut off, for a missing last one). */
async function refusal(name: string, position: number, bad: unknown, missing: boolean) {
  const [fn, list] = METHODS[name]!;
  const receiver = RESOURCES[name.slice(0, name.lastIndexOf('.'))];
  const args = list.map((p) => p.good);
  args[position] = bad;
  if (missing && position === args.length - 1) args.length = position;
  try {
    // A synchronous method throws; the others reject. Either way: the SDK's error, never a TypeError.
    await (fn as (...a: unknown[]) => unknown).apply(receiver, args);
  } catch (error) {
    return error;
  }
  return undefined;
}

const rows = Object.entries(METHODS).flatMap(([name, [, list]]) =>
  list.flatMap((param, position) => [
    ...(param.optional ? [] : [{ name, position, label: 'missing', bad: undefined, missing: true }]),
    { name, position, label: 'null', bad: null, missing: false },
    { name, position, label: 'a number', bad: 42, missing: false },
    ...(param.path === 'options' || param.path === 'hints' || param.path === 'params'
      ? [{ name, position, label: 'a string', bad: 'fast', missing: false }]
      : []),
  ]),
);

describe.each(Object.keys(METHODS))('%s', (name) => {
  test.each(rows.filter((r) => r.name === name).map((r) => [r.position, r.label, r]))(
    'argument %i as %s: RequestValidationError naming it, nothing sent',
    async (_position, _label, row) => {
      const param = METHODS[name]![1][row.position]!;
      const error = await refusal(name, row.position, row.bad, row.missing);
      expect(error).toBeInstanceOf(RequestValidationError);
      const expected = row.missing && param.missingPath ? param.missingPath : param.path;
      expect((error as RequestValidationError).issues.map((i) => i.path)).toEqual([expected]);
      expect((error as Error).message).toContain(' was not sent: ');
      expect(gateway.requests).toHaveLength(0);
    },
  );
});

describe('the model of an image-task query is checked before sending', () => {
  test.each([
    ['a video model', 'vidmodel-2.5', 'is a video model: read video tasks with videos.retrieve'],
    ['an embedding model', 'bge-m3', 'is an embedding model'],
    ['an unknown imgmodel', 'imgmodel-9', 'unknown image model imgmodel-9 (known: imgmodel-2'],
    ['an empty string', '', 'got an empty string'],
    ['a number', 2, 'got number 2'],
  ])('%s', async (_label, model, fragment) => {
    const waited = await client.images.waitForTask('task_1', { model } as never).catch((e: unknown) => e);
    expect((waited as RequestValidationError).issues).toEqual([
      { path: 'options.model', message: expect.stringContaining(fragment) },
    ]);
    const read = await client.images.getTask('task_1', { model } as never).catch((e: unknown) => e);
    expect((read as RequestValidationError).issues).toEqual([
      { path: 'model', message: expect.stringContaining(fragment) },
    ]);
    expect(gateway.requests).toHaveLength(0);
  });

  test('a Midjourney-family model, which the spec does not list, is sent', async () => {
    const error = await client.images.getTask('task_1', { model: 'mj-v7' }).catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(RequestValidationError);
    expect(gateway.requests.map((r) => r.path)).toEqual(['/v1/tasks/task_1']);
  });

  test('videos.waitForTask refuses a model that is not a video model', async () => {
    const error = await client.videos.waitForTask('task_1', { model: 'imgmodel-2' }).catch((e: unknown) => e);
    expect((error as RequestValidationError).issues).toEqual([
      { path: 'options.model', message: expect.stringContaining('unknown video model imgmodel-2') },
    ]);
    expect(gateway.requests).toHaveLength(0);
  });
});

test('estimateReservation names a hint of the wrong type', () => {
  expect(() => client.videos.estimateReservation(video, { videoDurations: 5 } as never)).toThrow(
    /hints\.videoDurations: must be an array of seconds/,
  );
  expect(() => client.videos.estimateReservation(video, { prices: 'cheap' } as never)).toThrow(
    /hints\.prices: must be an object of prices/,
  );
});
