// Covers: src/internal/files.ts
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  createReadStream,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { APIUserAbortError, FileInputError, MediaGatewayError } from '../../src/core/errors.js';
import { InvalidOptionError } from '../../src/core/options.js';
import { fileFromBase64, fileFromPath, fileFromURL } from '../../src/internal/files.js';
import { toUploadFile } from '../../src/internal/upload-file.js';
import { png } from '../core/image-fixtures.js';
import { type RawServer, refusedPort, startRawServer } from '../helpers/raw-server.js';
import { rejection } from '../helpers/rejection.js';

// Every file helper, given hostile or broken input, throws a FileInputError that names the input
// (a URL without its query: a presigned URL's signature stays out) and leaves nothing on disk.

const SECRET = 'X-Amz-Signature=0ddba11c0ffee';
const root = mkdtempSync(join(tmpdir(), 'mediagw-file-inputs-'));
const files = join(root, 'files');
/** The helpers' temporary folder: it must be empty after every refusal. */
const temp = join(root, 'temp');
mkdirSync(files);
mkdirSync(temp);
writeFileSync(join(files, 'plain.png'), png(2, 2));
writeFileSync(join(files, 'empty.png'), '');
symlinkSync(join(files, 'gone.png'), join(files, 'dangling.png'));
symlinkSync(join(files, 'loop-b'), join(files, 'loop-a'));
symlinkSync(join(files, 'loop-a'), join(files, 'loop-b'));
execFileSync('mkfifo', [join(files, 'pipe')]);
writeFileSync(join(files, 'locked.png'), png(2, 2));
chmodSync(join(files, 'locked.png'), 0o000);

let server: RawServer;
let closedPort: number;
beforeAll(async () => {
  server = await startRawServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/empty.png') res.writeHead(200, { 'content-type': 'image/png' }).end();
    else if (path === '/loop') res.writeHead(302, { location: '/loop' }).end();
    else if (path === '/to-file') res.writeHead(302, { location: 'file:///etc/hostname' }).end();
    else if (path === '/reset.png') {
      // Headers and part of the body, then the connection drops.
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': '100000' });
      res.write(png(2, 2), () => setImmediate(() => res.socket?.destroy()));
    } else if (path === '/hang.png') {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.write(png(2, 2));
    } else if (path === '/plain.png') res.writeHead(200, { 'content-type': 'image/png' }).end(png(2, 2));
    else res.writeHead(404).end('missing');
  });
  closedPort = await refusedPort();
});
afterAll(async () => {
  await server.close();
  chmodSync(join(files, 'locked.png'), 0o600);
  rmSync(root, { recursive: true, force: true });
});

const everything = () => ({ files: readdirSync(files).sort(), temp: readdirSync(temp).sort() });

interface Case {
  /** Calls the helper. */
  call: () => unknown;
  /** `input` of the error: the path or URL as shown. */
  input: string | (() => string);
  /** What the message says is wrong. */
  reason: RegExp;
  /** The system code, when one is behind it. */
  code?: string;
}

// Tests run as root in CI containers, and root reads a file of mode 000 all the same.
const root_ = process.getuid?.() === 0;

const pathCases: Array<[string, Case]> = [
  [
    'a missing file',
    {
      call: () => fileFromPath(join(files, 'nope.png')),
      input: join(files, 'nope.png'),
      reason: /does not exist/,
      code: 'ENOENT',
    },
  ],
  ['a folder', { call: () => fileFromPath(files), input: files, reason: /is a folder/ }],
  [
    'a path through a file',
    {
      call: () => fileFromPath(join(files, 'plain.png', 'x')),
      input: join(files, 'plain.png', 'x'),
      reason: /not a folder/,
      code: 'ENOTDIR',
    },
  ],
  [
    'a dangling link',
    {
      call: () => fileFromPath(join(files, 'dangling.png')),
      input: join(files, 'dangling.png'),
      reason: /does not exist/,
      code: 'ENOENT',
    },
  ],
  [
    'a loop of links',
    {
      call: () => fileFromPath(join(files, 'loop-a')),
      input: join(files, 'loop-a'),
      reason: /loop of links/,
      code: 'ELOOP',
    },
  ],
  [
    'a named pipe',
    {
      call: () => fileFromPath(join(files, 'pipe')),
      input: join(files, 'pipe'),
      reason: /not a regular file/,
    },
  ],
  [
    'an empty file',
    {
      call: () => fileFromPath(join(files, 'empty.png')),
      input: join(files, 'empty.png'),
      reason: /is empty/,
    },
  ],
  ['an empty path', { call: () => fileFromPath(''), input: '', reason: /is not a path/ }],
  [
    'an object that cannot be made text',
    {
      call: () => fileFromPath(Object.create(null) as string),
      input: '(object)',
      reason: /is not a path/,
    },
  ],
  [
    'a path with a NUL byte',
    { call: () => fileFromPath(`${files}/a\0b.png`), input: `${files}/a\0b.png`, reason: /cannot be read/ },
  ],
  [
    'a path with a line break (a forged log line)',
    {
      call: () => fileFromPath(`${files}/x.png\nINFO all good`),
      input: `${files}/x.png\nINFO all good`,
      reason: /does not exist/,
      code: 'ENOENT',
    },
  ],
  [
    'a name too long',
    {
      call: () => fileFromPath(join(files, 'x'.repeat(300))),
      input: join(files, 'x'.repeat(300)),
      reason: /too long/,
      code: 'ENAMETOOLONG',
    },
  ],
  [
    'an fs.ReadStream of a missing file',
    {
      call: () => toUploadFile(createReadStream(join(files, 'nope.png')), 'image', 'images.edit'),
      input: join(files, 'nope.png'),
      reason: /does not exist/,
      code: 'ENOENT',
    },
  ],
  [
    'an fs.ReadStream of a folder',
    {
      call: () => toUploadFile(createReadStream(files), 'image', 'images.edit'),
      input: files,
      reason: /is a folder/,
    },
  ],
];

