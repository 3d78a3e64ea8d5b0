// Covers: src/internal/file-from-url.ts
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { FileInputError } from '../../src/core/errors.js';
import type { FetchLike } from '../../src/core/fetch-like.js';
import { type FileFromURLOptions, fileFromURL } from '../../src/internal/files.js';
import { png } from '../core/image-fixtures.js';
import { type RawServer, startRawServer } from '../helpers/raw-server.js';
import { everyForm, rejection } from '../helpers/rejection.js';
import { trustedIdentity } from '../helpers/tls.js';

// fileFromURL against hostile servers, through undici and through a fetch: the URL's secrets
// (query, credentials) stay out of every error, and a server that drips its body cannot hold
// the call past its timeout. Its redirects are in test/wire/redirects.test.ts.

const SIGNATURE = 'deadbeefSECRETSIG';
const QUERY = `X-Amz-Credential=AKIAEXAMPLE7&X-Amz-Signature=${SIGNATURE}`;
const PASSWORD = 'hunter2PASS';
const image = png(3, 3);
const temp = mkdtempSync(join(tmpdir(), 'mediagw-file-from-url-'));
/** The temporary folder of calls that fail: it must stay empty. */
const failing = join(temp, 'failing');
mkdirSync(failing);
/** Undici and the fetch below trust the test certificate. */
const { agent, trustingFetch } = trustedIdentity();

/** The plain origin: images, and a server that stalls. */
let plain: RawServer;

function route(path: string, res: import('node:http').ServerResponse): void {
  if (path === '/img.png') {
    res.writeHead(200, { 'content-type': 'image/png' }).end(image);
  } else if (path === '/drip.png') {
    // One byte of the body, then nothing: undici's pause limit alone would wait 300 s.
    res.writeHead(200, { 'content-type': 'image/png' });
    res.write(image.subarray(0, 1));
  } else if (path === '/silent.png') {
    // Never answers: the timeout covers the wait for the headers too.
  } else res.writeHead(404).end('missing');
}

beforeAll(async () => {
  const handle = (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) =>
    route(new URL(req.url ?? '/', 'http://x').pathname, res);
  plain = await startRawServer(handle);
});
afterAll(async () => {
  await plain.close();
  await agent.close();
  rmSync(temp, { recursive: true, force: true });
});

const paths: Array<[string, FileFromURLOptions]> = [
  ['undici', { dispatcher: agent, tempDir: temp }],
  ['fetch', { fetch: trustingFetch, tempDir: temp }],
];

describe.each(paths)('fileFromURL through %s', (_, options) => {
  test('a URL with credentials is refused before any request; the same URL without them is taken', async () => {
    const url = new URL(`${plain.url}/img.png?${QUERY}`);
    url.username = 'alice';
    url.password = PASSWORD;
    const before = plain.received.length;
    const error = await rejection(fileFromURL(url, options));
    expect(error).toBeInstanceOf(FileInputError);
    expect(error.message).toMatch(/has credentials \(user:password@\) in it, which fileFromURL never sends/);
    expect(everyForm(error)).not.toMatch(/hunter2PASS|alice|SECRETSIG/);
    expect(plain.received.length).toBe(before);

    url.username = '';
    url.password = '';
    const file = await fileFromURL(url, options);
    expect(Buffer.from(await file.arrayBuffer())).toEqual(image);
  });

  test.each([
    ['a body that stops after one byte', '/drip.png'],
    ['an answer that never comes', '/silent.png'],
  ])('timeout ends %s: FileInputError, nothing kept', async (_name, path) => {
    const error = await rejection(
      fileFromURL(`${plain.url}${path}?${QUERY}`, { ...options, tempDir: failing, timeout: 100 }),
    );
    expect(error).toBeInstanceOf(FileInputError);
    expect(error.message).toBe(
      `fileFromURL: "${plain.url}${path}" was not downloaded within the timeout (100 ms): the server answered ` +
        'too slowly or stopped sending; nothing was kept. Pass a larger timeout to wait longer',
    );
    expect(everyForm(error)).not.toContain(SIGNATURE);
    expect(readdirSync(failing)).toEqual([]);
  });

  test('a download that ends within the timeout is taken', async () => {
    const file = await fileFromURL(`${plain.url}/img.png`, { ...options, timeout: 60_000 });
    expect(Buffer.from(await file.arrayBuffer())).toEqual(image);
  });
});

describe('a failure that quotes the URL, from a fetch', () => {
  /** A fetch that fails as fetches do: the URL in the message, and whole in its fields and causes. */
  const quoting: FetchLike = async (url) => {
    const inner = Object.assign(new TypeError(`Invalid URL: ${url}`), {
      code: 'ERR_INVALID_URL',
      input: url,
    });
    throw Object.assign(new TypeError(`fetch failed for ${url}`, { cause: inner }), {
      base: url,
      request: { url },
    });
  };

  test('the message and every cause are cleaned; name, code and the shown URL are kept', async () => {
    const error = await rejection(fileFromURL(`${plain.url}/img.png?${QUERY}`, { fetch: quoting }));
    expect(error).toBeInstanceOf(FileInputError);
    expect(error.message).toBe(
      `fileFromURL: "${plain.url}/img.png" could not be downloaded: fetch failed for ${plain.url}/img.png`,
    );
    expect(everyForm(error)).not.toMatch(/SECRETSIG|AKIAEXAMPLE7/);
    const cause = error.cause as Error & { cause: Error & { code: string } };
    expect(cause).toBeInstanceOf(Error);
    expect(cause.name).toBe('TypeError');
    expect(cause.cause.code).toBe('ERR_INVALID_URL');
    expect(cause.cause.message).toBe(`Invalid URL: ${plain.url}/img.png`);
  });

  test('a query value quoted on its own, encoded or not, is masked', async () => {
    const value = 'a/b+c==SECRETSIG';
    const echoing: FetchLike = async () => {
      throw new Error(`refused token ${value} (${encodeURIComponent(value)})`);
    };
    const error = await rejection(
      fileFromURL(`${plain.url}/img.png?token=${encodeURIComponent(value)}&w=1280`, { fetch: echoing }),
    );
    expect(error.message).toMatch(/could not be downloaded: refused token \[redacted\] \(\[redacted\]\)$/);
    expect(everyForm(error)).not.toContain('SECRETSIG');
  });
});
