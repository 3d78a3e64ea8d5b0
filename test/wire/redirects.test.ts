// Covers: src/internal/redirects.ts, src/internal/follow-redirects.ts
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Agent } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { APIConnectionError, FileInputError, InvalidResponseError } from '../../src/core/errors.js';
import type { FetchLike } from '../../src/core/fetch-like.js';
import { fileFromURL } from '../../src/internal/files.js';
import type { RequestSpec } from '../../src/internal/request-spec.js';
import { png } from '../core/image-fixtures.js';
import { testClient } from '../helpers/client.js';
import { type RawServer, startRawServer } from '../helpers/raw-server.js';
import { everyForm, rejection } from '../helpers/rejection.js';
import { trustedIdentity } from '../helpers/tls.js';

// The redirect rules of the SDK, one table for every exchange that meets a redirect: a download
// (through undici and through a fetch), fileFromURL (the same two ways), a JSON call and an
// upload. Three origins on 127.0.0.1: `plain` (http), `other` (http, as a CDN) and `secure`
// (https, a self-signed certificate the client is told to trust). A path's first segment says
// how its origin answers; the rest of the path is kept, so a hop's path can be asserted.

const KEY = 'mgw_redirect_key_0000111122223333';
const SIGNATURE = 'deadbeefSECRETSIG';
const QUERY = `X-Amz-Credential=AKIAEXAMPLE7&X-Amz-Signature=${SIGNATURE}`;
const PASSWORD = 'hunter2PASS';
const image = png(3, 3);
const temp = mkdtempSync(join(tmpdir(), 'mediagw-wire-redirects-'));
/** fileFromURL's temporary folder: a refused redirect keeps nothing in it. */
const failing = join(temp, 'failing');
mkdirSync(failing);
/** The https origin's certificate; undici and the fetch below trust it. */
const { identity, agent, trustingFetch } = trustedIdentity();

let plain: RawServer;
let other: RawServer;
let secure: RawServer;
const origins = () => ({ plain, other, secure });
type OriginName = keyof ReturnType<typeof origins>;

function answer(req: IncomingMessage, res: ServerResponse) {
  const path = req.url ?? '/';
  const [, first = '', ...rest] = path.split('?')[0]?.split('/') ?? [];
  const tail = `/${rest.join('/')}`;
  const found = (body: Buffer | string) => void res.writeHead(200, { 'content-type': 'video/mp4' }).end(body);
  const moved = (location: string) => void res.writeHead(302, { location }).end();
  const hops = /^hops-(\d+)$/.exec(first);
  if (hops) {
    const left = Number(hops[1]);
    return left > 0 ? moved(`/hops-${left - 1}${tail}`) : found(image);
  }
  switch (first) {
    case 'media':
      return found(image);
    case 'to-other':
      return moved(`${other.url}/media${tail}`);
    case 'to-plain':
      return moved(`${plain.url}/media${tail}`);
    case 'to-secure':
      return moved(`${secure.url}/media${tail}`);
    case 'to-other-then-same':
      return moved(`${other.url}/then-same/first`);
    case 'then-same':
      return rest[0] === 'first' ? moved('/then-same/final') : found(image);
    case 'same':
      return rest[0] === 'final' ? found(image) : moved(`/same/final${tail}`);
    case 'loop':
      return moved(path);
    case 'to-file':
      return moved('file:///etc/passwd');
    case 'bad-location':
      return moved('http://[::1');
    case 'to-credentials': {
      const to = new URL(`${other.url}/media/x.png?${QUERY}`);
      to.username = 'alice';
      to.password = PASSWORD;
      return moved(to.href);
    }
    case 'stall-length':
      res.writeHead(302, { location: `${other.url}/media${tail}`, 'content-length': '1000' });
      return void res.write('moved');
    case 'stall-chunked':
      res.writeHead(302, { location: `${other.url}/media${tail}` });
      return void res.write('moved');
    default:
      res.writeHead(404).end('missing');
  }
}