const urlCases: Array<[string, Case]> = [
  [
    'text that is not a URL',
    {
      call: () => fileFromURL('not a url', { tempDir: temp }),
      input: 'not a url',
      reason: /not a valid absolute URL/,
    },
  ],
  [
    'an empty URL',
    { call: () => fileFromURL('', { tempDir: temp }), input: '', reason: /not a valid absolute URL/ },
  ],
  [
    'a broken host, with a signature',
    {
      call: () => fileFromURL(`http://[::1/x.png?${SECRET}`, { tempDir: temp }),
      input: 'http://[::1/x.png',
      reason: /not a valid absolute URL/,
    },
  ],
  [
    'credentials in the URL',
    {
      call: () => fileFromURL(`http://user:hunter2@[bad/x.png?${SECRET}`, { tempDir: temp }),
      input: 'http://[bad/x.png',
      reason: /not a valid absolute URL/,
    },
  ],
  [
    'credentials in a valid URL',
    {
      call: () =>
        fileFromURL(`http://user:hunter2@127.0.0.1:${closedPort}/x.png?${SECRET}`, { tempDir: temp }),
      input: () => `http://127.0.0.1:${closedPort}/x.png`,
      reason: /has credentials \(user:password@\) in it, which fileFromURL never sends/,
    },
  ],
  [
    'malformed percent-encoding in the path',
    {
      call: () => fileFromURL(`${server.url}/img/%E0%A4%A?${SECRET}`, { tempDir: temp }),
      input: () => `${server.url}/img/%E0%A4%A`,
      reason: /malformed percent-encoding/,
    },
  ],
  [
    'a file: URL to nothing',
    {
      call: () => fileFromURL('file:///nonexistent/photo.png', { tempDir: temp }),
      input: 'file:///nonexistent/photo.png',
      reason: /not an http: or https: URL; for a file on disk use fileFromPath/,
    },
  ],
  [
    'a data: URL',
    {
      call: () => fileFromURL(`data:image/png;base64,${png(1, 1).toString('base64')}`, { tempDir: temp }),
      input: `data:image/png;base64,${png(1, 1).toString('base64')}`,
      reason: /use fileFromBase64/,
    },
  ],
  [
    'an ftp: URL',
    {
      call: () => fileFromURL(`ftp://127.0.0.1/x.png?${SECRET}`, { tempDir: temp }),
      input: 'ftp://127.0.0.1/x.png',
      reason: /not an http: or https: URL/,
    },
  ],
  [
    'a refused connection',
    {
      call: () => fileFromURL(`http://127.0.0.1:${closedPort}/x.png?${SECRET}`, { tempDir: temp }),
      input: () => `http://127.0.0.1:${closedPort}/x.png`,
      reason: /could not be downloaded: .*ECONNREFUSED/,
    },
  ],
  [
    'a 404',
    {
      call: () => fileFromURL(`${server.url}/missing.png?${SECRET}`, { tempDir: temp }),
      input: () => `${server.url}/missing.png`,
      reason: /answered HTTP 404/,
    },
  ],
  [
    'an empty body',
    {
      call: () => fileFromURL(`${server.url}/empty.png?${SECRET}`, { tempDir: temp }),
      input: () => `${server.url}/empty.png`,
      reason: /empty body/,
    },
  ],
  [
    'a body cut off',
    {
      call: () => fileFromURL(`${server.url}/reset.png?${SECRET}`, { tempDir: temp }),
      input: () => `${server.url}/reset.png`,
      reason: /could not be downloaded/,
    },
  ],
  [
    'endless redirects',
    {
      call: () => fileFromURL(`${server.url}/loop?${SECRET}`, { tempDir: temp }),
      input: () => `${server.url}/loop`,
      reason: /could not be downloaded/,
    },
  ],
  [
    'a redirect to a file: URL',
    {
      call: () => fileFromURL(`${server.url}/to-file?${SECRET}`, { tempDir: temp }),
      input: () => `${server.url}/to-file`,
      reason: /could not be downloaded|answered HTTP 302/,
    },
  ],
  [
    'a temporary folder that does not exist',
    {
      call: () => fileFromURL(`${server.url}/reset.png?${SECRET}`, { tempDir: join(temp, 'missing') }),
      input: () => `${server.url}/reset.png`,
      reason: /temporary folder .* does not exist/,
      code: 'ENOENT',
    },
  ],
];

