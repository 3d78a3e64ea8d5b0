// Covers: src/testing/state/media.ts
import { inflateSync } from 'node:zlib';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  largeBody,
  largeBodyByteAt,
  MEDIA_EXPIRED_MESSAGE,
  type MockGateway,
  mp4Video,
  pngImage,
  startMockGateway,
} from '../../src/testing/index.js';
import { api, call, createAgent } from './helpers.js';

const agent = createAgent();
let gateway: MockGateway;

/** A content route like the resources' `/content`: scoped to the account, served through the media store. */
function addContentRoute(target: MockGateway): void {
  target.router.add('GET', '/v1/test/content/:token', async (ctx) => {
    const record = ctx.gateway.media.get(ctx.params.token);
    if (!record || record.account !== ctx.account.id) return ctx.error(404, 'not_found', 'no such media');
    return ctx.gateway.media.serve(ctx, record);
  });
}

beforeAll(async () => {
  gateway = await startMockGateway({ clock: 'manual', mediaTtlMs: 60_000 });
  addContentRoute(gateway);
});
afterAll(async () => {
  await gateway.close();
  await agent.close();
});

const expiredBody = { error: { message: MEDIA_EXPIRED_MESSAGE, type: 'media_expired' } };

describe('generated files', () => {
  test('pngImage is a valid RGBA PNG of the asked size, different per seed', () => {
    const png = pngImage({ width: 32, height: 16, seed: 3 });
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(png.subarray(12, 16).toString('ascii')).toBe('IHDR');
    expect([png.readUInt32BE(16), png.readUInt32BE(20), png[24], png[25]]).toEqual([32, 16, 8, 6]);
    // Walk the chunks: every length is consistent and the image data inflates to the right size.
    const types: string[] = [];
    let idat = Buffer.alloc(0);
    for (let at = 8; at < png.length; ) {
      const length = png.readUInt32BE(at);
      const type = png.subarray(at + 4, at + 8).toString('ascii');
      types.push(type);
      if (type === 'IDAT') idat = Buffer.concat([idat, png.subarray(at + 8, at + 8 + length)]);
      at += 12 + length;
    }
    expect(types).toEqual(['IHDR', 'IDAT', 'IEND']);
    expect(inflateSync(idat).length).toBe((32 * 4 + 1) * 16);
    expect(pngImage({ seed: 1 }).equals(pngImage({ seed: 2 }))).toBe(false);
    expect(pngImage({ seed: 1 }).equals(pngImage({ seed: 1 }))).toBe(true);
  });

  test('mp4Video is a small ISO BMFF file with ftyp, moov and mdat boxes', () => {
    const mp4 = mp4Video();
    const boxes: string[] = [];
    for (let at = 0; at < mp4.length; ) {
      const size = mp4.readUInt32BE(at);
      boxes.push(mp4.subarray(at + 4, at + 8).toString('ascii'));
      expect(size).toBeGreaterThanOrEqual(8);
      at += size;
    }
    expect(boxes.slice(0, 2)).toEqual(['ftyp', 'moov']);
    expect(boxes).toContain('mdat');
    expect(mp4.length).toBeLessThan(10_000);
    expect(mp4.includes(Buffer.from('avc1'))).toBe(true);
  });

  test('largeBody yields exactly the asked bytes, deterministically, in chunks', async () => {
    let size = 0;
    let chunks = 0;
    let mismatches = 0;
    for await (const chunk of largeBody(300_000, 5)) {
      for (let i = 0; i < chunk.length; i += 997) if (chunk[i] !== largeBodyByteAt(size + i, 5)) mismatches++;
      size += chunk.length;
      chunks++;
    }
    expect([size, chunks, mismatches]).toEqual([300_000, 5, 0]);
  });
});

