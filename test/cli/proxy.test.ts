// Covers: src/cli/proxy.ts
/**
 * The built `mediagw` binary honours HTTPS_PROXY, HTTP_PROXY and NO_PROXY, as curl does: the
 * client of the gateway, `webhooks send` and the deliveries of `mock --forward-to`, against a
 * loopback proxy that counts what it carries.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type MockGateway, startMockGateway } from '../../src/testing/index.js';
import { type ProxyServer, startProxyServer } from '../helpers/proxy-server.js';
import { drain, startRawServer } from '../helpers/raw-server.js';
import { selfSignedCertificate } from '../helpers/tls.js';
import { startReceiver, type TestReceiver } from '../integration/webhooks-receiver.js';
import { ensureBuilt, MOCK_BIN, run, start, stop, until } from './helpers.js';

const SECRET = 'whsec_cli_proxy_secret';
let gateway: MockGateway;
let proxy: ProxyServer;
let receiver: TestReceiver;

beforeAll(async () => {
  await ensureBuilt();
  [gateway, proxy, receiver] = await Promise.all([
    startMockGateway(),
    startProxyServer(),
    startReceiver({ secrets: { kid_local: SECRET } }),
  ]);
}, 180_000);
afterAll(() => Promise.all([gateway?.close(), proxy?.close(), receiver?.close()]));

const through = () => proxy.forwarded.length + proxy.tunnels.length;
/** A query for a task the gateway does not know: one request, answered 404 (exit 2). */
const query = ['tasks', 'get', 'cgt-unknown'];

describe('the proxy of the environment', () => {
  test('HTTP_PROXY carries the requests to an http gateway, in absolute form', async () => {
    const before = proxy.forwarded.length;
    const { code, stderr } = await run(query, {
      env: { MEDIAGW_API_KEY: gateway.apiKey, MEDIAGW_BASE_URL: gateway.url, HTTP_PROXY: proxy.url },
    });
    // The gateway's own answer came back through the proxy.
    expect(code).toBe(2);
    expect(stderr).toContain('404');
    expect(proxy.forwarded.slice(before)).toEqual([`${gateway.url}/v1/videos/cgt-unknown`]);
  });

  test('lower-case http_proxy is read too; NO_PROXY names a host reached directly', async () => {
    const env = { MEDIAGW_API_KEY: gateway.apiKey, MEDIAGW_BASE_URL: gateway.url, http_proxy: proxy.url };
    const before = through();
    expect((await run(query, { env })).stderr).toContain('404');
    expect(through()).toBe(before + 1);
    const bypassed = await run(query, { env: { ...env, NO_PROXY: 'localhost,127.0.0.1' } });
    expect(bypassed.stderr).toContain('404');
    expect(through()).toBe(before + 1);
  });

  test('HTTPS_PROXY carries the requests to an https gateway through a CONNECT tunnel', async () => {
    const tls = selfSignedCertificate();
    const dir = mkdtempSync(join(tmpdir(), 'mediagw-proxy-ca-'));
    writeFileSync(join(dir, 'ca.pem'), tls.cert);
    const secure = await startRawServer(
      async (req, res) => {
        await drain(req);
        res
          .writeHead(404, { 'content-type': 'application/json' })
          .end('{"code":"task_not_found","message":"no such task here","data":null}');
      },
      { tls },
    );
    try {
      const before = proxy.tunnels.length;
      const { code, stderr } = await run(query, {
        env: {
          MEDIAGW_API_KEY: 'mgw_test_0123456789abcdef',
          MEDIAGW_BASE_URL: secure.url,
          HTTPS_PROXY: proxy.url,
          NODE_EXTRA_CA_CERTS: join(dir, 'ca.pem'),
        },
      });
      expect(stderr).toContain('no such task here');
      expect(code).toBe(2);
      expect(proxy.tunnels.slice(before)).toEqual([new URL(secure.url).host]);
      expect(secure.received).toHaveLength(1);
    } finally {
      await secure.close();
    }
  });

  test('a proxy that is not a URL is a usage error naming the variable, without its value', async () => {
    const { code, stderr } = await run(query, {
      env: {
        MEDIAGW_API_KEY: gateway.apiKey,
        MEDIAGW_BASE_URL: gateway.url,
        HTTPS_PROXY: 'not a url with hunter2',
      },
    });
    expect(code).toBe(1);
    expect(stderr).toContain('HTTPS_PROXY');
    expect(stderr).not.toContain('hunter2');
  });

  test('webhooks send goes through HTTP_PROXY', async () => {
    const before = proxy.forwarded.length;
    const { code, stdout } = await run(['webhooks', 'send', receiver.url, '--secret', SECRET, '--json'], {
      env: { HTTP_PROXY: proxy.url },
    });
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ acknowledged: true });
    expect(proxy.forwarded.slice(before)).toEqual([receiver.url]);
  });

  test('mock --forward-to delivers through HTTP_PROXY; the embedded gateway is not proxied', async () => {
    const before = proxy.forwarded.length;
    const mock = start(
      ['--port', '0', '--forward-to', receiver.url, '--webhook-secret', SECRET],
      { env: { HTTP_PROXY: proxy.url } },
      MOCK_BIN,
    );
    try {
      await until(() => mock.output().includes('Press Ctrl+C'), 'the mock to start');
      expect(mock.output()).toContain(`verified:     ${receiver.url} echoed the challenge`);
      // The verification challenges (one per account) went through the proxy, and nothing else
      // did: the mock's own clients reach it directly.
      expect(proxy.forwarded.slice(before)).toEqual([receiver.url, receiver.url]);
    } finally {
      stop(mock.child);
    }
    expect((await mock.result).code).toBe(0);
  });
});