const base64Cases: Array<[string, Case]> = [
  ['empty text', { call: () => fileFromBase64(''), input: '', reason: /is empty/ }],
  ['blank text', { call: () => fileFromBase64(' \n\t '), input: '', reason: /is empty/ }],
  [
    'text that is not base64',
    {
      call: () => fileFromBase64('not base64 at all!'),
      input: 'not base64 at all!',
      reason: /is not base64/,
    },
  ],
  ['a path', { call: () => fileFromBase64('./cat.png'), input: './cat.png', reason: /is not base64/ }],
  [
    'a length no base64 has',
    { call: () => fileFromBase64('QUJDR'), input: 'QUJDR', reason: /is not base64/ },
  ],
  ['padding on a short quad', { call: () => fileFromBase64('QQ='), input: 'QQ=', reason: /is not base64/ }],
  [
    'a data URL with malformed percent-encoding',
    {
      call: () => fileFromBase64('data:text/plain,%E0%A4%A'),
      input: 'data:text/plain,%E0%A4%A',
      reason: /percent-encoding is malformed/,
    },
  ],
  [
    'a base64 data URL with nothing in it',
    {
      call: () => fileFromBase64('data:image/png;base64,'),
      input: 'data:image/png;base64,',
      reason: /holds no bytes/,
    },
  ],
  [
    'a base64 data URL of other text',
    {
      call: () => fileFromBase64('data:image/png;base64,<script>'),
      input: 'data:image/png;base64,<s… (30 characters)',
      reason: /is not base64/,
    },
  ],
  [
    'not text at all',
    { call: () => fileFromBase64(42 as unknown as string), input: '(number)', reason: /is not text/ },
  ],
];

describe.each([
  ['fileFromPath', pathCases],
  ['fileFromURL', urlCases],
  ['fileFromBase64', base64Cases],
])('%s refuses hostile input with a FileInputError and leaves nothing on disk', (_, cases) => {
  test.each(cases)('%s', async (_name, { call, input, reason, code }) => {
    const before = everything();
    const error = await rejection(Promise.resolve().then(call));
    const shown = typeof input === 'function' ? input() : input;
    expect(error).toBeInstanceOf(FileInputError);
    expect(error).toBeInstanceOf(MediaGatewayError);
    expect((error as unknown as FileInputError).input).toBe(shown);
    // Control characters are escaped in the message, so an input cannot forge log lines.
    const printable = shown.replace(/\0/g, '\\x00').replace(/\n/g, '\\x0a');
    expect(error.message).toContain(`"${printable}"`);
    expect(error.message).not.toMatch(/[\0\n]/);
    expect(error.message).toMatch(reason);
    if (code) expect(error.code).toBe(code);
    expect(`${error.message}\n${error.stack}\n${JSON.stringify(error)}`).not.toContain(SECRET);
    expect(`${error.message}\n${inspect(error, { depth: Number.POSITIVE_INFINITY })}`).not.toContain(
      'hunter2',
    );
    expect(everything()).toEqual(before);
  });
});

test('fileFromPath: a file that may not be read', async () => {
  // Root reads every file: the open runs as an unprivileged effective user (nobody), whose
  // way to the file is open but who may not read it.
  if (root_) {
    chmodSync(root, 0o755);
    chmodSync(files, 0o755);
    process.seteuid?.(65534);
  }
  let error: unknown;
  try {
    error = await rejection(fileFromPath(join(files, 'locked.png')));
  } finally {
    if (root_) process.seteuid?.(0);
  }
  expect(error).toBeInstanceOf(FileInputError);
  expect(error).toMatchObject({ code: 'EACCES', input: join(files, 'locked.png') });
});

