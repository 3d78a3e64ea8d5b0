// Covers: secrets kept out of errors, logs and the mock's log
import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type MockGateway, startMockGateway } from '../../src/testing/index.js';
import { testClient } from '../helpers/client.js';
import { drain, type RawServer, startRawServer } from '../helpers/raw-server.js';
import { REFUSED_URL } from './fault-cell.js';

const KEY = 'mgw_live_SECRET_7d41c09e2b5a4f6e8c3d';
// Parts long enough to identify the key; the request log's mask (`mgw_…3d`) shows less than these.
const FRAGMENTS = [KEY, KEY.slice(8), KEY.slice(0, -6), 'SECRET_7d41c09e'];

let gateway: MockGateway;
let echo: RawServer;

beforeAll(async () => {
  gateway = await startMockGateway({
    clock: 'manual',
    accounts: [{ id: 'acct_1', apiKey: KEY }, { id: 'acct_2' }],
  });
  // A hostile or broken gateway that echoes the Authorization header back in every way it can.
  echo = await startRawServer(async (req, res) => {
    await drain(req);
    const auth = String(req.headers.authorization);
    if (req.url?.includes('not-json')) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(`your key: ${auth}`);
      return;
    }
    const status = req.url?.includes('server-error') ? 500 : 401;
    res
      .writeHead(status, { 'content-type': 'application/json', 'x-echo': auth, 'www-authenticate': auth })
      .end(
        JSON.stringify({
          code: 'unauthorized',
          message: `bad key ${auth}`,
          data: { auth, nested: [{ auth }] },
        }),
      );
  });
});
afterAll(async () => {
  await gateway?.close();
  await echo?.close();
});

/** Everything an error shows: message, stack, string form, inspection, JSON, cause, body and headers. */
function renderError(error: unknown): string {
  const e = error as Error & { cause?: unknown; body?: unknown; headers?: unknown };
  return [
    e?.message,
    e?.stack,
    String(e),
    inspect(e, { depth: 10, showHidden: true }),
    JSON.stringify(e),
    inspect(e?.cause, { depth: 10, showHidden: true }),
    JSON.stringify(e?.body),
    JSON.stringify(e?.headers),
  ].join('\n');
}

function render(value: unknown): string {
  return [inspect(value, { depth: 10, showHidden: true }), JSON.stringify(value) ?? ''].join('\n');
}

async function caught(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

describe('the API key never leaks', () => {
  test('not in errors, responses, logger output at any level, or the mock request log', async () => {
    const lines: string[] = [];
    const log = (level: string) => (message: string, data?: Record<string, unknown>) =>
      lines.push(`${level} ${message} ${inspect(data, { depth: 10 })} ${JSON.stringify(data) ?? ''}`);
    const logger = { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') };
    const client = testClient({ apiKey: KEY, baseURL: gateway.url, maxRetries: 1, timeout: 500, logger });
    const hostile = testClient({ apiKey: KEY, baseURL: echo.url, maxRetries: 1, logger });
    const refused = testClient({ apiKey: KEY, baseURL: REFUSED_URL, maxRetries: 1, logger });

    // Responses of every kind.
    const submission = await client.videos.create({
      model: 'vidmodel-2.0-mini',
      prompt: 'a kite',
      return_last_frame: true,
    });
    await gateway.clock.advance(20_000);
    const task = await client.videos.retrieve(submission.task_id);
    const download = await client.videos.downloadContent(submission.task_id);
    const downloadText = render(download);
    await download.arrayBuffer();
    const images = await client.images.generate({ model: 'imgmodel-2', prompt: 'a crane' });
    const imageFile = await client.images.download(images.data[0]!);
    const imageText = render(imageFile);
    await imageFile.arrayBuffer();
    const embeddings = await client.embeddings.create({ model: 'bge-m3', input: 'a kite' });
    const group = await client.library.groups.create({ name: 'cast' });
    const page = await client.library.groups.list();
    const responses = [submission, task, images, embeddings, group, page].map(render);

    // Errors of every kind.
    gateway.inject({
      match: { method: 'POST', path: '/v1/videos/generations' },
      fault: { reset: 'after-body', runHandler: true },
    });
    gateway.inject({ match: { method: 'GET', path: '/v1/videos/' }, times: 2, fault: { hang: true } });
    const errors = [
      await caught(hostile.videos.retrieve('cgt-1')), // 401 echoing the key in body and headers
      await caught(hostile.videos.retrieve('server-error')), // 500, retried, logged
      await caught(hostile.videos.retrieve('not-json')), // 200 with a non-JSON body holding the key
      await caught(hostile.videos.create({ model: 'vidmodel-2.0-mini', prompt: 'x' })),
      await caught(refused.videos.retrieve('cgt-1')), // connection refused, retried
      await caught(client.videos.create({ model: 'vidmodel-2.0-mini', prompt: 'a kite' })), // ambiguous
      await caught(client.videos.retrieve(submission.task_id)), // timeout after a retry
      await caught(client.videos.create({ model: 'vidmodel-2.0-mini', prompt: '' })), // validation
      await caught(client.videos.waitForTask('cgt-unknown', { interval: 1, timeout: 50 })), // 404
      await caught(client.library.groups.delete('grp_unknown')),
      await caught(client.videos.retrieve('cgt-1', { signal: AbortSignal.abort() })),
    ];
    expect(errors).toHaveLength(11);

    const everything = [
      ...errors.map(renderError),
      ...responses,
      downloadText,
      imageText,
      lines.join('\n'),
      render(gateway.requests),
      render(echo.received.map((r) => ({ ...r, headers: { ...r.headers, authorization: '(sent)' } }))),
    ].join('\n');
    // The test sees what it should: the logger wrote at least the debug and warn lines.
    expect(lines.some((l) => l.startsWith('debug'))).toBe(true);
    expect(lines.some((l) => l.startsWith('warn'))).toBe(true);
    expect(everything).toContain('[redacted]');
    for (const fragment of FRAGMENTS) expect(everything.includes(fragment), fragment).toBe(false);
  }, 30_000);

  test('not by inspecting the client, hidden properties included', () => {
    const client = testClient({ apiKey: KEY, baseURL: gateway.url, maxRetries: 2 });
    const shown = [
      inspect(client, { depth: 10 }),
      inspect(client, { depth: 10, showHidden: true }),
      JSON.stringify(client),
      inspect(client.videos, { depth: 10, showHidden: true }),
    ].join('\n');
    for (const fragment of FRAGMENTS) expect(shown.includes(fragment), fragment).toBe(false);
  });
});