describe('content routes and the media origin', () => {
  test('content answers 302 to the media origin, which serves the bytes without a key', async () => {
    const record = gateway.media.publishVideo({ account: 'acct_1', taskId: 'cgt-redirect' });
    const redirect = await api(agent, gateway, 'GET', `/v1/test/content/${record.token}`, {
      key: gateway.apiKey,
    });
    expect(redirect.status).toBe(302);
    const location = new URL(redirect.headers.location ?? '');
    expect(location.origin).toBe(gateway.mediaUrl);
    expect(location.origin).not.toBe(gateway.url);
    gateway.resetRequests();
    const response = await request(location, { dispatcher: agent });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('video/mp4');
    expect(Buffer.from(await response.body.arrayBuffer()).equals(mp4Video())).toBe(true);
    expect(gateway.requests).toMatchObject([
      { origin: 'media', path: `/media/${record.token}`, status: 200 },
    ]);
    expect(gateway.requests[0]?.headers.authorization).toBeUndefined();
  });

  test('content needs the key of the owning account', async () => {
    const record = gateway.media.publishImage({ account: 'acct_1', seed: 4 });
    expect((await api(agent, gateway, 'GET', `/v1/test/content/${record.token}`)).status).toBe(401);
    const foreign = await api(agent, gateway, 'GET', `/v1/test/content/${record.token}`, {
      key: gateway.account('acct_2').apiKey,
    });
    expect(foreign.status).toBe(404);
  });

  test('expire(taskId) gives 410 with the spec message on both origins', async () => {
    const record = gateway.media.publishVideo({ account: 'acct_1', taskId: 'cgt-expire' });
    expect((await call(agent, record.url, 'GET', record.url)).status).toBe(200);
    expect(gateway.media.expire('cgt-expire')).toBe(1);
    const main = await api(agent, gateway, 'GET', `/v1/test/content/${record.token}`, {
      key: gateway.apiKey,
    });
    expect([main.status, main.json()]).toEqual([410, expiredBody]);
    const origin = await call(agent, record.url, 'GET', record.url);
    expect([origin.status, origin.json()]).toEqual([410, expiredBody]);
  });

  test('media expires after its TTL on the mock clock', async () => {
    const record = gateway.media.publishImage({ account: 'acct_1', seed: 9 });
    await gateway.clock.advance(59_999);
    expect((await call(agent, record.url, 'GET', record.url)).status).toBe(200);
    await gateway.clock.advance(1);
    expect((await call(agent, record.url, 'GET', record.url)).status).toBe(410);
  });

  test('a tampered signature is 403 and an unknown token 404', async () => {
    const record = gateway.media.publishImage({ account: 'acct_1' });
    const tampered = record.url.replace(/sig=([0-9a-f])/, (_m, c: string) => `sig=${c === '0' ? '1' : '0'}`);
    expect((await call(agent, tampered, 'GET', tampered)).status).toBe(403);
    expect((await call(agent, gateway.mediaUrl, 'GET', '/media/nope?sig=x')).status).toBe(404);
  });

  test('with redirectContent: false the content route serves the bytes itself', async () => {
    const direct = await startMockGateway({ clock: 'manual', redirectContent: false });
    try {
      addContentRoute(direct);
      const record = direct.media.publishImage({ account: 'acct_1', seed: 2 });
      const response = await request(`${direct.url}/v1/test/content/${record.token}`, {
        headers: { authorization: `Bearer ${direct.apiKey}` },
        dispatcher: agent,
      });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('image/png');
      expect(Buffer.from(await response.body.arrayBuffer()).equals(pngImage({ seed: 2 }))).toBe(true);
    } finally {
      await direct.close();
    }
  });
});

describe('large bodies', () => {
  test('largeMediaBytes streams 200 MB in many chunks without buffering it', async () => {
    const size = 200 * 1024 * 1024;
    const large = await startMockGateway({ clock: 'manual', largeMediaBytes: size });
    try {
      const record = large.media.publishVideo({ account: 'acct_1', taskId: 'cgt-large' });
      const response = await request(record.url, { dispatcher: agent });
      expect(Number(response.headers['content-length'])).toBe(size);
      const rssBefore = process.memoryUsage().rss;
      let peak = rssBefore;
      let received = 0;
      let chunks = 0;
      for await (const chunk of response.body) {
        received += (chunk as Buffer).length;
        chunks++;
        if (chunks % 256 === 0) peak = Math.max(peak, process.memoryUsage().rss);
      }
      expect(received).toBe(size);
      expect(chunks).toBeGreaterThan(1_000);
      // Coarse: a buffered body would add at least its own 200 MB.
      expect(peak - rssBefore).toBeLessThan(150 * 1024 * 1024);
    } finally {
      await large.close();
    }
  });
});