beforeAll(async () => {
  plain = await startRawServer(answer);
  other = await startRawServer(answer);
  secure = await startRawServer(answer, { tls: identity });
});
afterAll(async () => {
  await Promise.all([plain.close(), other.close(), secure.close()]);
  await agent.close();
  rmSync(temp, { recursive: true, force: true });
});
beforeEach(() => {
  for (const server of [plain, other, secure]) server.received.length = 0;
});

/** A download's headers: `defaultHeaders` and the call's own, for the gateway's origin alone. */
const DEFAULT_HEADERS = { 'X-Tenant': 'acme', Cookie: 'session=s3cr3t' };
const download: RequestSpec = {
  method: 'GET',
  path: '/videos/t1/content',
  retry: 'safe',
  // A redirect whose body stalls, were it held to this deadline, would end the call in a timeout.
  timeout: 3_000,
  options: { headers: { 'X-Trace-Id': 'trace-7', Range: 'bytes=0-3' } },
};
const OPERATION = 'GET /v1/videos/t1/content';

/** How each exchange is made from a start origin and a first path segment; what it answers. */
interface Exchange {
  name: string;
  /** The URL an error names and the first request goes to. */
  start(origin: RawServer, first: string): string;
  run(origin: RawServer, first: string): Promise<Buffer>;
  /** The error class of a refused redirect, and its message for a reason. */
  refused: {
    type: typeof InvalidResponseError | typeof FileInputError;
    message(start: string, reason: string): string;
  };
  /** Whether its first request carries the key and the caller's headers. */
  keyed: boolean;
}

function downloadBy(name: string, transport: { dispatcher: Agent } | { fetch: FetchLike }): Exchange {
  return {
    name,
    start: (origin, first) => `${origin.url}/${first}/v1/videos/t1/content`,
    run: async (origin, first) => {
      // Retries allowed: a refused redirect answers the same each time, so it is not retried.
      const client = testClient({
        apiKey: KEY,
        baseURL: `${origin.url}/${first}`,
        maxRetries: 2,
        defaultHeaders: DEFAULT_HEADERS,
        ...transport,
      });
      const response = await client._transport.stream(download);
      const chunks: Uint8Array[] = [];
      for await (const chunk of response.body as AsyncIterable<Uint8Array>) chunks.push(chunk);
      return Buffer.concat(chunks);
    },
    refused: { type: InvalidResponseError, message: (_, reason) => `${OPERATION}: ${reason}` },
    keyed: true,
  };
}

function fileFromURLBy(name: string, options: { dispatcher: Agent } | { fetch: FetchLike }): Exchange {
  return {
    name,
    start: (origin, first) => `${origin.url}/${first}/file.png`,
    // The link carries a signed query, which no error may show.
    run: async (origin, first) => {
      const file = await fileFromURL(`${origin.url}/${first}/file.png?${QUERY}`, {
        ...options,
        tempDir: failing,
      });
      const bytes = Buffer.from(await file.arrayBuffer());
      rmSync(failing, { recursive: true, force: true });
      mkdirSync(failing);
      return bytes;
    },
    refused: {
      type: FileInputError,
      message: (start, reason) => `fileFromURL: "${start}" could not be downloaded: ${reason}`,
    },
    keyed: false,
  };
}

const DOWNLOAD = downloadBy('a download through undici', { dispatcher: agent });
const DOWNLOAD_FETCH = downloadBy('a download through a fetch', { fetch: trustingFetch });
const FILE = fileFromURLBy('fileFromURL through undici', { dispatcher: agent });
const FILE_FETCH = fileFromURLBy('fileFromURL through a fetch', { fetch: trustingFetch });
const FOLLOWERS = [DOWNLOAD, DOWNLOAD_FETCH, FILE, FILE_FETCH];
const DOWNLOADS = [DOWNLOAD, DOWNLOAD_FETCH];

