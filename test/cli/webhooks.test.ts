// Covers: src/cli/commands/webhooks.ts
/**
 * `mediagw webhooks sign|send` against a receiver built from the SDK's own handler, and
 * `mediagw mock --forward-to` delivering task events to it.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { verifyWebhook } from '../../src/webhooks/index.js';
import { testClient } from '../helpers/client.js';
import { startReceiver, type TestReceiver } from '../integration/webhooks-receiver.js';
import { ensureBuilt, MOCK_BIN, run, start, stop, until } from './helpers.js';

const SECRET = 'whsec_cli_test_secret';
const OLD = 'whsec_cli_old_secret';
let receiver: TestReceiver;

beforeAll(async () => {
  await ensureBuilt();
  receiver = await startReceiver({ secrets: { kid_local: SECRET, kid_old: OLD } });
}, 180_000);
afterAll(() => receiver?.close());

/** A receiver whose clock is days behind: its `Date`, and a `Retry-After` date 120 s after it. */
const SKEWED = { date: 'Sun, 22 Nov 2026 10:00:00 GMT', 'retry-after': 'Sun, 22 Nov 2026 10:02:00 GMT' };

const send = (...args: string[]) =>
  run(['webhooks', 'send', receiver.url, '--secret', SECRET, '--json', ...args]);

describe('mediagw webhooks sign', () => {
  test.each([
    ['task.completed', 'video'],
    ['task.failed', 'image'],
    ['batch.completed', 'image'],
    ['webhook.endpoint_verification', 'video'],
  ])('%s (%s): headers that verify against the body', async (type, kind) => {
    const { code, stdout } = await run([
      'webhooks',
      'sign',
      '--secret',
      SECRET,
      '--type',
      type,
      '--kind',
      kind,
      '--json',
    ]);
    expect(code).toBe(0);
    const { headers, body } = JSON.parse(stdout);
    const event = verifyWebhook({ body, headers, secrets: { kid_local: SECRET } });
    expect(event.type).toBe(type);
    expect(headers['X-Service-Event-ID']).toBe(event.id);
    if (type.startsWith('task.')) expect((event.data as { kind: string }).kind).toBe(kind);
    expect(stdout).not.toContain(SECRET);
  });

  test('no secret: a usage error naming the flag and the variable', async () => {
    const { code, stderr } = await run(['webhooks', 'sign']);
    expect(code).toBe(1);
    expect(stderr).toContain('--secret');
    expect(stderr).toContain('MEDIAGW_WEBHOOK_SECRET');
  });
});

describe('the signing key ID from the environment', () => {
  test.each([
    [{ MEDIAGW_WEBHOOK_KEY_ID: 'kid_env' }, 'kid_env'],
    [{ MEDIAGW_WEBHOOK_KID: 'kid_older' }, 'kid_older'],
    [{ MEDIAGW_WEBHOOK_KEY_ID: 'kid_env', MEDIAGW_WEBHOOK_KID: 'kid_older' }, 'kid_env'],
    [{}, 'kid_local'],
  ])('%j: signed with kid %s', async (env, kid) => {
    const { code, stdout } = await run(['webhooks', 'sign', '--secret', SECRET, '--json'], { env });
    expect(code).toBe(0);
    expect(JSON.parse(stdout).headers['X-Service-Signature']).toMatch(new RegExp(`,kid=${kid}$`));
  });

  test('--kid wins over the environment', async () => {
    const { stdout } = await run(['webhooks', 'sign', '--secret', SECRET, '--kid', 'kid_flag', '--json'], {
      env: { MEDIAGW_WEBHOOK_KEY_ID: 'kid_env' },
    });
    expect(JSON.parse(stdout).headers['X-Service-Signature']).toMatch(/,kid=kid_flag$/);
  });
});

