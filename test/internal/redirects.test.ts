// Covers: src/internal/redirects.ts
import { afterEach, describe, expect, test } from 'vitest';
import { APIConnectionError, InvalidResponseError } from '../../src/core/errors.js';
import type { RequestSpec } from '../../src/internal/request-spec.js';
import { testClient } from '../helpers/client.js';
import { type RawServer, startRawServer } from '../helpers/raw-server.js';
import { rejection } from '../helpers/rejection.js';

const KEY = 'mgw_redirect_key_0000111122223333';
const servers: RawServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function media() {
  const server = await startRawServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': '4' }).end('MP4!');
  });
  servers.push(server);
  return server;
}

async function gateway(location: (index: number) => string, hops = 1) {
  const server = await startRawServer((_req, res, index) => {
    if (index < hops) res.writeHead(302, { location: location(index) }).end();
    else res.writeHead(200, { 'content-type': 'video/mp4' }).end('SAME');
  });
  servers.push(server);
  return server;
}

const download: RequestSpec = { method: 'GET', path: '/videos/t1/content', retry: 'safe', timeout: 5_000 };
const transport = (url: string) => testClient({ apiKey: KEY, baseURL: url })._transport;

describe('download redirects', () => {
  test('followed to another origin without the Authorization header', async () => {
    const cdn = await media();
    const gw = await gateway(() => `${cdn.url}/media/abc`);
    const response = await transport(gw.url).stream(download);
    expect(await response.body.text()).toBe('MP4!');
    expect(gw.received[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(cdn.received[0]?.path).toBe('/media/abc');
    expect(cdn.received[0]?.headers.authorization).toBeUndefined();
  });

  test('followed on the same origin with the Authorization header', async () => {
    const gw = await gateway(() => '/v1/videos/t1/content?hop=1');
    const response = await transport(gw.url).stream(download);
    expect(await response.body.text()).toBe('SAME');
    expect(gw.received[1]?.path).toBe('/v1/videos/t1/content?hop=1');
    expect(gw.received[1]?.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  test('at most 5 redirects', async () => {
    const gw = await gateway((i) => `/v1/hop/${i}`, 100);
    await expect(transport(gw.url).stream(download)).rejects.toThrow(/more than 5 redirects/);
    expect(gw.received).toHaveLength(6);
  });

  test.each([
    ['a body that stalls short of its length', { 'content-length': '1000' }],
    ['a chunked body that never ends', {}],
  ])('a redirect with %s is followed at once, not held to the deadline', async (_, headers) => {
    const cdn = await media();
    const server = await startRawServer((_req, res) => {
      res.writeHead(302, { location: `${cdn.url}/media/abc`, ...headers });
      res.write('moved');
    });
    servers.push(server);
    const response = await transport(server.url).stream({ ...download, timeout: 3_000 });
    expect(await response.body.text()).toBe('MP4!');
  });

  test('a loop of redirects is refused, not retried: it answers the same each time', async () => {
    const gw = await gateway(() => '/v1/videos/t1/content', 100);
    const client = testClient({ apiKey: KEY, baseURL: gw.url, maxRetries: 2 });
    const error = await rejection(client._transport.stream(download));
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect(error.message).toMatch(/more than 5 redirects; the link leads in a loop or too far/);
    expect(gw.received).toHaveLength(6);
  });

  test('a foreign URL given directly gets no key', async () => {
    const cdn = await media();
    const gw = await gateway(() => '/');
    const response = await transport(gw.url).stream({ ...download, url: `${cdn.url}/x.png` });
    await response.body.dump();
    expect(cdn.received[0]?.headers.authorization).toBeUndefined();
  });

  test('JSON calls do not follow redirects', async () => {
    const cdn = await media();
    const gw = await gateway(() => `${cdn.url}/elsewhere`);
    const error = await rejection(transport(gw.url).json({ ...download, path: '/videos/t1' }));
    expect(error).not.toBeInstanceOf(APIConnectionError);
    expect(error.status).toBe(302);
    expect(cdn.received).toHaveLength(0);
  });
});