test('malformed percent-encoding is refused before any request is made', async () => {
  const before = server.received.length;
  await rejection(fileFromURL(`${server.url}/%E0%A4%A`, { tempDir: temp }));
  expect(server.received.length).toBe(before);
});

test('fileFromURL: an abort in the middle of the body is an APIUserAbortError and leaves no file', async () => {
  const controller = new AbortController();
  const reason = new Error('stop');
  const pending = rejection(
    fileFromURL(`${server.url}/hang.png?${SECRET}`, { signal: controller.signal, tempDir: temp }),
  );
  // Abort once the temporary file exists: the body has begun.
  while (readdirSync(temp).length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
  controller.abort(reason);
  const error = await pending;
  expect(error).toBeInstanceOf(APIUserAbortError);
  expect(error.cause).toBe(reason);
  expect(error.message).not.toContain(SECRET);
  expect(readdirSync(temp)).toEqual([]);
});

describe('options that are not what they should be are refused before anything is read or sent', () => {
  const url = () => `${server.url}/hang.png?${SECRET}`;
  const path = join(files, 'plain.png');
  const cases: Array<[string, string, () => unknown]> = [
    ['fileFromPath: options null', 'options', () => fileFromPath(path, null as never)],
    ['fileFromPath: a numeric filename', 'filename', () => fileFromPath(path, { filename: 42 as never })],
    ['fileFromBase64: options null', 'options', () => fileFromBase64('aGk=', null as never)],
    ['fileFromBase64: options as text', 'options', () => fileFromBase64('aGk=', 'a.png' as never)],
    [
      'fileFromBase64: an object as contentType',
      'contentType',
      () => fileFromBase64('aGk=', { contentType: {} as never }),
    ],
    ['fileFromURL: options null', 'options', () => fileFromURL(url(), null as never)],
    ['fileFromURL: a numeric tempDir', 'tempDir', () => fileFromURL(url(), { tempDir: 42 as never })],
    ['fileFromURL: an empty tempDir', 'tempDir', () => fileFromURL(url(), { tempDir: '' })],
    ['fileFromURL: timeout 0', 'timeout', () => fileFromURL(url(), { timeout: 0 })],
    ['fileFromURL: timeout -1', 'timeout', () => fileFromURL(url(), { timeout: -1 })],
    ['fileFromURL: timeout 1.5', 'timeout', () => fileFromURL(url(), { timeout: 1.5 })],
    ['fileFromURL: timeout NaN', 'timeout', () => fileFromURL(url(), { timeout: Number.NaN })],
    [
      'fileFromURL: timeout Infinity',
      'timeout',
      () => fileFromURL(url(), { timeout: Number.POSITIVE_INFINITY }),
    ],
    [
      'fileFromURL: timeout past the longest timer',
      'timeout',
      () => fileFromURL(url(), { timeout: 2 ** 31 }),
    ],
    ['fileFromURL: timeout as text', 'timeout', () => fileFromURL(url(), { timeout: '100' as never })],
    ['fileFromURL: a signal that is not one', 'signal', () => fileFromURL(url(), { signal: {} as never })],
    [
      'fileFromURL: a dispatcher that is not one',
      'dispatcher',
      () => fileFromURL(url(), { dispatcher: {} as never }),
    ],
    ['fileFromURL: a null dispatcher', 'dispatcher', () => fileFromURL(url(), { dispatcher: null as never })],
    ['fileFromURL: a numeric filename', 'filename', () => fileFromURL(url(), { filename: 7 as never })],
  ];

  test.each(cases)('%s: InvalidOptionError naming %s', async (_name, option, call) => {
    const before = { requests: server.received.length, disk: everything() };
    const error = await rejection(Promise.resolve().then(call));
    expect(error).toBeInstanceOf(InvalidOptionError);
    expect(error).toMatchObject({ option });
    expect(error.message).toMatch(new RegExp(`^${option} must be `));
    expect({ requests: server.received.length, disk: everything() }).toEqual(before);
  });

  test('the same calls with options of the right kind succeed', async () => {
    const controller = new AbortController();
    const dispatcher = new Agent();
    const kept = mkdtempSync(join(root, 'kept-'));
    try {
      expect((await fileFromPath(join(files, 'plain.png'), { filename: 'a.png' })).name).toBe('a.png');
      expect(fileFromBase64('aGk=', { contentType: 'text/plain' }).type).toBe('text/plain');
      const file = await fileFromURL(`${server.url}/plain.png`, {
        tempDir: kept,
        timeout: 2_147_483_647,
        signal: controller.signal,
        dispatcher,
        filename: 'b.png',
      });
      expect([file.name, file.size]).toEqual(['b.png', png(2, 2).byteLength]);
    } finally {
      await dispatcher.close();
    }
  });
});