describe('webhooks sign --event and --skew refusals', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'mediagw-event-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test.each([
    ['not JSON', 'id: evt_1', /--event .* is not JSON: give the event's body as the gateway sends it/],
    [
      'JSON without an id',
      '{"type":"task.completed"}',
      /--event .* has no "id": the event's id is its event ID/,
    ],
    ['an id that is not text', '{"id":42}', /has no "id"/],
    ['null', 'null', /has no "id"/],
  ])('%s: a usage error naming the flag, exit 1', async (_name, text, message) => {
    const file = join(dir, `${Math.random().toString(36).slice(2)}.json`);
    writeFileSync(file, text);
    const { code, stderr } = await run(['webhooks', 'sign', '--secret', SECRET, '--event', file]);
    expect(code).toBe(1);
    expect(stderr).toMatch(message);
    expect(stderr).not.toContain('signWebhook');
  });

  test('an event with an id is signed with it', async () => {
    const file = join(dir, 'ok.json');
    writeFileSync(file, '{"id":"evt_own","type":"task.completed"}');
    const { code, stdout } = await run(['webhooks', 'sign', '--secret', SECRET, '--event', file, '--json']);
    expect(code).toBe(0);
    expect(JSON.parse(stdout).headers['X-Service-Event-ID']).toBe('evt_own');
  });

  test.each([['99999999999'], ['-99999999999']])('--skew %s: out of Unix seconds, exit 1', async (skew) => {
    const { code, stderr } = await run(['webhooks', 'sign', '--secret', SECRET, `--skew=${skew}`]);
    expect(code).toBe(1);
    expect(stderr).toContain(`--skew ${skew} takes the timestamp out of Unix seconds`);
    expect(stderr).not.toContain('signWebhook');
  });

  test('--skew -400 is still signed', async () => {
    const { code } = await run(['webhooks', 'sign', '--secret', SECRET, '--skew=-400']);
    expect(code).toBe(0);
  });
});

