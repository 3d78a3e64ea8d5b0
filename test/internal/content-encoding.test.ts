// Covers: src/internal/response-body.ts
/**
 * With no Accept-Encoding a server may compress its answer (RFC 9110), which undici's path would
 * read as bytes: the SDK asks for `identity`, so a server that compresses when it may does not.
 */
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { testClient } from '../helpers/client.js';
import { drain, type RawServer, startRawServer } from '../helpers/raw-server.js';

let server: RawServer;
beforeAll(async () => {
  // Gzips whenever the request allows it: no Accept-Encoding, or one that names gzip or *.
  server = await startRawServer(async (req, res) => {
    await drain(req);
    const accepted = req.headers['accept-encoding'];
    const body =
      req.method === 'POST'
        ? JSON.stringify({ code: 'success', data: [{ task_id: 'cgt-gz', status: 'submitted' }] })
        : JSON.stringify({ id: 't1', status: 'queued' });
    if (accepted === undefined || /gzip|\*/.test(accepted)) {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.end(gzipSync(body));
    } else res.writeHead(200, { 'content-type': 'application/json' }).end(body);
  });
});
afterAll(() => server.close());

describe.each([
  ['undici', {}],
  ['a fetch', { fetch: globalThis.fetch }],
])('through %s', (_, transport) => {
  const client = () => testClient({ apiKey: 'k', baseURL: server.url, ...transport });

  test('a query and an accepted submission are read, from a server that compresses when it may', async () => {
    expect((await client().videos.retrieve('t1')).status).toBe('queued');
    const submitted = await client().videos.create({
      model: 'vidmodel-2.0-mini',
      prompt: 'a kite',
      duration: 5,
    });
    expect(submitted.task_id).toBe('cgt-gz');
    expect(server.received.at(-1)?.headers['accept-encoding']).toBe('identity');
  });
});
