// Covers: src/internal/redact.ts
import { inspect } from 'node:util';
import { describe, expect, test } from 'vitest';
import { InvalidResponseError } from '../../src/core/errors.js';
import { createRedactor, isSecretName, MAX_DEPTH, redactText, TOO_DEEP } from '../../src/internal/redact.js';
import { testClient } from '../helpers/client.js';
import { drain, startRawServer } from '../helpers/raw-server.js';
import { rejection } from '../helpers/rejection.js';
import { expectLinear } from './linear-time.js';

const KEY = 'mgw_live_SECRET_4f9a1c2e7b6d5a3f';
const SIGNING_SECRET = 'whsec_live_9c1d7e3b5a2f4068';

/** Every way an error is printed or shipped to a log. */
function everythingAbout(error: unknown): string {
  const e = error as Error & { toJSON?: () => unknown; cause?: unknown };
  return [
    e.message,
    e.stack,
    String(e),
    JSON.stringify(e),
    JSON.stringify(e.toJSON?.()),
    inspect(e, { depth: 30, showHidden: true }),
  ].join('\n');
}

/** A client whose gateway answers every request with `status` and `body` as given. */
async function answering(status: number, body: string, logger?: (line: string) => void) {
  const server = await startRawServer(async (req, res) => {
    await drain(req);
    res.writeHead(status, { 'content-type': 'application/json' }).end(body);
  });
  const log = (line: string, data?: unknown) => logger?.(`${line} ${JSON.stringify(data ?? {})}`);
  const client = testClient({
    apiKey: KEY,
    baseURL: server.url,
    ...(logger ? { logger: { debug: log, info: log, warn: log, error: log } } : {}),
  });
  return { client, server };
}

describe('a quoted body never carries a secret into an error', () => {
  test.each([
    [
      'an HTML page with the endpoint JSON cut mid-secret',
      `<html>upstream hiccup {"endpoint":{"id":"whep_1","key_id":"kid_1"},"signing_secret":"${SIGNING_SECRET.slice(0, 20)}`,
    ],
    [
      'the endpoint JSON cut inside the secret, no closing quote or brace',
      `{"endpoint":{"id":"whep_1","key_id":"kid_1"},"signing_secret":"${SIGNING_SECRET}`,
    ],
    ['JSON that is a string, not an object', JSON.stringify(`signing_secret: ${SIGNING_SECRET}`)],
    ['a form-style body', `signing_secret=${SIGNING_SECRET}&key_id=kid_1`],
  ])('%s', async (_, body) => {
    const { client, server } = await answering(200, body);
    try {
      const error = await rejection(
        client.webhooks.endpoints.create({ url: 'https://hooks.example.com/in' }),
      );
      expect(error).toBeInstanceOf(InvalidResponseError);
      const printed = everythingAbout(error);
      expect(printed).not.toContain(SIGNING_SECRET.slice(0, 12));
      expect(error.message).toContain('[redacted]');
      expect(JSON.stringify((error as unknown as InvalidResponseError).toJSON())).toContain('signing_secret');
    } finally {
      await server.close();
    }
  });

  test('the API key is removed before the quote is cut, so no prefix of it is left', async () => {
    // The key starts at character 110 of the body: a 120-character cut would keep 10 of its characters.
    const body = `${'x'.repeat(110)}${KEY} and more`;
    const { client, server } = await answering(200, body);
    try {
      const error = await rejection(client.webhooks.endpoints.rotateSecret('whep_1'));
      expect(error).toBeInstanceOf(InvalidResponseError);
      expect(everythingAbout(error)).not.toContain(KEY.slice(0, 10));
    } finally {
      await server.close();
    }
  });

  test.each([
    [
      'a gateway error message',
      (key: string) =>
        JSON.stringify({ code: 'bad', message: `${'x'.repeat(500 - (key.length - 1))}${key}`, data: null }),
    ],
    [
      'an error object message',
      (key: string) => JSON.stringify({ error: { message: `${'x'.repeat(500 - (key.length - 1))}${key}` } }),
    ],
    ['a plain-text error body', (key: string) => `${'x'.repeat(500 - (key.length - 1))}${key}`],
  ])('the API key ending %s at its 500-character cut leaves no prefix of it', async (_, body) => {
    const { client, server } = await answering(400, body(KEY));
    try {
      const error = await rejection(client.videos.retrieve('task_1'));
      expect(error.status).toBe(400);
      expect(everythingAbout(error)).not.toContain(KEY.slice(0, 12));
      expect(error.message).toContain('[redacted]');
    } finally {
      await server.close();
    }
  });

  test('a 25-deep error body with the key at the bottom is masked, not printed', async () => {
    let body: unknown = { echoed: `Bearer ${KEY}`, signing_secret: SIGNING_SECRET };
    for (let i = 0; i < 25; i++) body = { nested: body };
    const { client, server } = await answering(
      400,
      JSON.stringify({ code: 'bad', message: 'x', data: body }),
    );
    try {
      const error = await rejection(client.webhooks.endpoints.rotateSecret('whep_1'));
      expect(error.status).toBe(400);
      const printed = `${everythingAbout(error)}\n${JSON.stringify(error.body)}`;
      expect(printed).not.toContain(KEY);
      expect(printed).not.toContain(SIGNING_SECRET);
      expect(JSON.stringify(error.body)).toContain(TOO_DEEP);
    } finally {
      await server.close();
    }
  });
});