describe('mediagw webhooks send', () => {
  test('a receiver that accepts: 200, acknowledged, no retry, exit 0', async () => {
    const { code, stdout } = await send('--type', 'task.completed', '--kind', 'image');
    expect(code).toBe(0);
    const doc = JSON.parse(stdout);
    expect(doc).toMatchObject({ status: 200, acknowledged: true, retried: false, kid: 'kid_local' });
    expect(receiver.events.map((e) => e.id)).toContain(doc.event_id);
  });

  // The receiver's URL was printed whole: a token in its query, in every line, --json document
  // and Ctrl+C message; credentials were printed too, and silently not sent.
  // Both sent JSON.stringify's bytes, so a receiver verifying JSON.stringify(req.body) after
  // express.json(), the mistake the docs warn of most, passed every local test.
  test('a receiver that verifies a re-serialized body fails, as it would against other bytes', async () => {
    const before = receiver.requests.length;
    const { code } = await send('--type', 'task.completed');
    expect(code).toBe(0);
    const [delivered] = receiver.requests.slice(before);
    const body = delivered?.body ?? '';
    const headers = delivered?.headers ?? {};
    const reserialized = JSON.stringify(JSON.parse(body));
    expect(reserialized).not.toBe(body);
    expect(() => verifyWebhook({ body, headers, secrets: { kid_local: SECRET } })).not.toThrow();
    expect(() => verifyWebhook({ body: reserialized, headers, secrets: { kid_local: SECRET } })).toThrow(
      expect.objectContaining({ reason: 'signature_mismatch' }),
    );
  });

  // The event file was read without the run's signal: a FIFO nobody writes to held the command
  // past Ctrl+C, until a second one or a kill.
  test('--event naming a FIFO nobody writes to: one Ctrl+C ends it, exit 130, nothing sent', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mediagw-send-fifo-'));
    const fifo = join(dir, 'event.json');
    execFileSync('mkfifo', [fifo]);
    const before = receiver.requests.length;
    const sending = start(['webhooks', 'send', receiver.url, '--secret', SECRET, '--event', fifo], {
      timeoutMs: 10_000,
    });
    try {
      // Bounded: the command has started and waits on the FIFO's open well within this.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      sending.child.kill('SIGINT');
      const result = await sending.result;
      expect(result.code, result.stderr).toBe(130);
      expect(receiver.requests.length).toBe(before);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("a receiver URL's query is sent but printed as ?…, in lines and in --json", async () => {
    const token = 'tok_query_secret_123';
    for (const json of [true, false]) {
      const before = receiver.requests.length;
      const { code, stdout, stderr } = await run([
        'webhooks',
        'send',
        `${receiver.url}?token=${token}`,
        '--secret',
        SECRET,
        ...(json ? ['--json'] : []),
      ]);
      expect(code, stderr).toBe(0);
      expect(receiver.requests.slice(before).map((r) => r.url)).toEqual([`/webhooks?token=${token}`]);
      expect(stdout + stderr).not.toContain(token);
      if (json) expect(JSON.parse(stdout).url).toBe(`${receiver.url}?…`);
      else expect(stdout).toContain(`to ${receiver.url}?…`);
    }
  });

  test('a receiver URL with credentials is a usage error, naming neither them nor sending anything', async () => {
    const before = receiver.requests.length;
    const url = receiver.url.replace('http://', 'http://hook:hunter2pw@');
    const { code, stdout, stderr } = await run(['webhooks', 'send', url, '--secret', SECRET]);
    expect(code).toBe(1);
    expect(stderr).toContain('the URL holds credentials (user:password@), which a delivery never sends');
    expect(stdout + stderr).not.toContain('hunter2pw');
    expect(receiver.requests.length).toBe(before);
  });

  test('signed with the previous secret during a rotation: accepted', async () => {
    const { code, stdout } = await send(
      '--previous-secret',
      OLD,
      '--previous-kid',
      'kid_old',
      '--use-previous',
    );
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ status: 200, kid: 'kid_old' });
  });

  test('a timestamp 400 s old is refused by the receiver: the gateway would retry, exit 2', async () => {
    const { code, stdout } = await send('--skew', '-400');
    expect(code).toBe(2);
    expect(JSON.parse(stdout)).toMatchObject({ status: 400, acknowledged: false, retried: true });
  });

  test.each([
    [{ status: 410 }, { retried: false, pauses_endpoint: true }, /410 pauses the endpoint/],
    [{ status: 503, headers: { 'retry-after': '120' } }, { retried: true }, /retries after 120 s/],
    [{ status: 503, headers: SKEWED }, { retried: true }, /retries after 120 s/],
    [{ status: 302, headers: { location: 'http://127.0.0.1:1/' } }, { retried: true }, /redirect/],
    [{ status: 404 }, { retried: true }, /404 is not a 2xx/],
  ])('answer %j: what the gateway does', async (answer, verdict, explanation) => {
    receiver.script.push(answer);
    const { code, stdout } = await send();
    expect(code).toBe(2);
    const doc = JSON.parse(stdout);
    expect(doc).toMatchObject({ status: answer.status, acknowledged: false, ...verdict });
    expect(doc.explanation).toMatch(explanation);
  });

  test('a verification challenge: verified only when the receiver echoes it with a 200', async () => {
    const echoed = await send('--type', 'webhook.endpoint_verification');
    expect(echoed.code).toBe(0);
    expect(JSON.parse(echoed.stdout)).toMatchObject({
      status: 200,
      acknowledged: true,
      explanation: expect.stringContaining('verified'),
    });
    receiver.script.push({ status: 200, body: '{"challenge":"something else"}' });
    const wrong = await send('--type', 'webhook.endpoint_verification');
    expect(wrong.code).toBe(2);
    expect(JSON.parse(wrong.stdout).explanation).toContain('verification would fail');
  });

  test('a challenge echoed in a body past 2 KB: verified, as the gateway reads it; 2 KB shown', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mediagw-challenge-'));
    try {
      const event = join(dir, 'challenge.json');
      const challenge = 'chl_0123456789abcdef';
      writeFileSync(
        event,
        JSON.stringify({
          id: 'evt_challenge_1',
          type: 'webhook.endpoint_verification',
          api_version: '2026-10-03',
          created_at: Math.floor(Date.now() / 1000),
          data: { challenge },
        }),
      );
      receiver.script.push({ status: 200, body: JSON.stringify({ challenge, padding: 'x'.repeat(4096) }) });
      const { code, stdout } = await send('--event', event);
      expect(code).toBe(0);
      const doc = JSON.parse(stdout);
      expect(doc).toMatchObject({ status: 200, acknowledged: true });
      expect(Buffer.byteLength(doc.answer)).toBe(2048);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('no receiver listening: no answer, retried', async () => {
    const { code, stdout } = await run([
      'webhooks',
      'send',
      'http://127.0.0.1:1/hooks',
      '--secret',
      SECRET,
      '--json',
    ]);
    expect(code).toBe(2);
    expect(JSON.parse(stdout)).toMatchObject({ status: null, error: expect.any(String), retried: true });
  });
});

/** `mediagw mock --forward-to` the receiver at 600x, started, with a client of its first account. */
async function forwardingMock(forwarded: TestReceiver) {
  const mock = start(
    ['--port', '0', '--speed', '600', '--forward-to', forwarded.url, '--webhook-secret', SECRET],
    {},
    MOCK_BIN,
  );
  try {
    await until(() => mock.output().includes('Press Ctrl+C'), 'the mock to start');
  } catch (error) {
    stop(mock.child);
    throw error;
  }
  const url = /base URL:\s+(\S+)/.exec(mock.output())?.[1] ?? '';
  const apiKey = /acct_1 key: (\S+)/.exec(mock.output())?.[1] ?? '';
  return { mock, url, client: testClient({ baseURL: url, apiKey, maxRetries: 2 }) };
}

describe('mediagw mock --forward-to', () => {
  test('registers and verifies an endpoint, forwards every task event signed, and retries on the sped-up schedule', async () => {
    const forwarded = await startReceiver({ secrets: { kid_local: SECRET } });
    const { mock, url, client } = await forwardingMock(forwarded);
    try {
      expect(mock.output()).toContain(`verified:     ${forwarded.url} echoed the challenge`);
      expect(mock.output()).not.toContain(SECRET);
      // The first delivery fails: the retry (1 minute, at 600x: 0.1 s) is delivered.
      forwarded.script.push({ status: 503 });
      // The dashboard is printed under the base URL, and answers there.
      expect(mock.output()).toContain(`dashboard:    ${url}/_dashboard`);
      expect((await fetch(`${url}/_dashboard`)).status).toBe(200);
      // A task whose request names no endpoint: its events still reach the receiver.
      const { task_id } = await client.videos.create({
        model: 'vidmodel-2.0-mini',
        prompt: 'a kite',
        duration: 5,
      });
      await until(
        () => forwarded.events.some((e) => (e.data as { task_id?: string }).task_id === task_id),
        'the forwarded event',
        20_000,
      );
      const event = forwarded.events.find((e) => (e.data as { task_id?: string }).task_id === task_id);
      expect(event?.type).toBe('task.completed');
      await until(() => mock.output().includes('attempt 2'), 'the retry to be printed');
      const lines = mock.output().split('\n');
      expect(lines.find((l) => l.includes(`${event?.id}`) && l.includes('attempt 1'))).toMatch(
        /→ 503 .*retry in 1m\d\ds mock time/,
      );
      expect(lines.find((l) => l.includes(`${event?.id}`) && l.includes('attempt 2'))).toMatch(
        /→ 200 .*delivered/,
      );
    } finally {
      stop(mock.child);
    }
    const { code } = await mock.result;
    expect(code).toBe(0);
    await forwarded.close();
  });

  test('--forward-to: a query is delivered but printed as ?…; credentials are a usage error', async () => {
    const token = 'tok_forward_secret_456';
    const forwarded = await startReceiver({ secrets: { kid_local: SECRET } });
    const mock = start(
      [
        '--port',
        '0',
        '--forward-to',
        `${forwarded.url}?token=${token}`,
        '--webhook-secret',
        SECRET,
        '--json',
      ],
      {},
      MOCK_BIN,
    );
    try {
      await until(() => mock.output().includes('Press Ctrl+C'), 'the mock to start');
      // The verification challenge went to the URL whole, in bytes JSON.stringify does not give.
      expect(forwarded.requests.map((r) => r.url)).toContain(`/webhooks?token=${token}`);
      const challenge = forwarded.requests[0]?.body ?? '';
      expect(JSON.stringify(JSON.parse(challenge))).not.toBe(challenge);
      expect(mock.output()).toContain(`verified:     ${forwarded.url}?… echoed the challenge`);
      expect(mock.output()).not.toContain(token);
    } finally {
      stop(mock.child);
    }
    await mock.result;
    await forwarded.close();
    const refused = await start(
      ['--port', '0', '--forward-to', forwarded.url.replace('http://', 'http://hook:hunter2pw@')],
      {},
      MOCK_BIN,
    ).result;
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('--forward-to holds credentials (user:password@)');
    expect(refused.stdout + refused.stderr).not.toContain('hunter2pw');
  });

  // A signal is how the mock ends (docs/cli.md): no line may promise a retry after its close.
  test('Ctrl+C with a delivery in flight: exit 0, and no delivery line after the closing one', async () => {
    const forwarded = await startReceiver({ secrets: { kid_local: SECRET } });
    const { mock, client } = await forwardingMock(forwarded);
    try {
      forwarded.script.push({ status: 200, delayMs: 2_000 });
      await client.videos.create({ model: 'vidmodel-2.0-mini', prompt: 'a kite', duration: 5 });
      await until(() => forwarded.requests.length === 2, 'the delivery to hang', 20_000);
      stop(mock.child, 'SIGINT');
      const { code } = await mock.result;
      expect(code).toBe(0);
      const after = mock.output().split('SIGINT: closing the mock gateway')[1];
      expect(after).toBeDefined();
      expect(after).not.toMatch(/attempt \d/);
    } finally {
      stop(mock.child);
      await forwarded.close();
    }
  });

  test("every account's forwarding endpoint is verified: a request of the second account may name it", async () => {
    const forwarded = await startReceiver({ secrets: { kid_local: SECRET } });
    const mock = start(['mock', '--speed', '600', '--forward-to', forwarded.url, '--webhook-secret', SECRET]);
    try {
      await until(() => mock.output().includes('Press Ctrl+C'), 'the mock to start');
      expect(mock.output()).toContain(`verified:     ${forwarded.url} echoed the challenge`);
      const challenges = forwarded.requests.filter((r) => r.body.includes('webhook.endpoint_verification'));
      expect(challenges.map((r) => r.status)).toEqual([200, 200]);
      const url = /base URL:\s+(\S+)/.exec(mock.output())?.[1] ?? '';
      const apiKey = /acct_2 key: (\S+)/.exec(mock.output())?.[1] ?? '';
      const client = testClient({ baseURL: url, apiKey });
      // The dashboard lists the endpoints: one per account, each verified.
      const state = (await (await fetch(`${url}/_dashboard/state`)).json()) as {
        webhooks: { endpoints: { id: string; account: string; state: string }[] };
      };
      const endpoints = state.webhooks.endpoints;
      expect(endpoints.map((e) => [e.account, e.state])).toEqual([
        ['acct_1', 'verified'],
        ['acct_2', 'verified'],
      ]);
      const endpointId = endpoints.find((e) => e.account === 'acct_2')?.id ?? '';
      const { task_id } = await client.videos.create({
        model: 'vidmodel-2.0-mini',
        prompt: 'a kite',
        duration: 5,
        notifications: { webhook: { endpoint_id: endpointId, events: ['task.completed'] } },
      });
      expect(task_id).toEqual(expect.any(String));
    } finally {
      stop(mock.child);
    }
    await mock.result;
    await forwarded.close();
  });

  // Each account's endpoint was created with a random pair of its own: the receiver, holding the
  // printed one, refused every event of the second account.
  test("no secret given: one new pair, printed, signs every account's deliveries, with kid_local", async () => {
    const forwarded = await startReceiver({ secrets: { kid_other: 'whsec_unrelated' } });
    const mock = start(['mock', '--speed', '600', '--forward-to', forwarded.url]);
    try {
      await until(() => mock.output().includes('Press Ctrl+C'), 'the mock to start');
      const secret = /signing secret: (\S+)/.exec(mock.output())?.[1] ?? '';
      expect(secret).toMatch(/^whsec_/);
      expect(mock.output()).toContain('signed with kid kid_local');
      // Both accounts' challenges went out; each verifies with the printed pair.
      const challenges = forwarded.requests.filter((r) => r.body.includes('webhook.endpoint_verification'));
      expect(challenges).toHaveLength(2);
      for (const { body, headers } of challenges) {
        const event = verifyWebhook({ body, headers, secrets: { kid_local: secret } });
        expect(event.type).toBe('webhook.endpoint_verification');
      }
    } finally {
      stop(mock.child);
    }
    await mock.result;
    await forwarded.close();
  });

  test('--json: the gateway, then one JSON document per delivery on stdout; the banner goes to stderr', async () => {
    const forwarded = await startReceiver({ secrets: { kid_local: SECRET } });
    const mock = start([
      'mock',
      '--json',
      '--speed',
      '600',
      '--seed',
      'cli-test',
      '--forward-to',
      forwarded.url,
      '--webhook-secret',
      SECRET,
    ]);
    try {
      await until(() => mock.output().includes('Press Ctrl+C'), 'the mock to start');
      const url = /base URL:\s+(\S+)/.exec(mock.output())?.[1] ?? '';
      const apiKey = /acct_1 key: (\S+)/.exec(mock.output())?.[1] ?? '';
      const client = testClient({ baseURL: url, apiKey, maxRetries: 2 });
      const { task_id } = await client.images.generateAsync({ model: 'imgmodel-2', prompt: 'mock:fail' });
      await until(() => mock.stdout().includes(task_id), 'the delivery document');
      const [started, ...docs] = mock
        .stdout()
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      // First the gateway itself, as the banner shows it; no rate limits were asked for.
      expect(started).toMatchObject({
        gateway: { url, speed: 600, rate_limits: { per_key_model: null, per_ip: null } },
      });
      expect(started.gateway.accounts[0]).toEqual({
        id: 'acct_1',
        api_key: apiKey,
        restricted_key: expect.any(String),
      });
      // The secret was given: it is named by its kid, never printed.
      expect(started.forwarding).toEqual({ url: forwarded.url, key_id: 'kid_local', signing_secret: null });
      expect(docs).toEqual([
        expect.objectContaining({
          type: 'task.failed',
          task_ids: [task_id],
          attempt: 1,
          status: 200,
          event_status: 'delivered',
        }),
      ]);
    } finally {
      stop(mock.child);
    }
    await mock.result;
    await forwarded.close();
  });

  // The made-up secret was on stderr only: a script reading stdout could not verify anything.
  test('--json with no secret given: the start-up document holds the made-up pair, which verifies', async () => {
    const forwarded = await startReceiver({ secrets: { kid_other: 'whsec_unrelated' } });
    const mock = start(['mock', '--json', '--speed', '600', '--forward-to', forwarded.url]);
    try {
      await until(() => mock.output().includes('Press Ctrl+C'), 'the mock to start');
      const started = JSON.parse(mock.stdout().trim().split('\n')[0] ?? '');
      expect(started.forwarding).toEqual({
        url: forwarded.url,
        key_id: 'kid_local',
        signing_secret: expect.stringMatching(/^whsec_/),
      });
      const [challenge] = forwarded.requests.filter((r) => r.body.includes('webhook.endpoint_verification'));
      const secrets = { kid_local: started.forwarding.signing_secret };
      expect(
        verifyWebhook({ body: challenge?.body ?? '', headers: challenge?.headers ?? {}, secrets }).type,
      ).toBe('webhook.endpoint_verification');
    } finally {
      stop(mock.child);
    }
    await mock.result;
    await forwarded.close();
  });

  test('a 410 pauses the endpoint; the line says how to enable it again, and that command resumes the event', async () => {
    const forwarded = await startReceiver({ secrets: { kid_local: SECRET } });
    const mock = start(['mock', '--speed', '600', '--forward-to', forwarded.url, '--webhook-secret', SECRET]);
    try {
      await until(() => mock.output().includes('Press Ctrl+C'), 'the mock to start');
      const url = /base URL:\s+(\S+)/.exec(mock.output())?.[1] ?? '';
      const apiKey = /acct_1 key: (\S+)/.exec(mock.output())?.[1] ?? '';
      forwarded.script.push({ status: 410 });
      const client = testClient({ baseURL: url, apiKey, maxRetries: 2 });
      const { task_id } = await client.images.generateAsync({ model: 'imgmodel-2', prompt: 'mock:fail' });
      await until(() => mock.output().includes('endpoint paused (410)'), 'the pause to be printed');
      const line =
        mock
          .output()
          .split('\n')
          .find((l) => l.includes('endpoint paused (410)')) ?? '';
      expect(line).toContain(
        'no more deliveries until it is enabled again, and then its paused events go on:',
      );
      const command =
        /curl -X PATCH (\S+) -H "authorization: Bearer (\S+)" -H 'content-type: application\/json' -d '(\{"enabled":true\})'/.exec(
          line,
        );
      expect(command?.[2]).toBe(apiKey);
      // The command as printed, sent: the paused event is delivered.
      const answer = await fetch(command?.[1] ?? '', {
        method: 'PATCH',
        headers: { authorization: `Bearer ${command?.[2]}`, 'content-type': 'application/json' },
        body: command?.[3] ?? '',
      });
      expect(answer.status).toBe(200);
      await until(
        () => forwarded.events.some((e) => (e.data as { task_id?: string }).task_id === task_id),
        'the resumed delivery',
        20_000,
      );
    } finally {
      stop(mock.child);
    }
    await mock.result;
    await forwarded.close();
  });

  test('--seed gives the same keys on every run', async () => {
    const keys: string[] = [];
    for (let i = 0; i < 2; i++) {
      const mock = start(['mock', '--seed', 'repeat']);
      await until(() => mock.output().includes('Press Ctrl+C'), 'the mock to start');
      keys.push(/acct_1 key: (\S+)/.exec(mock.output())?.[1] ?? '');
      stop(mock.child);
      await mock.result;
    }
    expect(keys[0]).toMatch(/^mgw_test_[0-9a-f]{32}$/);
    expect(keys[1]).toBe(keys[0]);
  });

  test('--fault injects a fault: the next video submission answers 503 and the command exits 2', async () => {
    const mock = start(['mock', '--fault', '503:/v1/videos/generations']);
    try {
      await until(() => mock.output().includes('Press Ctrl+C'), 'the mock to start');
      const url = /base URL:\s+(\S+)/.exec(mock.output())?.[1] ?? '';
      const apiKey = /acct_1 key: (\S+)/.exec(mock.output())?.[1] ?? '';
      const env = { MEDIAGW_BASE_URL: url, MEDIAGW_API_KEY: apiKey };
      const refused = await run(['videos', 'create', '-m', 'vidmodel-2.0-mini', '-p', 'x', '-d', '5'], {
        env,
      });
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain('503');
      const accepted = await run(['videos', 'create', '-m', 'vidmodel-2.0-mini', '-p', 'x', '-d', '5'], {
        env,
      });
      expect(accepted.code).toBe(0);
    } finally {
      stop(mock.child);
    }
    await mock.result;
  });

  test('a key given with --api-key is used and never printed', async () => {
    const mock = start(['mock', '--api-key', 'mgw_my_own_key_1234']);
    try {
      await until(() => mock.output().includes('Press Ctrl+C'), 'the mock to start');
      expect(mock.output()).not.toContain('mgw_my_own_key_1234');
      const url = /base URL:\s+(\S+)/.exec(mock.output())?.[1] ?? '';
      const ok = await run(['tasks', 'get', 'cgt-none'], {
        env: { MEDIAGW_BASE_URL: url, MEDIAGW_API_KEY: 'mgw_my_own_key_1234' },
      });
      expect(ok.stderr).toContain('404');
    } finally {
      stop(mock.child);
    }
    await mock.result;
  });
});
