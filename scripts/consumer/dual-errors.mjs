// `instanceof` across copies of the error classes, in the installed package. An application may
// `import` the SDK in one place and `require` it in another, and each entry point carries its own
// copy of the classes it uses: this loads every entry both ways in one process, throws every
// error class of every copy, and checks each against every copy of every class. It also throws
// some of them the way the SDK does (a refused option, a failed verification) and catches them
// with another entry's or build's class. Prints one JSON line: { copies, pairs, thrown }.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const ENTRIES = ['mediagw', 'mediagw/webhooks', 'mediagw/redis', 'mediagw/testing'];

const init = {
  status: 400,
  body: { code: 'invalid_request', message: 'bad', data: null },
  headers: {},
  requestId: 'req_1',
  operation: 'POST /v1/videos/generations',
};
const fields = { code: 'invalid_request', message: 'bad', type: undefined };
const task = { id: 'task_1', object: 'video', status: 'failed' };
const API_CLASSES = [
  'APIError',
  'BadRequestError',
  'AuthenticationError',
  'PermissionDeniedError',
  'NotFoundError',
  'ConflictError',
  'MediaExpiredError',
  'PayloadTooLargeError',
  'RateLimitError',
  'InternalServerError',
  'ContentModerationError',
  'MediaLibraryError',
];

/** Constructor arguments for every exported error class; a class missing here fails the check. */
const ARGUMENTS = {
  ...Object.fromEntries(API_CLASSES.map((name) => [name, [init, fields]])),
  MediaGatewayError: ['misconfigured'],
  RequestValidationError: ['videos.create', [{ path: 'duration', message: 'must be 5 or 10' }]],
  APIConnectionError: ['GET /v1/videos/task_1: connection reset'],
  APIConnectionTimeoutError: ['GET /v1/videos/task_1: timed out'],
  APIUserAbortError: [],
  InvalidResponseError: ['GET /v1/videos/task_1: not JSON', 200, 'req_1'],
  ResponseTooLargeError: ['GET /v1/videos/task_1: too large', 200, 'req_1', 10],
  AmbiguousSubmissionError: ['POST /v1/videos/generations', 'timed out after 180000 ms'],
  TaskFailedError: ['task_1', task, 'task_failed', 'failed', 'video'],
  WaitTimeoutError: ['task_1', 1000, undefined, 'video'],
  SubmittedCallbackError: [{ task_id: 'task_1', status: 'submitted', raw: {} }, 'videos.waitForTask', 'x'],
  ProgressCallbackError: ['task_1', task, new Error('x'), 'video'],
  FileInputError: ['fileFromPath', 'missing.png', 'does not exist'],
  FileWriteError: ['/missing/video.mp4', 'could not be written', { unread: true }],
  InvalidOptionError: ['timeout', -1, 'a whole number of milliseconds from 1 to 2147483647'],
  QueueTimeoutError: [1000],
  WebhookVerificationError: ['unknown_key', 'no secret for kid'],
  RedisUnavailableError: ['SET', 'no answer within 2000 ms'],
};

/** The names of the classes on `error`'s prototype chain, as its own copy sees them. */
function chain(error) {
  const names = new Set();
  for (let proto = Object.getPrototypeOf(error); proto; proto = Object.getPrototypeOf(proto))
    names.add(proto.constructor.name);
  return names;
}

const thrown = (fn) => {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error(`${fn} did not throw`);
};

const modules = {};
for (const entry of ENTRIES) {
  modules[`import ${entry}`] = await import(entry);
  modules[`require ${entry}`] = require(entry);
}

// Every exported error class of every copy: a class whose chain reaches a MediaGatewayError.
const copies = [];
for (const [where, mod] of Object.entries(modules)) {
  for (const [name, value] of Object.entries(mod)) {
    if (typeof value === 'function' && value.prototype && chain(value.prototype).has('MediaGatewayError'))
      copies.push({ where, name, cls: value });
    else if (name === 'MediaGatewayError') copies.push({ where, name, cls: value });
  }
}
const unknown = [...new Set(copies.map((c) => c.name))].filter((name) => !(name in ARGUMENTS));
assert.deepEqual(unknown, [], 'every error class has constructor arguments in dual-errors.mjs');
// The copies this check is about: both builds of each entry, and a class in several entries.
for (const where of ['import mediagw', 'require mediagw', 'import mediagw/webhooks', 'require mediagw/redis'])
  assert.ok(
    copies.some((c) => c.where === where && c.name === 'InvalidOptionError'),
    `${where} exports InvalidOptionError`,
  );
assert.ok(copies.length >= 60, `found ${copies.length} copies of error classes`);

const wrong = [];
let pairs = 0;
for (const from of copies) {
  const error = thrown(() => {
    throw new from.cls(...ARGUMENTS[from.name]);
  });
  const own = chain(error);
  for (const to of copies) {
    pairs += 1;
    const expected = own.has(to.name);
    if (error instanceof to.cls !== expected)
      wrong.push(`${from.name} of ${from.where} instanceof ${to.name} of ${to.where}: not ${expected}`);
  }
}
assert.deepEqual(wrong.slice(0, 20), [], `${wrong.length} wrong answers`);

// Thrown by the SDK itself, caught with another copy's class.
const esm = (entry) => modules[`import ${entry}`];
const cjs = (entry) => modules[`require ${entry}`];
const natural = {
  'require mediagw/webhooks: a handler option': thrown(() =>
    cjs('mediagw/webhooks').createWebhookHandler({ secrets: { k: 's' }, onEvent() {}, toleranceSeconds: -1 }),
  ),
  'import mediagw: a client option': thrown(
    () =>
      new (esm('mediagw').MediaGateway)({ apiKey: 'k', baseURL: 'https://gw.example', timeout: Number.NaN }),
  ),
  'import mediagw/redis: a store option': thrown(
    () =>
      new (esm('mediagw/redis').RedisDedupeStore)({
        client: { sendCommand: async () => null },
        leaseSeconds: 0,
      }),
  ),
};
natural['require mediagw/testing: a gateway option'] = await cjs('mediagw/testing')
  .startMockGateway({ requestLogLimit: -1 })
  .then((gateway) => gateway.close().then(() => new Error('startMockGateway accepted requestLogLimit -1')))
  .catch((error) => error);
for (const [how, error] of Object.entries(natural)) {
  assert.equal(error.name, 'InvalidOptionError', `${how}: ${error}`);
  for (const { where, name, cls } of copies) {
    const expected = name === 'InvalidOptionError' || name === 'MediaGatewayError';
    assert.equal(error instanceof cls, expected, `${how}: instanceof ${name} of ${where}`);
  }
}
const body = JSON.stringify({ id: 'evt_1', type: 'task.failed', data: {} });
const verification = thrown(() =>
  cjs('mediagw/webhooks').verifyWebhook({ body, headers: {}, secrets: { k: 'whsec_1' } }),
);
assert.ok(
  verification instanceof esm('mediagw/webhooks').WebhookVerificationError,
  'verification, ESM class',
);
assert.ok(verification instanceof esm('mediagw').MediaGatewayError, 'verification, ESM MediaGatewayError');
assert.ok(
  !(verification instanceof esm('mediagw').InvalidOptionError),
  'verification is no InvalidOptionError',
);

console.log(JSON.stringify({ copies: copies.length, pairs, thrown: Object.keys(natural).length + 1 }));
