// Covers: src/core/arguments.ts
import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { MediaGateway } from '../../src/client.js';
import { APIConnectionError, RequestValidationError } from '../../src/core/errors.js';
import { testClient } from '../helpers/client.js';
import { type RawServer, refusedPort, startRawServer } from '../helpers/raw-server.js';
import { rejection } from '../helpers/rejection.js';

// Every method that puts a caller's ID into the request path, with the parameter it names.
type Call = (client: MediaGateway, id: string) => PromiseLike<unknown>;
const CALLS: Array<[string, string, Call]> = [
  ['videos.retrieve', 'taskId', (c, id) => c.videos.retrieve(id)],
  ['videos.retrieveCompat', 'taskId', (c, id) => c.videos.retrieveCompat(id)],
  ['videos.downloadContent', 'taskId', (c, id) => c.videos.downloadContent(id)],
  ['videos.downloadLastFrame', 'taskId', (c, id) => c.videos.downloadLastFrame(id)],
  ['images.getTask', 'taskId', (c, id) => c.images.getTask(id, { model: 'imgmodel-2' })],
  ['library.groups.retrieve', 'groupId', (c, id) => c.library.groups.retrieve(id)],
  ['library.groups.update', 'groupId', (c, id) => c.library.groups.update(id, { name: 'n' })],
  ['library.groups.delete', 'groupId', (c, id) => c.library.groups.delete(id)],
  ['library.assets.retrieve', 'assetId', (c, id) => c.library.assets.retrieve(id)],
  ['library.assets.update', 'assetId', (c, id) => c.library.assets.update(id, { name: 'n' })],
  ['library.assets.delete', 'assetId', (c, id) => c.library.assets.delete(id)],
  ['library.reviewTasks.retrieve', 'reviewTaskId', (c, id) => c.library.reviewTasks.retrieve(id)],
  ['webhooks.endpoints.verify', 'endpointId', (c, id) => c.webhooks.endpoints.verify(id)],
  ['webhooks.endpoints.update', 'endpointId', (c, id) => c.webhooks.endpoints.update(id, { enabled: true })],
  ['webhooks.endpoints.rotateSecret', 'endpointId', (c, id) => c.webhooks.endpoints.rotateSecret(id)],
  ['webhooks.events.deliveries', 'eventId', (c, id) => c.webhooks.events.deliveries(id)],
  ['webhooks.events.redeliver', 'eventId', (c, id) => c.webhooks.events.redeliver(id)],
];

const throwingToString = {
  toString(): string {
    throw new RangeError('an ID that cannot be turned into text');
  },
} as unknown as string;

const BAD_IDS: Array<[string, string, RegExp]> = [
  ['a lone surrogate', 'task_\uD800', /lone surrogate \(U\+D800 at index 5\)/],
  ['an object whose toString throws', throwingToString, /must be a string ID, not object/],
  ['an empty string', '', /must be a non-empty string ID/],
];

let gateway: RawServer;
let client: MediaGateway;
beforeAll(async () => {
  gateway = await startRawServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"id":"x","code":0,"data":{"id":"x"}}');
  });
  client = testClient({ apiKey: 'mgw_ids_key_000011112222', baseURL: gateway.url });
});
afterAll(() => gateway.close());

describe('an ID that cannot be a path segment', () => {
  describe.each(BAD_IDS)('%s', (_name, id, rule) => {
    test.each(CALLS)(
      '%s rejects (never throws) naming %s, and sends nothing',
      async (_method, name, call) => {
        const sent = gateway.received.length;
        let promise: PromiseLike<unknown> | undefined;
        expect(() => {
          promise = call(client, id);
        }).not.toThrow();
        const error = await rejection(promise as PromiseLike<unknown>);
        expect(error).toBeInstanceOf(RequestValidationError);
        expect(error.issues).toEqual([{ path: name, message: expect.stringMatching(rule) }]);
        expect(error.message).toContain(`{${name}}`);
        expect(gateway.received).toHaveLength(sent);
      },
    );
  });

  test('a well-formed ID with a surrogate pair is sent, encoded as UTF-8', async () => {
    const before = gateway.received.length;
    await client.videos.retrieve('task_\u{1F600}');
    await client.library.groups.retrieve('group_\u{1F600}');
    expect(gateway.received.slice(before).map((r) => r.path)).toEqual([
      '/v1/videos/task_%F0%9F%98%80',
      '/v1/vidmodel2/private-avatar/groups/group_%F0%9F%98%80',
    ]);
  });
});

