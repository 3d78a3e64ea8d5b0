// Covers: src/testing/state/request-log.ts
import { createHash } from 'node:crypto';
import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { FormData, fetch } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { type MockGateway, pngImage, startMockGateway } from '../../src/testing/index.js';
import { api, createAgent } from './helpers.js';

const agent = createAgent();
let gateway: MockGateway;

beforeAll(async () => {
  gateway = await startMockGateway({ clock: 'manual' });
  gateway.router
    .add('POST', '/v1/test/json', (ctx) => ctx.json(200, { received: ctx.body }))
    .add(
      'POST',
      '/v1/test/upload',
      (ctx) =>
        ctx.json(200, {
          prompt: ctx.field('prompt'),
          files: ctx.files('image[]').map((f) => ({ filename: f.filename, size: f.size, sha256: f.sha256 })),
        }),
      { body: 'multipart' },
    );
});
beforeEach(() => gateway.resetRequests());
afterAll(async () => {
  await gateway.close();
  await agent.close();
});

describe('request log', () => {
  test('records method, path, query, masked headers and the parsed JSON body', async () => {
    await api(agent, gateway, 'POST', '/v1/test/json?model=imgmodel-2&page=2', {
      key: gateway.apiKey,
      body: { prompt: 'a cat', n: 2 },
    });
    expect(gateway.requests).toHaveLength(1);
    const [seen] = gateway.requests;
    expect(seen).toMatchObject({
      id: expect.stringMatching(/^req_\d+$/),
      origin: 'api',
      method: 'POST',
      path: '/v1/test/json',
      query: { model: 'imgmodel-2', page: '2' },
      body: { prompt: 'a cat', n: 2 },
      status: 200,
      at: gateway.clock.now(),
    });
    expect(seen?.headers['content-type']).toBe('application/json');
    expect(seen?.headers.authorization).toBe(`Bearer mgw_…${gateway.apiKey.slice(-4)}`);
  });

  test('never holds a whole key, in any account', async () => {
    for (const account of gateway.accounts) {
      await api(agent, gateway, 'POST', '/v1/test/json', { key: account.apiKey, body: {} });
      if (account.restrictedKey)
        await api(agent, gateway, 'POST', '/v1/test/json', { key: account.restrictedKey, body: {} });
    }
    const text = JSON.stringify(gateway.requests);
    for (const account of gateway.accounts) {
      expect(text).not.toContain(account.apiKey);
      if (account.restrictedKey) expect(text).not.toContain(account.restrictedKey);
    }
    expect(gateway.requests).toHaveLength(3);
  });

  test('records multipart parts: text values, and files by name, type, size and hash only', async () => {
    const first = pngImage({ seed: 1 });
    const second = Buffer.alloc(200 * 1024, 7); // larger than the 64 KiB head that is kept
    const form = new FormData();
    form.append('model', 'imgmodel-2');
    form.append('prompt', 'put the cat in the hat');
    form.append('image[]', new Blob([new Uint8Array(first)], { type: 'image/png' }), 'cat.png');
    form.append('image[]', new Blob([new Uint8Array(second)], { type: 'image/jpeg' }), 'hat.jpg');
    const response = await fetch(`${gateway.url}/v1/test/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gateway.apiKey}` },
      body: form,
      dispatcher: agent,
    });
    const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
    expect(await response.json()).toEqual({
      prompt: 'put the cat in the hat',
      files: [
        { filename: 'cat.png', size: first.length, sha256: sha(first) },
        { filename: 'hat.jpg', size: second.length, sha256: sha(second) },
      ],
    });
    const parts = gateway.requests[0]?.parts ?? [];
    expect(parts.map((p) => [p.name, p.filename, p.contentType, p.size, p.value])).toEqual([
      ['model', undefined, 'text/plain', 10, 'imgmodel-2'],
      ['prompt', undefined, 'text/plain', 22, 'put the cat in the hat'],
      ['image[]', 'cat.png', 'image/png', first.length, undefined],
      ['image[]', 'hat.jpg', 'image/jpeg', second.length, undefined],
    ]);
    expect(parts[2]?.head?.equals(first)).toBe(true);
    expect(parts[3]?.head?.length).toBe(64 * 1024);
    expect(gateway.requests[0]?.body).toBeUndefined();
  });

  test('a multipart route refuses a JSON body with 400 invalid_request', async () => {
    const reply = await api(agent, gateway, 'POST', '/v1/test/upload', {
      key: gateway.apiKey,
      body: { prompt: 'x' },
    });
    expect(reply.status).toBe(400);
    expect(reply.json()).toEqual({
      code: 'invalid_request',
      message: 'expected a multipart/form-data body',
      data: null,
    });
  });

  test('a broken multipart body is 400 invalid_request', async () => {
    const reply = await api(agent, gateway, 'POST', '/v1/test/upload', {
      key: gateway.apiKey,
      headers: { 'content-type': 'multipart/form-data; boundary=xyz' },
      body: '--xyz\r\nContent-Disposition: form-data; name="prompt"\r\n\r\nunfinished',
    });
    expect(reply.status).toBe(400);
    expect(reply.json()).toMatchObject({
      code: 'invalid_request',
      message: expect.stringContaining('multipart'),
    });
  });

  test.each(['/v1/test/json', '/v1/test/upload'])(
    'a client that goes away mid-body (%s) is logged, not answered',
    async (path) => {
      const socket = connect(Number(new URL(gateway.url).port), '127.0.0.1');
      await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
      const type = path.endsWith('upload') ? 'multipart/form-data; boundary=b' : 'application/json';
      socket.write(
        `POST ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${gateway.apiKey}\r\nContent-Type: ${type}\r\nContent-Length: 1000\r\n\r\n--b\r\n`,
      );
      await sleep(20);
      socket.destroy();
      for (let i = 0; i < 100 && !gateway.requests[0]?.error; i++) await sleep(5);
      expect(gateway.requests[0]).toMatchObject({
        path,
        error: 'the client went away before the body was complete',
      });
      expect(gateway.requests[0]?.status).toBeUndefined();
    },
  );

  test('resetRequests empties the same array', async () => {
    const log = gateway.requests;
    await api(agent, gateway, 'POST', '/v1/test/json', { key: gateway.apiKey, body: {} });
    expect(log).toHaveLength(1);
    gateway.resetRequests();
    expect(log).toHaveLength(0);
    expect(gateway.requests).toBe(log);
  });
});
