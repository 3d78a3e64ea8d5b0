import { type ClientOptions, MediaGateway } from '../../src/client.js';

/** The API key of a test client that names none. */
export const TEST_KEY = 'mgw_test_0123456789abcdef';

/** Where a test's gateway listens, and the key it accepts: a mock gateway or any `{ url, apiKey }`. */
export interface GatewayAddress {
  url: string;
  apiKey: string;
}

export interface TestClientOptions extends ClientOptions {
  /** Takes `baseURL` and `apiKey` from this gateway (each still overridable). */
  gateway?: GatewayAddress;
}

/**
 * The client most tests build: {@link TEST_KEY} (or the gateway's key), no retries, and the
 * overrides spread on top. A test about retries says `maxRetries` itself.
 */
export function testClient(overrides: TestClientOptions = {}): MediaGateway {
  const { gateway, ...options } = overrides;
  return new MediaGateway({
    apiKey: gateway?.apiKey ?? TEST_KEY,
    ...(gateway && { baseURL: gateway.url }),
    maxRetries: 0,
    ...options,
  });
}

type Answer = Record<string, unknown>;

/**
 * A finished task's answer, as the gateway sends it, for each kind of task:
 * - `video`: `GET /v1/videos/{id}`, `{ id: 'cgt-1', object: 'video', status: 'completed' }`;
 * - `image`: `GET /v1/tasks/{id}`, `{ code: 200, data: { status: 'succeeded', result: { images } } }`,
 *   one image `https://gw.example/1.png` (the fields given replace those of `data`).
 */
export function finishedTask(kind: 'video' | 'image', fields: Answer = {}): Answer {
  switch (kind) {
    case 'video':
      return { id: 'cgt-1', object: 'video', status: 'completed', ...fields };
    case 'image':
      return {
        code: 200,
        data: { status: 'succeeded', result: { images: [{ url: 'https://gw.example/1.png' }] }, ...fields },
      };
  }
}
