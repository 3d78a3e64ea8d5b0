// Covers: src/internal/undici.ts
import { afterAll, describe, expect, test } from 'vitest';
import { MediaGateway } from '../../src/client.js';
import { InvalidOptionError } from '../../src/core/options.js';
import { testClient } from '../helpers/client.js';
import { startProxyServer } from '../helpers/proxy-server.js';
import { drain, type RawServer, startRawServer } from '../helpers/raw-server.js';
import { rejection } from '../helpers/rejection.js';
import { selfSignedCertificate } from '../helpers/tls.js';

const KEY = 'mgw_test_0123456789abcdef';
const closing: { close(): Promise<void> }[] = [];
afterAll(() => Promise.all(closing.map((c) => c.close())));

/** A gateway that answers every request 200 with a small JSON object. */
async function gateway(options: Parameters<typeof startRawServer>[1] = {}): Promise<RawServer> {
  const server = await startRawServer(async (req, res) => {
    await drain(req);
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"supported":true}');
  }, options);
  closing.push(server);
  return server;
}

async function proxyServer() {
  const proxy = await startProxyServer();
  closing.push(proxy);
  return proxy;
}

const capabilities = (client: MediaGateway) => client.webhooks.capabilities({ model: 'vidmodel-2.5' });

describe('the proxy option', () => {
  test('an http gateway is reached through the proxy in absolute form', async () => {
    const [target, proxy] = await Promise.all([gateway(), proxyServer()]);
    const client = testClient({ apiKey: KEY, baseURL: target.url, proxy: proxy.url });
    await capabilities(client);
    expect(proxy.forwarded).toEqual([`${target.url}/v1/webhook-capabilities?model=vidmodel-2.5`]);
    expect(proxy.tunnels).toEqual([]);
    expect(target.received).toHaveLength(1);
    expect(target.received[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  test('an https gateway is reached through a CONNECT tunnel', async () => {
    const [target, proxy] = await Promise.all([gateway({ tls: selfSignedCertificate() }), proxyServer()]);
    // The test's own certificate: trusted for this test alone.
    const before = process.env.NODE_TLS_REJECT_UNAUTHORIZED;
    process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';
    try {
      const client = testClient({ apiKey: KEY, baseURL: target.url, proxy: proxy.url });
      await capabilities(client);
    } finally {
      if (before === undefined) delete process.env.NODE_TLS_REJECT_UNAUTHORIZED;
      else process.env.NODE_TLS_REJECT_UNAUTHORIZED = before;
    }
    expect(proxy.tunnels).toEqual([new URL(target.url).host]);
    expect(proxy.forwarded).toEqual([]);
    expect(target.received).toHaveLength(1);
  });

  test('the credentials in its URL go to the proxy as Basic auth, never to the gateway', async () => {
    const [target, proxy] = await Promise.all([gateway(), proxyServer()]);
    const url = proxy.url.replace('http://', 'http://alice:s%3Acret@');
    const client = testClient({ apiKey: KEY, baseURL: target.url, proxy: url });
    await capabilities(client);
    expect(proxy.authorizations).toEqual([`Basic ${Buffer.from('alice:s:cret').toString('base64')}`]);
    expect(target.received[0]?.headers['proxy-authorization']).toBeUndefined();
  });

  test('redirects keep their rules through the proxy: the key stays on the gateway’s origin', async () => {
    const [media, proxy] = await Promise.all([gateway(), proxyServer()]);
    const target = await startRawServer(async (req, res) => {
      await drain(req);
      res.writeHead(302, { location: `${media.url}/file.mp4` }).end();
    });
    closing.push(target);
    const client = testClient({ apiKey: KEY, baseURL: target.url, proxy: proxy.url });
    const download = await client.videos.downloadContent('task_1');
    await download.arrayBuffer();
    expect(proxy.forwarded).toEqual([`${target.url}/v1/videos/task_1/content`, `${media.url}/file.mp4`]);
    expect(target.received[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(media.received[0]?.headers.authorization).toBeUndefined();
  });

  test('a dispatcher of the caller wins over it', async () => {
    const [target, proxy] = await Promise.all([gateway(), proxyServer()]);
    const { Agent } = await import('undici');
    const dispatcher = new Agent();
    try {
      const client = testClient({
        apiKey: KEY,
        baseURL: target.url,
        proxy: proxy.url,
        dispatcher,
        maxRetries: 2,
      });
      await capabilities(client);
    } finally {
      await dispatcher.close();
    }
    expect(proxy.forwarded).toEqual([]);
    expect(target.received).toHaveLength(1);
  });

  test('a client made by withOptions keeps it; one given a fetch does not', async () => {
    const [target, proxy] = await Promise.all([gateway(), proxyServer()]);
    const client = testClient({ apiKey: KEY, baseURL: target.url, proxy: proxy.url });
    await capabilities(client.withOptions({ timeout: 5_000 }));
    expect(proxy.forwarded).toHaveLength(1);
    await capabilities(client.withOptions({ fetch: globalThis.fetch }));
    expect(proxy.forwarded).toHaveLength(1);
    expect(target.received).toHaveLength(2);
  });

  test.each([
    ['not a URL', 'proxy.internal:3128'],
    ['a socks URL', 'socks5://127.0.0.1:1080'],
    ['not a string', 3128],
  ])('%s is refused', (_name, value) => {
    expect(
      () => new MediaGateway({ apiKey: KEY, baseURL: 'http://127.0.0.1:1', proxy: value as string }),
    ).toThrow(InvalidOptionError);
  });

  test('with fetch it is refused, and the refusal does not show its password', async () => {
    const error = await rejection(
      (async () =>
        new MediaGateway({
          apiKey: KEY,
          baseURL: 'http://127.0.0.1:1',
          proxy: 'http://alice:hunter2@127.0.0.1:3128',
          fetch: globalThis.fetch,
        }))(),
    );
    expect(error).toBeInstanceOf(InvalidOptionError);
    expect(error.message).toMatch(/proxy must be left out when `fetch` is given/);
    expect(JSON.stringify(error)).not.toContain('hunter2');
    expect(error.message).not.toContain('hunter2');
  });

  test.each([
    ['a password holding an @', 'http://alice:hun@ter2@127.0.0.1:3128', true],
    ['credentials with no scheme', 'alice:hunter2@127.0.0.1:3128', false],
  ])('refused, it does not show its password: %s', (_name, proxy, withFetch) => {
    let error: unknown;
    try {
      new MediaGateway({
        apiKey: KEY,
        baseURL: 'http://127.0.0.1:1',
        proxy,
        ...(withFetch ? { fetch: globalThis.fetch } : {}),
      });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(InvalidOptionError);
    expect((error as Error).message).toMatch(/proxy must be/);
    expect(JSON.stringify(error)).not.toMatch(/ter2/);
    expect((error as Error).message).not.toMatch(/ter2/);
  });

  test('the one-line way to honour the environment: an EnvHttpProxyAgent as dispatcher, NO_PROXY too', async () => {
    const [target, proxy] = await Promise.all([gateway(), proxyServer()]);
    const { EnvHttpProxyAgent } = await import('undici');
    const proxied = new EnvHttpProxyAgent({ httpProxy: proxy.url });
    const bypassed = new EnvHttpProxyAgent({ httpProxy: proxy.url, noProxy: '127.0.0.1' });
    try {
      await capabilities(
        testClient({ apiKey: KEY, baseURL: target.url, dispatcher: proxied, maxRetries: 2 }),
      );
      expect(proxy.tunnels.length + proxy.forwarded.length).toBe(1);
      await capabilities(
        testClient({ apiKey: KEY, baseURL: target.url, dispatcher: bypassed, maxRetries: 2 }),
      );
      expect(proxy.tunnels.length + proxy.forwarded.length).toBe(1);
      expect(target.received).toHaveLength(2);
    } finally {
      await Promise.all([proxied.close(), bypassed.close()]);
    }
  });

  test('a proxy agent installed with setGlobalDispatcher is used by a client given no dispatcher', async () => {
    const [target, proxy] = await Promise.all([gateway(), proxyServer()]);
    const undici = await import('undici');
    const before = undici.getGlobalDispatcher();
    const installed = new undici.ProxyAgent({ uri: proxy.url, proxyTunnel: false });
    undici.setGlobalDispatcher(installed);
    try {
      await capabilities(testClient({ apiKey: KEY, baseURL: target.url }));
    } finally {
      undici.setGlobalDispatcher(before);
      await installed.close();
    }
    expect(proxy.forwarded).toHaveLength(1);
  });
});