interface Followed {
  from: OriginName;
  first: string;
  /** What the exchanges see and send, beyond the final answer's bytes. */
  check?(exchange: Exchange): void;
}

const followed: Array<[string, Followed, Exchange[]]> = [
  [
    'to another origin: followed; there only accept, accept-encoding, range, if-range and user-agent',
    {
      from: 'plain',
      first: 'to-other',
      check: (exchange) => {
        expect(plain.received).toHaveLength(1);
        if (exchange.keyed) {
          expect(plain.received[0]?.headers).toMatchObject({
            authorization: `Bearer ${KEY}`,
            'x-tenant': 'acme',
            cookie: 'session=s3cr3t',
            'x-trace-id': 'trace-7',
            range: 'bytes=0-3',
          });
        }
        expect(other.received).toHaveLength(1);
        const got = other.received[0]?.headers ?? {};
        expect(other.received[0]?.path).toMatch(/^\/media\//);
        expect(got.authorization).toBeUndefined();
        expect(JSON.stringify(got)).not.toMatch(/acme|s3cr3t|trace-7|Bearer|SECRETSIG/);
        if (exchange.keyed) {
          expect(got.range).toBe('bytes=0-3');
          expect(got['user-agent']).toMatch(/^mediagw\//);
          const standard = new Set([
            'host',
            'connection',
            'accept',
            'accept-encoding',
            'range',
            'user-agent',
          ]);
          // A fetch adds headers of its own (sec-fetch-mode, accept-language): the SDK's are checked.
          if (exchange === DOWNLOAD)
            expect(Object.keys(got).filter((name) => !standard.has(name))).toEqual([]);
        }
      },
    },
    FOLLOWERS,
  ],
  [
    'a later same-origin hop on the other origin still gets the allowlist alone',
    {
      from: 'plain',
      first: 'to-other-then-same',
      check: () => {
        expect(other.received.map((r) => r.path)).toEqual(['/then-same/first', '/then-same/final']);
        for (const { headers } of other.received) {
          expect(headers.authorization).toBeUndefined();
          expect(headers['x-tenant']).toBeUndefined();
          expect(headers.cookie).toBeUndefined();
          expect(headers['x-trace-id']).toBeUndefined();
          expect(headers.range).toBe('bytes=0-3');
        }
      },
    },
    DOWNLOADS,
  ],
  [
    'on the same origin: followed with every header, the key included',
    {
      from: 'plain',
      first: 'same',
      check: (exchange) => {
        expect(plain.received).toHaveLength(2);
        expect(plain.received[1]?.path).toMatch(/^\/same\/final\//);
        if (exchange.keyed) {
          expect(plain.received[1]?.headers).toMatchObject({
            authorization: `Bearer ${KEY}`,
            'x-tenant': 'acme',
            cookie: 'session=s3cr3t',
            'x-trace-id': 'trace-7',
            range: 'bytes=0-3',
          });
        }
      },
    },
    FOLLOWERS,
  ],
  ['http to https: followed', { from: 'plain', first: 'to-secure' }, FOLLOWERS],
  [
    '5 redirects: followed',
    { from: 'plain', first: 'hops-5', check: () => expect(plain.received).toHaveLength(6) },
    FOLLOWERS,
  ],
  [
    'a redirect whose body stalls short of its length: followed at once, not held to the deadline',
    { from: 'plain', first: 'stall-length' },
    [DOWNLOAD],
  ],
  [
    'a redirect whose chunked body never ends: followed at once, not held to the deadline',
    { from: 'plain', first: 'stall-chunked' },
    [DOWNLOAD],
  ],
];

describe.each(
  followed.flatMap(([name, row, exchanges]) => exchanges.map((e) => [name, e.name, row, e] as const)),
)('%s (%s)', (_name, _exchange, row, exchange) => {
  test('the final answer is read', async () => {
    const bytes = await exchange.run(origins()[row.from], row.first);
    expect(bytes).toEqual(image);
    row.check?.(exchange);
  });
});

interface Refused {
  from: OriginName;
  first: string;
  reason: string | RegExp;
  /** Requests the start origin received: 1 unless the refusal comes after hops. */
  asked?: number;
  /** The origin the refused hop would have reached, which must get nothing. */
  spared?: OriginName;
}

const refused: Array<[string, Refused, Exchange[]]> = [
  [
    'https to http: not followed, not retried; the http origin gets nothing',
    {
      from: 'secure',
      first: 'to-plain',
      reason: 'refused a redirect from https to http, which would send the request unencrypted',
      spared: 'plain',
    },
    FOLLOWERS,
  ],
  [
    'to a scheme other than http(s): not followed',
    { from: 'plain', first: 'to-file', reason: 'refused a redirect to a URL that is not http(s)' },
    FOLLOWERS,
  ],
  [
    'a Location that cannot be parsed: not followed',
    { from: 'plain', first: 'bad-location', reason: 'refused a redirect whose Location is not a valid URL' },
    FOLLOWERS,
  ],
  [
    'to a URL with credentials: not followed, and none of it shown',
    {
      from: 'plain',
      first: 'to-credentials',
      reason: 'refused a redirect to a URL with credentials (user:password@), which are never sent',
      spared: 'other',
    },
    [FILE, FILE_FETCH],
  ],
  [
    'a 6th redirect: refused',
    { from: 'plain', first: 'hops-6', reason: /^more than 5 redirects/, asked: 6 },
    FOLLOWERS,
  ],
  [
    'a loop of redirects: refused, not retried, for it answers the same each time',
    {
      from: 'plain',
      first: 'loop',
      reason: 'more than 5 redirects; the link leads in a loop or too far',
      asked: 6,
    },
    DOWNLOADS,
  ],
];

describe.each(
  refused.flatMap(([name, row, exchanges]) => exchanges.map((e) => [name, e.name, row, e] as const)),
)('%s (%s)', (_name, _exchange, row, exchange) => {
  test('refused with the reason, naming the call, showing no secret', async () => {
    const origin = origins()[row.from];
    const error = await rejection(exchange.run(origin, row.first));
    expect(error).toBeInstanceOf(exchange.refused.type);
    const start = exchange.start(origin, row.first);
    if (typeof row.reason === 'string')
      expect(error.message).toBe(exchange.refused.message(start, row.reason));
    else expect(error.message.startsWith(exchange.refused.message(start, ''))).toBe(true);
    expect(error.message.slice(exchange.refused.message(start, '').length)).toMatch(row.reason);
    if (exchange.refused.type === FileInputError) {
      expect(error.cause).toBeInstanceOf(InvalidResponseError);
      expect(readdirSync(failing)).toEqual([]);
    } else expect(error.status).toBe(302);
    expect(everyForm(error)).not.toMatch(/hunter2PASS|SECRETSIG|AKIAEXAMPLE7/);
    expect(origin.received).toHaveLength(row.asked ?? 1);
    if (row.spared) expect(origins()[row.spared].received).toHaveLength(0);
  });
});

describe('calls that do not follow redirects', () => {
  const client = () => testClient({ apiKey: KEY, baseURL: `${plain.url}/to-other` });
  test.each([
    ['a JSON call', () => client()._transport.json({ ...download, path: '/videos/t1' })],
    ['an upload', () => client().uploads.image(new Blob([image], { type: 'image/png' }))],
  ])('%s: the 302 is its answer, and the other origin gets nothing', async (_, call) => {
    const error = await rejection(call());
    expect(error).not.toBeInstanceOf(APIConnectionError);
    expect(error.status).toBe(302);
    expect(other.received).toHaveLength(0);
  });

  test('a foreign URL a download is given directly gets no key', async () => {
    const response = await testClient({ apiKey: KEY, baseURL: plain.url })._transport.stream({
      ...download,
      url: `${other.url}/media/x.png`,
    });
    await response.body.dump();
    expect(other.received[0]?.headers.authorization).toBeUndefined();
  });
});