describe('a session cookie the gateway sets never reaches an error', () => {
  test('Set-Cookie is kept in error.headers as [redacted], and printed nowhere', async () => {
    const cookie = 'sid=c00kie_9f8e7d6c5b4a; Path=/; HttpOnly';
    const server = await startRawServer(async (req, res) => {
      await drain(req);
      res
        .writeHead(400, { 'content-type': 'application/json', 'set-cookie': cookie })
        .end(JSON.stringify({ code: 'bad', message: 'no', data: null }));
    });
    try {
      const client = testClient({ apiKey: KEY, baseURL: server.url });
      const error = await rejection(client.videos.retrieve('task_1'));
      expect(error.status).toBe(400);
      expect(error.headers?.['set-cookie']).toBe('[redacted]');
      expect(error.headers?.['content-type']).toBe('application/json');
      expect(everythingAbout(error)).not.toContain('c00kie_9f8e7d6c5b4a');
    } finally {
      await server.close();
    }
  });
});

describe('the redactor', () => {
  test('replaces what lies below its depth limit, objects and strings alike', () => {
    let deep: Record<string, unknown> = { key: KEY, note: 'harmless' };
    for (let i = 0; i < 25; i++) deep = { nested: deep };
    const redacted = createRedactor(KEY)(deep);
    const text = JSON.stringify(redacted);
    expect(text).not.toContain(KEY);
    expect(text).toContain(TOO_DEEP);
    let level: unknown = redacted;
    for (let i = 0; i <= MAX_DEPTH; i++) level = (level as { nested: unknown }).nested;
    expect(level).toBe(TOO_DEEP);
  });

  test('masks secret-bearing fields by name in parsed bodies, keeps the rest', () => {
    const body = {
      endpoint: { id: 'whep_1', key_id: 'kid_1', url: 'https://hooks.example.com/in' },
      signing_secret: SIGNING_SECRET,
      previous_secret: 'whsec_old',
      usage: { completion_tokens: 42 },
      outputs: [{ url: 'https://gw.example/v1/videos/t/content', expires_at: null }],
    };
    expect(createRedactor(KEY)(structuredClone(body))).toEqual({
      ...body,
      signing_secret: '[redacted]',
      previous_secret: '[redacted]',
    });
  });

  test.each([
    ['"signing_secret":"whsec_abc","key_id":"kid_1"', '"signing_secret":"[redacted]","key_id":"kid_1"'],
    ['{"signing_secret": "whsec_ab\\"c"}', '{"signing_secret": "[redacted]"}'],
    ['{\\"signing_secret\\":\\"whsec_abc\\"}', '{\\"signing_secret\\":\\"[redacted]\\"}'],
    ['"signing_secret":"whsec_cut', '"signing_secret":"[redacted]'],
    ["secret='abc' api_key=k1", "secret='[redacted]' api_key=[redacted]"],
    ['authorization: Bearer sk_123', 'authorization: Bearer [redacted]'],
    [
      '"completion_tokens": 12, "expires_at": 3, "key_id": "kid"',
      '"completion_tokens": 12, "expires_at": 3, "key_id": "kid"',
    ],
  ])('%s', (text, expected) => {
    expect(redactText(text)).toBe(expected);
  });
});

