// Runtime checks of the installed package, shared by esm.mjs (import) and cjs.cjs (require).
// `load(name)` loads an entry point the wrapper's way; `resolve(name)` says which file it is.
// Prints one JSON line, { format, files, names, foreignErrors }, for check-consumer.mjs to compare.
const assert = require('node:assert/strict');
const { readFileSync } = require('node:fs');

const KEY_ID = 'kid_consumer';
const SECRET = 'whsec_consumer_0123456789';

/** A `task.completed` event as the gateway sends it. */
function completedEvent(id) {
  const now = Math.floor(Date.now() / 1000);
  return {
    id,
    type: 'task.completed',
    api_version: '2026-10-03',
    created_at: now,
    data: {
      task_id: 'task_consumer',
      model: 'vidmodel-2.5',
      kind: 'video',
      status: 'completed',
      completed_at: now,
      task_url: 'https://gw.example/v1/videos/task_consumer',
      result: { outputs: [] },
      error: null,
    },
  };
}

/** What `promise` rejects with; throws when it resolves. */
async function rejection(promise) {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

async function checkClient(sdk, testing) {
  assert.equal(typeof sdk.MediaGateway, 'function');
  assert.ok(sdk.RateLimitError.prototype instanceof sdk.APIError);
  assert.ok(sdk.APIError.prototype instanceof sdk.MediaGatewayError);
  const gateway = await testing.startMockGateway();
  try {
    assert.match(gateway.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    const client = new sdk.MediaGateway({ apiKey: gateway.apiKey, baseURL: gateway.url, maxRetries: 0 });
    const answer = await client.embeddings.create({ model: 'text-embedding-3-small', input: 'hello' });
    assert.equal(answer.data.length, 1);
    assert.ok(answer.data[0].embedding.length > 0, 'the embedding has numbers');
    const sent = gateway.requests.length;
    const invalid = await rejection(client.embeddings.create({ model: 'no-such-model', input: 'x' }));
    assert.ok(invalid instanceof sdk.RequestValidationError, `got ${invalid}`);
    assert.equal(gateway.requests.length, sent, 'a refused request is never sent');
    const wrongKey = new sdk.MediaGateway({ apiKey: 'sk-wrong', baseURL: gateway.url, maxRetries: 0 });
    const denied = await rejection(wrongKey.embeddings.create({ model: 'bge-m3', input: 'x' }));
    assert.ok(denied instanceof sdk.AuthenticationError, `got ${denied}`);
    assert.equal(denied.status, 401);
    await checkRetry(sdk, gateway);
    await checkMultipart(sdk, testing, gateway);
  } finally {
    await gateway.close();
  }
}

/**
 * Multipart bodies, whose encoders load on first use: an image upload and an image edit, each
 * received by the gateway as parts with the file's bytes.
 */
async function checkMultipart(sdk, testing, gateway) {
  const client = new sdk.MediaGateway({ apiKey: gateway.apiKey, baseURL: gateway.url, maxRetries: 0 });
  const png = testing.pngImage({ seed: 7 });
  const digest = require('node:crypto').createHash('sha256').update(png).digest('hex');
  const uploaded = await client.uploads.image(png);
  assert.match(uploaded.url, /^https?:\/\//);
  const edited = await client.images.edit({ model: 'imgmodel-2', prompt: 'make it night', image: png });
  assert.equal(edited.data.length, 1);
  const received = (path) => gateway.requests.filter((r) => r.method === 'POST' && r.path === path);
  for (const [path, part] of [
    ['/v1/uploads/images', 'file'],
    ['/v1/images/edits', 'image'],
  ]) {
    const [request] = received(path);
    assert.ok(request, `no POST ${path}`);
    assert.match(request.headers['content-type'], /^multipart\/form-data; boundary=/);
    const file = (request.parts ?? []).find((p) => p.name === part);
    assert.equal(file?.sha256, digest, `${path}: part ${part} holds the image`);
  }
}

/**
 * One retry for real: the gateway answers a video lookup 503 once, then the client's retry loads
 * its retry library (on first use, the way this build loads it) and gets the task.
 */
async function checkRetry(sdk, gateway) {
  const warnings = [];
  const client = new sdk.MediaGateway({
    apiKey: gateway.apiKey,
    baseURL: gateway.url,
    maxRetries: 2,
    logger: { warn: (message) => warnings.push(message) },
  });
  const { task_id: id } = await client.videos.create({
    model: 'vidmodel-2.0-mini',
    prompt: 'a red kite over a beach',
  });
  const path = `/v1/videos/${id}`;
  gateway.inject({
    match: { method: 'GET', path },
    times: 1,
    fault: { status: 503, headers: { 'Retry-After': '0' } },
  });
  const video = await client.videos.retrieve(id);
  assert.equal(video.id, id);
  const lookups = gateway.requests.filter((r) => r.method === 'GET' && r.path === path);
  assert.deepEqual(
    lookups.map((r) => r.status),
    [503, 200],
    'one 503, then one retry that succeeded',
  );
  assert.equal(warnings.length, 1, `one retry logged, got ${JSON.stringify(warnings)}`);
  assert.match(warnings[0], /retry 1 in 0 ms/);
}

/**
 * `mediagw/jobs`, which imports `mediagw` by the package's name: a one-job run against the mock
 * gateway, with a file journal, saves the job's output and sends it once; a manifest with a bad
 * line is refused with a `RequestValidationError` of `mediagw`.
 */
async function checkJobs(sdk, jobs, testing) {
  const { mkdtempSync, readdirSync, rmSync } = require('node:fs');
  const { join } = require('node:path');
  const dir = mkdtempSync(join(require('node:os').tmpdir(), 'mediagw-consumer-jobs-'));
  const gateway = await testing.startMockGateway();
  try {
    const client = new sdk.MediaGateway({ apiKey: gateway.apiKey, baseURL: gateway.url, maxRetries: 0 });
    const job = { id: 'notes-1', operation: 'embeddings.create', body: { model: 'bge-m3', input: ['x'] } };
    const options = { journal: join(dir, 'journal'), outputDir: join(dir, 'out') };
    const summary = await jobs.runJobs(client, [job], options);
    assert.equal(summary.counts.completed, 1, JSON.stringify(summary));
    assert.deepEqual(readdirSync(join(dir, 'out')), ['notes-1.json']);
    const sent = gateway.requests.filter((r) => r.method === 'POST' && r.path === '/v1/embeddings');
    assert.equal(sent.length, 1);
    const bad = { ...job, id: 'bad', body: { model: 'bge-m3' } };
    const refused = await rejection(jobs.runJobs(client, [bad], { ...options, journal: join(dir, 'j2') }));
    assert.ok(refused instanceof sdk.RequestValidationError, `got ${refused}`);
    assert.equal(gateway.requests.filter((r) => r.path === '/v1/embeddings').length, 1, 'nothing more sent');
  } finally {
    await gateway.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function checkWebhooks(webhooks) {
  const secrets = { [KEY_ID]: SECRET };
  const body = JSON.stringify(completedEvent('evt_consumer_1'));
  const headers = webhooks.signWebhook({ body, secret: SECRET, keyId: KEY_ID });
  const event = await webhooks.verifyWebhookAsync({ body, headers, secrets });
  assert.equal(event.id, 'evt_consumer_1');
  assert.equal(webhooks.verifyWebhook({ body, headers, secrets }).type, 'task.completed');
  const asyncHeaders = await webhooks.signWebhookAsync({ body, secret: SECRET, keyId: KEY_ID });
  assert.equal(webhooks.verifyWebhook({ body, headers: asyncHeaders, secrets }).id, 'evt_consumer_1');

  const tampered = await rejection(webhooks.verifyWebhookAsync({ body: `${body} `, headers, secrets }));
  assert.ok(tampered instanceof webhooks.WebhookVerificationError, `got ${tampered}`);
  assert.equal(tampered.reason, 'signature_mismatch');

  const handled = [];
  const handler = webhooks.createWebhookHandler({ secrets, onEvent: (e) => handled.push(e.id) });
  const deliver = () =>
    handler(new Request('http://127.0.0.1/hooks', { method: 'POST', body, headers: new Headers(headers) }));
  assert.equal((await deliver()).status, 200);
  assert.equal((await deliver()).status, 200, 'a duplicate is answered 200');
  assert.deepEqual(handled, ['evt_consumer_1'], 'a duplicate does not reach onEvent');
  const bad = await handler(new Request('http://127.0.0.1/hooks', { method: 'POST', body, headers: {} }));
  assert.equal(bad.status, 400);
}

/**
 * The error classes of other entry points that descend from a class named MediaGatewayError but
 * are not `instanceof` the one `mediagw` exports, as `entry: Class`.
 */
function foreignErrorClasses(sdk, modules) {
  const found = [];
  for (const [entry, mod] of Object.entries(modules)) {
    for (const [name, value] of Object.entries(mod)) {
      if (typeof value !== 'function' || !(value.prototype instanceof Error)) continue;
      let proto = value.prototype;
      while (proto && proto.constructor.name !== 'MediaGatewayError') proto = Object.getPrototypeOf(proto);
      if (proto && !(value.prototype instanceof sdk.MediaGatewayError) && value !== sdk.MediaGatewayError)
        found.push(`${entry}: ${name}`);
    }
  }
  return found;
}

/**
 * Exported classes whose `name` is not their export name. Loggers name an error by
 * `constructor.name` (pino's serializer does), so `RateLimitError` must be called that in both
 * builds, not `_RateLimitError` or the empty string.
 */
function misnamedClasses(modules) {
  const found = [];
  for (const [entry, mod] of Object.entries(modules)) {
    for (const [name, value] of Object.entries(mod)) {
      if (typeof value === 'function' && /^[A-Z]/.test(name) && value.name !== name)
        found.push(`${entry}: ${name} is named ${JSON.stringify(value.name)}`);
    }
  }
  return found;
}

/** Runs every check; throws on the first failure. */
async function run(format, load, resolve) {
  const pkg = JSON.parse(readFileSync(resolve('mediagw/package.json'), 'utf8'));
  const entries = Object.keys(pkg.exports)
    .filter((key) => key !== './package.json')
    .map((key) => (key === '.' ? 'mediagw' : `mediagw/${key.slice(2)}`));
  const files = {};
  const names = {};
  const modules = {};
  for (const entry of entries) {
    files[entry] = resolve(entry);
    const mod = await load(entry);
    modules[entry] = mod;
    names[entry] = Object.keys(mod)
      .filter((name) => name !== 'default' && name !== '__esModule' && name !== 'module.exports')
      .sort();
    assert.ok(names[entry].length > 0, `${entry} exports nothing`);
  }
  assert.deepEqual(misnamedClasses(modules), [], 'every exported class has its own name');
  const sdk = await load('mediagw');
  assert.equal(sdk.VERSION, pkg.version, 'VERSION is the package version');
  await checkClient(sdk, await load('mediagw/testing'));
  await checkWebhooks(await load('mediagw/webhooks'));
  await checkJobs(sdk, await load('mediagw/jobs'), await load('mediagw/testing'));
  const foreignErrors = foreignErrorClasses(sdk, modules);
  console.log(JSON.stringify({ format, files, names, foreignErrors }));
}

module.exports = { run, rejection };
