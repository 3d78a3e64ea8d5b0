// Covers: src/internal/redirects.ts
import { MockAgent } from 'undici';
import { afterEach, describe, expect, test } from 'vitest';
import { MediaGateway } from '../../src/client.js';
import { InvalidResponseError } from '../../src/core/errors.js';
import type { RequestSpec } from '../../src/internal/request-spec.js';
import { testClient } from '../helpers/client.js';
import { type RawServer, startRawServer } from '../helpers/raw-server.js';
import { rejection } from '../helpers/rejection.js';

const KEY = 'mgw_redirect_hdr_key_0000111122223333';
const servers: RawServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** An origin that answers `MP4!` and records what it received. 127.0.0.1 on its own port. */
async function cdn(): Promise<RawServer> {
  const server = await startRawServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': '4' }).end('MP4!');
  });
  servers.push(server);
  return server;
}

/** The gateway's origin: its first `hops` answers redirect to `location(index)`. */
async function gateway(location: (index: number) => string, hops = 1): Promise<RawServer> {
  const server = await startRawServer((_req, res, index) => {
    if (index < hops) res.writeHead(302, { location: location(index) }).end();
    else res.writeHead(200, { 'content-type': 'video/mp4' }).end('SAME');
  });
  servers.push(server);
  return server;
}

const download: RequestSpec = {
  method: 'GET',
  path: '/videos/t1/content',
  retry: 'safe',
  timeout: 5_000,
  options: { headers: { 'X-Trace-Id': 'trace-7', Range: 'bytes=0-3' } },
};
const client = (baseURL: string) =>
  testClient({ apiKey: KEY, baseURL, defaultHeaders: { 'X-Tenant': 'acme', Cookie: 'session=s3cr3t' } });

describe('headers across a download’s redirects', () => {
  test('another origin gets only accept, accept-encoding, range, if-range and user-agent', async () => {
    const media = await cdn();
    const gw = await gateway(() => `${media.url}/media/abc`);
    const response = await client(gw.url)._transport.stream(download);
    expect(await response.body.text()).toBe('MP4!');

    const sent = gw.received[0]?.headers ?? {};
    expect(sent).toMatchObject({
      authorization: `Bearer ${KEY}`,
      'x-tenant': 'acme',
      cookie: 'session=s3cr3t',
      'x-trace-id': 'trace-7',
      range: 'bytes=0-3',
    });

    const got = media.received[0]?.headers ?? {};
    expect(got.range).toBe('bytes=0-3');
    expect(got['user-agent']).toMatch(/^mediagw\//);
    const standard = new Set(['host', 'connection', 'accept', 'accept-encoding', 'range', 'user-agent']);
    expect(Object.keys(got).filter((name) => !standard.has(name))).toEqual([]);
    expect(JSON.stringify(got)).not.toMatch(/acme|s3cr3t|trace-7|Bearer/);
  });

  test('a later same-origin hop on the other origin still gets the allowlist alone', async () => {
    const media = await startRawServer((_req, res, index) => {
      if (index === 0) res.writeHead(302, { location: '/media/final' }).end();
      else res.writeHead(200, { 'content-type': 'video/mp4' }).end('MP4!');
    });
    servers.push(media);
    const gw = await gateway(() => `${media.url}/media/first`);
    await (await client(gw.url)._transport.stream(download)).body.dump();
    expect(media.received).toHaveLength(2);
    for (const { headers } of media.received) {
      expect(headers.authorization).toBeUndefined();
      expect(headers['x-tenant']).toBeUndefined();
      expect(headers.cookie).toBeUndefined();
      expect(headers['x-trace-id']).toBeUndefined();
      expect(headers.range).toBe('bytes=0-3');
    }
  });

  test('a same-origin redirect keeps every header, the key included', async () => {
    const gw = await gateway(() => '/v1/videos/t1/content?hop=1');
    await (await client(gw.url)._transport.stream(download)).body.dump();
    expect(gw.received[1]?.path).toBe('/v1/videos/t1/content?hop=1');
    expect(gw.received[1]?.headers).toMatchObject({
      authorization: `Bearer ${KEY}`,
      'x-tenant': 'acme',
      cookie: 'session=s3cr3t',
      'x-trace-id': 'trace-7',
      range: 'bytes=0-3',
    });
  });
});

describe('redirects the SDK refuses', () => {
  function mock() {
    const agent = new MockAgent();
    agent.disableNetConnect();
    let asked = 0;
    agent
      .get('https://gw.example')
      .intercept({ path: '/v1/videos/t1/content' })
      .reply(() => {
        asked++;
        return {
          statusCode: 302,
          data: '',
          responseOptions: { headers: { location: 'http://cdn.example/x.mp4' } },
        };
      })
      .persist();
    agent.get('http://cdn.example').intercept({ path: '/x.mp4' }).reply(200, 'MP4!');
    return { agent, asked: () => asked };
  }

  test('https to http is not followed, and not retried', async () => {
    const { agent, asked } = mock();
    const gateway = new MediaGateway({
      apiKey: KEY,
      baseURL: 'https://gw.example',
      dispatcher: agent,
      maxRetries: 2,
    });
    const error = await rejection(gateway._transport.stream({ ...download, options: {} }));
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect(error.message).toMatch(/GET \/v1\/videos\/t1\/content: refused a redirect from https to http/);
    expect(error.status).toBe(302);
    expect(asked()).toBe(1);
    expect(agent.pendingInterceptors().map((i) => i.origin)).toContain('http://cdn.example');
    await agent.close();
  });

  test('to a scheme other than http(s) is not followed', async () => {
    const gw = await gateway(() => 'file:///etc/passwd');
    const error = await rejection(client(gw.url)._transport.stream(download));
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect(error.message).toMatch(/refused a redirect to a URL that is not http\(s\)/);
    expect(gw.received).toHaveLength(1);
  });
});
