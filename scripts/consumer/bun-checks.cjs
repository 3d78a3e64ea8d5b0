// The client checks of the installed package under Bun, shared by bun-esm.mjs (import) and
// bun-cjs.cjs (require): the mock gateway (a node:http server) runs in this process, and two
// clients use it, one given `fetch: globalThis.fetch` and one with no `fetch` (Bun answers
// `import('undici')` with a stand-in, so the client sends with Bun's fetch by itself).
// Prints one JSON line, { format, runtime, checks }, for check-consumer.mjs.
const assert = require('node:assert/strict');
const { createHash } = require('node:crypto');
const { mkdtempSync, readFileSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { rejection } = require('./checks.cjs');

const KEY_ID = 'kid_bun';
const SECRET = 'whsec_bun_0123456789';

/** Every client check against `gateway` with `client`; returns the names of those that passed. */
async function clientChecks(sdk, testing, gateway, client, folder) {
  const passed = [];
  const check = async (name, fn) => {
    try {
      await fn();
    } catch (error) {
      error.message = `${name}: ${error.message}`;
      throw error;
    }
    passed.push(name);
  };
  const wait = { interval: 20, timeout: 60_000 };

  await check('image generate and wait', async () => {
    const { task_id } = await client.images.generateAsync({ model: 'imgmodel-2', prompt: 'a harbour town' });
    const task = await client.images.waitForTask(task_id, { model: 'imgmodel-2', ...wait });
    assert.equal(task.status, 'succeeded');
    assert.ok(task.images.length > 0, 'the task has images');
  });
  let videoId;
  await check('video createAndWait', async () => {
    const task = await client.videos.createAndWait(
      { model: 'vidmodel-2.0-mini', prompt: 'a red kite' },
      wait,
    );
    assert.equal(task.status, 'completed');
    videoId = task.id;
  });
  await check('embeddings', async () => {
    const answer = await client.embeddings.create({ model: 'text-embedding-3-small', input: 'hello' });
    assert.equal(answer.data.length, 1);
    assert.ok(answer.data[0].embedding.length > 0);
  });
  await check('multipart upload', async () => {
    const png = testing.pngImage({ width: 512, height: 512, seed: 5 });
    const before = gateway.requests.length;
    const uploaded = await client.uploads.image(png);
    assert.match(uploaded.url, /^https?:\/\//);
    const request = gateway.requests.slice(before).find((r) => r.path === '/v1/uploads/images');
    assert.match(request?.headers['content-type'] ?? '', /^multipart\/form-data; boundary=/);
    const part = (request?.parts ?? []).find((p) => p.name === 'file');
    assert.equal(part?.sha256, createHash('sha256').update(png).digest('hex'), 'the part holds the image');
  });
  await check('download saveTo through the redirect', async () => {
    const target = join(folder, `video-${passed.length}.mp4`);
    const download = await client.videos.downloadContent(videoId);
    const saved = await download.saveTo(target);
    const expected = testing.mp4Video();
    assert.equal(saved.bytes, expected.length);
    assert.ok(readFileSync(target).equals(expected), 'the file holds the video');
    const media = gateway.requests.filter((r) => r.origin === 'media').at(-1);
    assert.equal(media?.headers.authorization, undefined, 'the key stays off the media origin');
  });
  await check('a validation error before sending', async () => {
    const sent = gateway.requests.length;
    const invalid = await rejection(client.embeddings.create({ model: 'no-such-model', input: 'x' }));
    assert.ok(invalid instanceof sdk.RequestValidationError, `got ${invalid}`);
    assert.equal(gateway.requests.length, sent, 'a refused request is never sent');
  });
  await check('APIError mapping', async () => {
    const missing = await rejection(client.videos.retrieve('task_does_not_exist'));
    assert.ok(missing instanceof sdk.NotFoundError, `got ${missing}`);
    assert.equal(missing.status, 404);
    const wrongKey = client.withOptions({ apiKey: 'sk-wrong' });
    const denied = await rejection(wrongKey.embeddings.create({ model: 'bge-m3', input: 'x' }));
    assert.ok(denied instanceof sdk.AuthenticationError, `got ${denied}`);
  });
  return passed;
}

async function webhookChecks(webhooks) {
  const now = Math.floor(Date.now() / 1000);
  const body = JSON.stringify({
    id: 'evt_bun_1',
    type: 'task.failed',
    api_version: '2026-10-03',
    created_at: now,
    data: {},
  });
  const secrets = { [KEY_ID]: SECRET };
  const headers = webhooks.signWebhook({ body, secret: SECRET, keyId: KEY_ID });
  assert.equal(webhooks.verifyWebhook({ body, headers, secrets }).id, 'evt_bun_1');
  assert.equal((await webhooks.verifyWebhookAsync({ body, headers, secrets })).id, 'evt_bun_1');
  const tampered = await rejection(webhooks.verifyWebhookAsync({ body: `${body} `, headers, secrets }));
  assert.ok(tampered instanceof webhooks.WebhookVerificationError, `got ${tampered}`);
  return ['mediagw/webhooks verify'];
}

/** Runs every check; throws on the first failure. */
async function run(format, load) {
  assert.ok(typeof Bun === 'object', 'these checks run under Bun');
  const sdk = await load('mediagw');
  const testing = await load('mediagw/testing');
  const gateway = await testing.startMockGateway({ clock: 'real', speed: 1000 });
  const folder = mkdtempSync(join(tmpdir(), 'mediagw-bun-'));
  const checks = [];
  try {
    const base = { apiKey: gateway.apiKey, baseURL: gateway.url, maxRetries: 0 };
    let calls = 0;
    const counting = (url, init) => {
      calls += 1;
      return globalThis.fetch(url, init);
    };
    const before = gateway.requests.length;
    const given = new sdk.MediaGateway({ ...base, fetch: counting });
    for (const name of await clientChecks(sdk, testing, gateway, given, folder))
      checks.push(`fetch: globalThis.fetch: ${name}`);
    // Every request the gateway saw (the media origin's too) went through the given fetch.
    assert.equal(calls, gateway.requests.length - before, 'the given fetch sent every request');
    for (const name of await clientChecks(sdk, testing, gateway, new sdk.MediaGateway(base), folder))
      checks.push(`no fetch option (Bun's fetch picked): ${name}`);
    // fileFromURL, a helper beside the client, also falls back to Bun's fetch.
    const png = testing.pngImage({ seed: 11 });
    const { url } = await new sdk.MediaGateway(base).uploads.image(png);
    const file = await sdk.fileFromURL(url);
    assert.ok(Buffer.from(await file.arrayBuffer()).equals(png), 'fileFromURL got the uploaded bytes');
    checks.push('fileFromURL with no fetch option');
    // undici's own API is not Bun's: a dispatcher cannot be used here, and the error says so.
    const withDispatcher = new sdk.MediaGateway({ ...base, dispatcher: {} });
    const refused = await rejection(withDispatcher.embeddings.create({ model: 'bge-m3', input: 'x' }));
    assert.ok(refused instanceof sdk.InvalidOptionError, `got ${refused}`);
    assert.match(refused.message, /pass `fetch` instead/);
    checks.push('a dispatcher is refused, naming fetch');
  } finally {
    await gateway.close();
    rmSync(folder, { recursive: true, force: true });
  }
  checks.push(...(await webhookChecks(await load('mediagw/webhooks'))));
  console.log(JSON.stringify({ format, runtime: `bun ${Bun.version}`, checks }));
}

module.exports = { run };
