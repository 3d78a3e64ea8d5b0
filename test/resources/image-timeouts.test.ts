// Covers: src/resources/images.ts
import { Agent, type Dispatcher } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import type { MediaGateway, RequestOptions } from '../../src/index.js';
import { type MockGateway, pngImage, startMockGateway } from '../../src/testing/index.js';
import { testClient } from '../helpers/client.js';

/** What undici was asked to do for one request: the timeouts are read where undici reads them. */
interface Dispatched {
  method: string;
  path: string;
  headersTimeout: number | null | undefined;
  bodyTimeout: number | null | undefined;
}

// The transport's timeout reaches undici only through the dispatch options; reading them here,
// rather than the resource's RequestSpec, also catches a transport that stopped passing them on.
class RecordingAgent extends Agent {
  readonly dispatched: Dispatched[] = [];

  override dispatch(options: Agent.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    this.dispatched.push({
      method: options.method,
      path: options.path,
      headersTimeout: options.headersTimeout,
      bodyTimeout: options.bodyTimeout,
    });
    return super.dispatch(options, handler);
  }
}

let gateway: MockGateway;
let client: MediaGateway;
let clientWithTimeout: MediaGateway;
const agent = new RecordingAgent({ keepAliveTimeout: 1_000 });

// Figures that no operation uses by default, so a match can only come from the override.
const CLIENT_TIMEOUT = 42_000;
const CALL_TIMEOUT = 45_000;

beforeAll(async () => {
  gateway = await startMockGateway({ clock: 'manual' });
  client = testClient({ gateway, dispatcher: agent });
  clientWithTimeout = testClient({ gateway, dispatcher: agent, timeout: CLIENT_TIMEOUT });
});
beforeEach(() => {
  agent.dispatched.length = 0;
});
afterAll(async () => {
  await gateway.close();
  await agent.close();
});

interface Row {
  name: string;
  path: string;
  /** spec: Limits — 180 s basic, 300 s higher resolution, 600 s demanding or high-quality edits. */
  expected: number;
  run: (client: MediaGateway, options?: RequestOptions) => Promise<unknown>;
}

const image = () => pngImage({ seed: 7 });

const ROWS: Row[] = [
  {
    name: 'images.generate, basic',
    path: '/v1/images/generations',
    expected: 180_000,
    run: (c, o) => c.images.generate({ model: 'imgmodel-2', prompt: 'a paper crane' }, o),
  },
  {
    name: 'images.generate, size 1024x1024',
    path: '/v1/images/generations',
    expected: 180_000,
    run: (c, o) => c.images.generate({ model: 'imgmodel-2', prompt: 'a paper crane', size: '1024x1024' }, o),
  },
  {
    name: 'images.generate, resolution 2k',
    path: '/v1/images/generations',
    expected: 300_000,
    run: (c, o) => c.images.generate({ model: 'imgmodel-2', prompt: 'a harbour', resolution: '2k' }, o),
  },
  {
    name: 'images.generate, resolution 4k',
    path: '/v1/images/generations',
    expected: 300_000,
    run: (c, o) => c.images.generate({ model: 'imgmodel-2', prompt: 'a harbour', resolution: '4k' }, o),
  },
  {
    name: 'images.generate, size 2048x2048',
    path: '/v1/images/generations',
    expected: 300_000,
    run: (c, o) => c.images.generate({ model: 'imgmodel-2', prompt: 'a harbour', size: '2048x2048' }, o),
  },
  {
    // Quality alone makes only an edit demanding.
    name: 'images.generate, quality high',
    path: '/v1/images/generations',
    expected: 180_000,
    run: (c, o) => c.images.generate({ model: 'imgmodel-2', prompt: 'a harbour', quality: 'high' }, o),
  },
  {
    name: 'images.edit, ordinary',
    path: '/v1/images/edits',
    expected: 180_000,
    run: (c, o) => c.images.edit({ model: 'imgmodel-2', prompt: 'make it night', image: image() }, o),
  },
  {
    name: 'images.edit, quality high',
    path: '/v1/images/edits',
    expected: 600_000,
    run: (c, o) =>
      c.images.edit({ model: 'imgmodel-2', prompt: 'make it night', image: image(), quality: 'high' }, o),
  },
  {
    name: 'images.edit, resolution 4k',
    path: '/v1/images/edits',
    expected: 600_000,
    run: (c, o) =>
      c.images.edit({ model: 'imgmodel-2', prompt: 'make it night', image: image(), resolution: '4k' }, o),
  },
  {
    // A synchronous upstream answers the submission only after generating.
    name: 'images.generateAsync, basic',
    path: '/v1/images/generations/async',
    expected: 300_000,
    run: (c, o) => c.images.generateAsync({ model: 'imgmodel-2', prompt: 'a fox' }, o),
  },
  {
    name: 'images.generateAsync, resolution 4k',
    path: '/v1/images/generations/async',
    expected: 300_000,
    run: (c, o) => c.images.generateAsync({ model: 'imgmodel-2', prompt: 'a fox', resolution: '4k' }, o),
  },
  {
    name: 'images.editAsync, ordinary',
    path: '/v1/images/edits/async',
    expected: 300_000,
    run: (c, o) => c.images.editAsync({ model: 'imgmodel-2', prompt: 'add snow', image: image() }, o),
  },
  {
    // The submission figure must not cap a demanding edit below its own.
    name: 'images.editAsync, quality high',
    path: '/v1/images/edits/async',
    expected: 600_000,
    run: (c, o) =>
      c.images.editAsync({ model: 'imgmodel-2', prompt: 'add snow', image: image(), quality: 'high' }, o),
  },
  {
    // Up to 20 MiB must go out within one attempt.
    name: 'uploads.image',
    path: '/v1/uploads/images',
    expected: 180_000,
    run: (c, o) => c.uploads.image(image(), o),
  },
];

function sent(timeout: number, path: string): Dispatched[] {
  return [{ method: 'POST', path, headersTimeout: timeout, bodyTimeout: timeout }];
}

describe('timeouts image calls hand to undici (spec: Limits)', () => {
  test.each(ROWS)('$name → $expected ms', async ({ path, expected, run }) => {
    await run(client);
    expect(agent.dispatched).toEqual(sent(expected, path));
  });

  test.each(ROWS)('$name: a call timeout overrides the default', async ({ path, run }) => {
    await run(client, { timeout: CALL_TIMEOUT });
    expect(agent.dispatched).toEqual(sent(CALL_TIMEOUT, path));
  });

  test.each(ROWS)('$name: the client timeout overrides the default', async ({ path, run }) => {
    await run(clientWithTimeout);
    expect(agent.dispatched).toEqual(sent(CLIENT_TIMEOUT, path));
  });

  test.each(ROWS)('$name: a call timeout overrides the client timeout', async ({ path, run }) => {
    await run(clientWithTimeout, { timeout: CALL_TIMEOUT });
    expect(agent.dispatched).toEqual(sent(CALL_TIMEOUT, path));
  });
});