describe('signed links of other CDNs and clouds', () => {
  test.each([
    ['Akamai __token__', 'https://a.akamaized.net/v.mp4?__token__=exp=1~acl=/*~hmac=SECRET2&w=1'],
    ['Akamai hdnts', 'https://a.akamaized.net/v.mp4?hdnts=exp=1~hmac=SECRET3&w=1'],
    ['Akamai hdnea', 'https://a.akamaized.net/v.mp4?hdnea=exp=1~hmac=SECRET3&w=1'],
    ['Google API key', 'https://storage.googleapis.com/b/o?key=AIzaSECRET4&w=1'],
    ['Alibaba or Tencent auth_key', 'https://cdn.example.com/v.mp4?auth_key=1700000000-0-0-SECRET6&w=1'],
    ['Tencent sign', 'https://cdn.example.com/v.mp4?sign=1700000000-abc-0-SECRET7&t=65a&w=1'],
    ['a name in underscores', 'https://cdn.example.com/v.mp4?_sig_=SECRET8&w=1'],
    ['a private key field', '{"private_key":"-----BEGIN SECRET9","w":1}'],
    ['an access key in a header', 'X-Access-Key: SECRET10\nw=1'],
  ])('%s is masked, the plain parameters kept', (_, text) => {
    const redacted = redactText(text);
    expect(redacted).not.toContain('SECRET');
    expect(redacted).toContain('[redacted]');
    expect(redacted).toMatch(/w"?[:=]1/);
  });

  test.each([
    ['keyword=cats&page=2'],
    ['monkey=1'],
    ['hotkey=ctrl'],
    ['key_id=kid_1'],
    ['keys=3'],
    ['signal=abort'],
    ['signup=1'],
    ['design=flat'],
    ['token_type=Bearer'],
    ['policy_id=p1'],
    ['"keyframes": 24'],
  ])('%s is kept as it is', (text) => {
    expect(redactText(text)).toBe(text);
  });

  test.each([
    ['__token__', true],
    ['hdnts', true],
    ['auth_key', true],
    ['Auth-Key', true],
    ['key', true],
    ['sign', true],
    ['private_key', true],
    ['Cookie', true],
    ['set-cookie', true],
    ['Proxy-Authorization', true],
    ['authorization', true],
    ['cookie_policy', false],
    ['authorization_url', false],
    ['keyword', false],
    ['monkey', false],
    ['key_id', false],
    ['signal', false],
  ])('isSecretName(%s) is %s', (name, secret) => {
    expect(isSecretName(name)).toBe(secret);
  });

  // Runs of the characters the name pattern may take, with no separator after them.
  test.each<[string, (n: number) => string]>([
    ['underscores', (n) => `?${'_'.repeat(n)}x`],
    ['underscores after a name', (n) => `?__token${'_'.repeat(n)}x`],
    ['names joined by underscores', (n) => `?${'token_'.repeat(n / 6)}x`],
    ['keys', (n) => `?${'key'.repeat(n / 3)}x`],
    ['a word of underscores and letters', (n) => `?${'a_'.repeat(n / 2)}=`],
  ])('redactText stays linear on %s', (_, text) => {
    expectLinear(text, (input) => redactText(input), { n: 16_384 });
  });
});

describe('logged URLs keep their path and plain parameters, not their signature', () => {
  const presigned =
    '/media/out%201.mp4?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIAEXAMPLE%2F20261125%2Fus-east-1' +
    '&X-Amz-Date=20261125T135500Z&X-Amz-Expires=900&X-Amz-SignedHeaders=host' +
    '&X-Amz-Security-Token=FQoGZXIvYXdzEXAMPLE&X-Amz-Signature=0f1e2d3c4b5a69788796a5b4c3d2e1f0&w=1280';
  const cdn =
    '/c/a.png?Expires=1764079200&Signature=abc~XYZ_123&Key-Pair-Id=K2JCJMDEHXQW5F&sig=zz9&token=tk1&q=hd';

  test.each([
    [
      'an S3 presigned link',
      presigned,
      ['AKIAEXAMPLE', 'FQoGZXIvYXdzEXAMPLE', '0f1e2d3c4b5a69788796a5b4c3d2e1f0'],
    ],
    ['a CloudFront-style link', cdn, ['1764079200', 'abc~XYZ_123', 'K2JCJMDEHXQW5F', 'zz9', 'tk1']],
  ])('%s', async (_, path, secrets) => {
    const lines: string[] = [];
    const server = await startRawServer(async (req, res) => {
      await drain(req);
      res.writeHead(200, { 'content-type': 'image/png' }).end('png');
    });
    try {
      const client = testClient({
        apiKey: KEY,
        baseURL: 'https://gw.example',
        logger: { debug: (line, data) => lines.push(`${line} ${JSON.stringify(data ?? {})}`) },
      });
      const download = await client.images.download(`${server.url}${path}`);
      expect(Buffer.from(await download.arrayBuffer()).toString()).toBe('png');
      // The request itself went out whole.
      expect(server.received[0]?.path).toBe(path);
      const log = lines.join('\n');
      expect(lines.filter((l) => l.startsWith('→ GET') || l.startsWith('← 200 GET'))).toHaveLength(2);
      for (const secret of secrets) expect(log).not.toContain(secret);
      expect(log).toContain(`${server.url}${path.slice(0, path.indexOf('?'))}?`);
      expect(log).toContain('[redacted]');
      for (const plain of ['X-Amz-Date=20261125T135500Z', 'X-Amz-SignedHeaders=host', 'w=1280', 'q=hd']) {
        if (path.includes(plain)) expect(log).toContain(plain);
      }
    } finally {
      await server.close();
    }
  });
});

describe('a storage error quoting the signature it refused', () => {
  test('S3 SignatureDoesNotMatch: no query value of the link reaches the error', async () => {
    const signature = 'f00dfacecafe0123456789abcdef0123456789abcdef0123456789abcdef01';
    const credential = 'AKIAEXAMPLE123/20261125/us-east-1/s3/aws4_request';
    const xml = `<?xml version="1.0" encoding="UTF-8"?><Error><Code>SignatureDoesNotMatch</Code><Message>The request signature we calculated does not match the signature you provided.</Message><AWSAccessKeyId>AKIAEXAMPLE123</AWSAccessKeyId><SignatureProvided>${signature}</SignatureProvided></Error>`;
    const server = await startRawServer(async (req, res) => {
      await drain(req);
      res.writeHead(403, { 'content-type': 'application/xml' }).end(xml);
    });
    try {
      const client = testClient({ apiKey: KEY, baseURL: 'https://gw.example' });
      const link = `${server.url}/media/a.png?X-Amz-Credential=${encodeURIComponent(credential)}&X-Amz-Signature=${signature}`;
      const error = await rejection(client.images.download(link));
      expect(error.status).toBe(403);
      const printed = everythingAbout(error);
      expect(printed).toContain('SignatureDoesNotMatch');
      expect(printed).not.toContain(signature);
      expect(printed).not.toContain(credential);
    } finally {
      await server.close();
    }
  });
});

describe('a key too short to be a credential', () => {
  // A dummy key of a test (`test`, `k`) is removed where it stands as a token, never from inside
  // the words, names and paths of a message or a stack trace.
  const text =
    'model cgt-latest-test is unknown; at processTicksAndRejections (node:internal/process/task_queues:95:5); see /srv/test/a.test.ts';

  test.each(['test', 'k'])(
    'apiKey %s leaves unrelated text whole, in the message and the stack',
    async (key) => {
      const server = await startRawServer(async (req, res) => {
        await drain(req);
        res.writeHead(400, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            code: 'invalid_request',
            message: `${text}; sent with Bearer ${key}`,
            data: null,
          }),
        );
      });
      try {
        const client = testClient({ apiKey: key, baseURL: server.url });
        const error = (await rejection(client.webhooks.capabilities({ model: 'vidmodel-2.5' }))) as Error;
        expect(error.message).toContain(text);
        expect(error.message).toContain('Bearer [redacted]');
        expect(error.stack).toContain(text);
        expect(everythingAbout(error)).not.toContain('[redacted]s');
      } finally {
        await server.close();
      }
    },
  );

  test.each([
    ['Bearer test', 'Bearer [redacted]'],
    ['{"api_key_hint":"test"}', '{"api_key_hint":"[redacted]"}'],
    ["apiKey: 'test',", "apiKey: '[redacted]',"],
    ['key=test&x=1', 'key=[redacted]&x=1'],
    ['test', '[redacted]'],
    ['latest tests cgt-test test.ts /test/ test_1', 'latest tests cgt-test test.ts /test/ test_1'],
  ])('as a token: %s', (input, expected) => {
    expect(createRedactor('test')(input)).toBe(expected);
  });

  test('a key of realistic length is removed everywhere, inside a word too', () => {
    expect(createRedactor(KEY)(`x${KEY}y cgt-${KEY}.ts`)).toBe('x[redacted]y cgt-[redacted].ts');
  });
});