describe('images.download with a URL that cannot be fetched', () => {
  test.each([
    ['text that is no URL', 'not a url?sig=SECRETSIG', /cannot be parsed/],
    ['a broken host', 'http://[::1/x.png?X-Amz-Signature=SECRETSIG', /cannot be parsed/],
    ['a relative path', '/x.png?sig=SECRETSIG', /cannot be parsed/],
    ['a file: URL', 'file:///etc/passwd?sig=SECRETSIG', /must be an http or https URL, not file:/],
    ['an ftp: URL', 'ftp://example.com/a.png?sig=SECRETSIG', /must be an http or https URL, not ftp:/],
  ])(
    '%s is RequestValidationError naming the argument, without the query, nothing sent',
    async (_name, url, rule) => {
      const sent = gateway.received.length;
      for (const [entry, name] of [
        [url, 'entry'],
        [{ url }, 'entry.url'],
      ] as const) {
        const error = await rejection(client.images.download(entry));
        expect(error).toBeInstanceOf(RequestValidationError);
        expect(error.issues).toEqual([{ path: name, message: expect.stringMatching(rule) }]);
        expect(inspect(error)).not.toContain('SECRETSIG');
        expect(JSON.stringify(error)).not.toContain('SECRETSIG');
      }
      expect(gateway.received).toHaveLength(sent);
    },
  );

  test('a connection that fails names the URL without its query or credentials, not /v1/', async () => {
    const port = await refusedPort();
    const error = await rejection(
      client.images.download(`http://user:pw@127.0.0.1:${port}/media/a.png?X-Amz-Signature=SECRETSIG`),
    );
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(error.message).toMatch(new RegExp(`^GET http://127\\.0\\.0\\.1:${port}/media/a\\.png: `));
    expect(inspect(error)).not.toMatch(/SECRETSIG|user:pw/);
  });

  test('an http URL on loopback is fetched, its query sent whole', async () => {
    const sent = gateway.received.length;
    const download = await client.images.download({ url: `${gateway.url}/media/a.png?sig=abc` });
    await download.arrayBuffer();
    expect(gateway.received.slice(sent).map((r) => r.path)).toEqual(['/media/a.png?sig=abc']);
  });
});

describe('a body JSON cannot hold, in a field the SDK passes through', () => {
  const video = (metadata: unknown) =>
    ({ model: 'vidmodel-2.0-mini', prompt: 'a red kite', metadata }) as Parameters<
      MediaGateway['videos']['create']
    >[0];
  const loop: Record<string, unknown> = { a: 1 };
  loop.self = loop;

  test.each([
    ['a circular reference', { loop }, 'metadata.loop.self', /circular reference/],
    ['a BigInt', { count: 10n }, 'metadata.count', /it is a BigInt; pass a number or a string/],
  ])('%s is RequestValidationError at the field, and nothing is sent', async (_name, metadata, at, rule) => {
    const sent = gateway.received.length;
    let promise: PromiseLike<unknown> | undefined;
    expect(() => {
      promise = client.videos.create(video(metadata));
    }).not.toThrow();
    const error = await rejection(promise as PromiseLike<unknown>);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(error.issues).toEqual([{ path: at, message: expect.stringMatching(rule) }]);
    expect(error.message).toMatch(/^POST \/v1\/videos\/generations was not sent: /);
    expect(gateway.received).toHaveLength(sent);
  });

  test('the same fields with plain values are sent', async () => {
    const sent = gateway.received.length;
    await client.videos.create(video({ loop: { a: 1 }, count: 10 })).catch(() => undefined);
    expect(gateway.received.slice(sent).map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /v1/videos/generations',
    ]);
  });
});

describe('parameters that cannot be read: a getter or Proxy that throws', () => {
  const getterThrows = {
    model: 'imgmodel-2',
    get prompt(): string {
      throw new RangeError('getter boom');
    },
  };
  const revoked = Proxy.revocable({}, {});
  revoked.revoke();
  const keysThrow = new Proxy(
    { model: 'imgmodel-2', prompt: 'a cat' },
    {
      ownKeys() {
        throw new SyntaxError('ownKeys boom');
      },
    },
  );
  const videoGetterThrows = {
    model: 'vidmodel-2.0-mini',
    get prompt(): string {
      throw new RangeError('getter boom');
    },
  };
  const listGetterThrows = {
    get page(): number {
      throw new TypeError('page boom');
    },
  };
  type Params = never;

  test.each([
    [
      'images.generate, a getter',
      (c: MediaGateway) => c.images.generate(getterThrows as Params),
      /RangeError: getter boom/,
    ],
    [
      'images.generate, a revoked Proxy',
      (c: MediaGateway) => c.images.generate(revoked.proxy as Params),
      /TypeError: .*revoked/,
    ],
    [
      'images.generate, an ownKeys trap',
      (c: MediaGateway) => c.images.generate(keysThrow as Params),
      /SyntaxError: ownKeys boom/,
    ],
    [
      'videos.create, a getter',
      (c: MediaGateway) => c.videos.create(videoGetterThrows as Params),
      /RangeError: getter boom/,
    ],
    [
      'library.assets.list, a getter',
      (c: MediaGateway) => c.library.assets.list(listGetterThrows as Params),
      /TypeError: page boom/,
    ],
  ])(
    '%s: RequestValidationError with the failure as cause, rejected, nothing sent',
    async (_name, call, what) => {
      const sent = gateway.received.length;
      let promise: PromiseLike<unknown> | undefined;
      expect(() => {
        promise = call(client);
      }).not.toThrow();
      const error = await rejection(promise as PromiseLike<unknown>);
      expect(error).toBeInstanceOf(RequestValidationError);
      expect(error.issues).toEqual([{ path: '(request)', message: expect.stringMatching(what) }]);
      expect(error.cause).toBeInstanceOf(Error);
      expect(gateway.received).toHaveLength(sent);
    },
  );
});
