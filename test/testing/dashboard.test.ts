// Covers: src/testing/dashboard/index.ts
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { MediaGateway } from '../../src/index.js';
import { DASHBOARD_ROWS } from '../../src/testing/dashboard/snapshot.js';
import { type MockGateway, reviewLibraryAsset, startMockGateway } from '../../src/testing/index.js';
import { testClient } from '../helpers/client.js';

let gateway: MockGateway;
let client: MediaGateway;

beforeAll(async () => {
  gateway = await startMockGateway({ clock: 'manual' });
  client = testClient({ gateway });
});
afterAll(() => gateway.close());

const ACTION = { 'content-type': 'application/json', 'x-mediagw-dashboard': '1' };

async function post(name: string, body: unknown, headers: Record<string, string> = ACTION) {
  const res = await request(`${gateway.dashboardUrl}/actions/${name}`, {
    method: 'POST',
    headers,
    body: JSON.stringify(body),
  });
  return { status: res.statusCode, body: (await res.body.json()) as Record<string, unknown> };
}

async function view() {
  const res = await request(`${gateway.dashboardUrl}/state`);
  return (await res.body.json()) as {
    requests: Array<{
      path: string;
      status: number;
      invalidFields: string[];
      headers: Record<string, string>;
    }>;
    tasks: Array<{ id: string; status: string; error: { code: string } | null }>;
  };
}

describe('the dashboard at gateway.dashboardUrl', () => {
  test('serves the page and its script without an API key, on the loopback address', async () => {
    expect(gateway.dashboardUrl).toBe(`${gateway.url}/_dashboard`);
    expect(new URL(gateway.dashboardUrl).hostname).toBe('127.0.0.1');
    const page = await request(gateway.dashboardUrl);
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(await page.body.text()).toContain('<script src="/_dashboard/app.js"');
    const script = await request(`${gateway.dashboardUrl}/app.js`);
    expect(script.statusCode).toBe(200);
    expect(await script.body.text()).toContain("new EventSource('/_dashboard/events')");
  });

  test('its own requests are not recorded in gateway.requests', async () => {
    gateway.resetRequests();
    await (await request(gateway.dashboardUrl)).body.text();
    await view();
    expect(gateway.requests).toEqual([]);
  });

  test.each([
    ['no action header', { 'content-type': 'application/json' }],
    ['another origin', { ...ACTION, origin: 'http://evil.example' }],
    ['a cross-site fetch', { ...ACTION, 'sec-fetch-site': 'cross-site' }],
    ['another Host (DNS rebinding)', { ...ACTION, host: 'evil.example' }],
  ])('refuses an action with %s (403), and does nothing', async (_name, headers) => {
    const before = gateway.clock.now();
    const answer = await post('advance-clock', { ms: 1000 }, headers);
    expect(answer.status).toBe(403);
    expect(gateway.clock.now()).toBe(before);
  });

  test('lists a refused request with the field its validation named, and never the API key', async () => {
    gateway.resetRequests();
    // Sent as is, past the SDK's own checks, so the gateway is the one to refuse it.
    const refused = await request(`${gateway.url}/v1/videos/generations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gateway.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'vidmodel-2.5', prompt: 'a cat', duration: 99 }),
    });
    await refused.body.dump();
    const seen = (await view()).requests.find((r) => r.path === '/v1/videos/generations');
    expect(seen?.status).toBe(400);
    expect(seen?.invalidFields).toContain('duration');
    expect(seen?.headers.authorization).toBe('[redacted]');
    expect(JSON.stringify(await view())).not.toContain(gateway.apiKey);
  });

  test('hides what the SDK redactor names a secret, in headers and bodies, and keeps the rest', async () => {
    gateway.resetRequests();
    const sent = await request(`${gateway.url}/v1/webhook-endpoints`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${gateway.apiKey}`,
        'content-type': 'application/json',
        cookie: 'sid=c00kie_4a5b6c',
        'proxy-authorization': 'Basic cHJveHk6cHc=',
        'x-trace': 'trace_1',
      },
      body: JSON.stringify({
        url: 'https://hooks.example.com/in',
        signing_secret: 'whsec_shown_1',
        key_id: 'kid_1',
      }),
    });
    await sent.body.dump();
    const state = await view();
    const seen = state.requests.find((r) => r.path === '/v1/webhook-endpoints') as
      | ((typeof state.requests)[number] & { body: Record<string, unknown> })
      | undefined;
    expect(seen?.headers).toMatchObject({
      cookie: '[redacted]',
      'proxy-authorization': '[redacted]',
      'x-trace': 'trace_1',
    });
    expect(seen?.body).toMatchObject({ signing_secret: '[redacted]', key_id: 'kid_1' });
    const text = JSON.stringify(state);
    for (const secret of ['c00kie_4a5b6c', 'cHJveHk6cHc', 'whsec_shown_1'])
      expect(text).not.toContain(secret);
  });

  // Fields were masked by name alone: a key sent in another header or a prompt, and the
  // signature of a presigned image URL, were on the page and its stream.
  test("shows no API key wherever it stands, and no signed link's signature, in requests and the library", async () => {
    gateway.resetRequests();
    const presigned =
      'https://bucket.s3.amazonaws.com/cat.png?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIAEXAMPLE%2F20261128&X-Amz-Signature=5eed5ec2e7a1b0c4';
    const sent = await request(`${gateway.url}/v1/videos`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${gateway.apiKey}`,
        'content-type': 'application/json',
        'x-mediagw-key': gateway.apiKey,
      },
      body: JSON.stringify({
        model: 'vidmodel-2.0-mini',
        prompt: `a kite, key ${gateway.apiKey}`,
        image_urls: [presigned],
      }),
    });
    await sent.body.dump();
    const group = await client.library.groups.create({ name: 'cats', model: 'vidmodel-2.5' });
    await client.library.assets.submit({
      group_id: group.id,
      assets: [{ name: 'cat', url: presigned }],
    } as never);
    const text = JSON.stringify(await view());
    expect(text).toContain('bucket.s3.amazonaws.com/cat.png');
    for (const secret of [gateway.apiKey, '5eed5ec2e7a1b0c4']) expect(text).not.toContain(secret);
  });

  // Every task and event went into each view, sent to every open page at each change: at 6,000
  // tasks a view was 4 MB, 4 times a second, and the mock's own answers took seconds.
  test('lists the newest 200 tasks, saying how many there are, so a view stays the same size', async () => {
    for (let i = 0; i < DASHBOARD_ROWS + 3; i++)
      await client.images.generateAsync({ model: 'imgmodel-2', prompt: `crane ${i}` });
    const state = (await view()) as Awaited<ReturnType<typeof view>> & { totals: { tasks: number } };
    expect(state.tasks).toHaveLength(DASHBOARD_ROWS);
    expect(state.totals.tasks).toBe(gateway.tasks.list().length);
    expect(state.totals.tasks).toBeGreaterThan(DASHBOARD_ROWS);
    // Newest first.
    expect(state.tasks[0]?.id).toBe(gateway.tasks.list().at(-1)?.id);
  });

  test('fails a task with a chosen code, as gateway.tasks.finishNow does', async () => {
    const { task_id: id } = await client.videos.create({ model: 'vidmodel-2.5', prompt: 'a cat' });
    const task = { id };
    const answer = await post('finish-task', { taskId: task.id, failureCode: 'content_policy' });
    expect(answer).toEqual({ status: 200, body: { message: `Task ${task.id} failed with content_policy` } });
    const shown = (await view()).tasks.find((t) => t.id === task.id);
    expect(shown).toMatchObject({ status: 'failed', error: { code: 'content_policy' } });
    expect((await post('finish-task', { taskId: task.id })).status).toBe(409);
  });

  // A code of megabytes was taken, and every view sent to every page carried it.
  test('takes a failure code of at most 200 characters', async () => {
    const { task_id: id } = await client.videos.create({ model: 'vidmodel-2.5', prompt: 'a cat' });
    const long = await post('finish-task', { taskId: id, failureCode: 'x'.repeat(201) });
    expect(long.status).toBe(400);
    expect(String(long.body.message)).toContain('failureCode: must be a string of 1 to 200 characters');
    expect((await post('finish-task', { taskId: id, failureCode: 'y'.repeat(200) })).status).toBe(200);
  });

  test('injects a fault into the next N requests of a route', async () => {
    expect(
      (await post('inject-fault', { path: '/v1/webhook-capabilities', status: 503, times: 2 })).status,
    ).toBe(200);
    const codes: number[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await request(`${gateway.url}/v1/webhook-capabilities`, {
        headers: { authorization: `Bearer ${gateway.apiKey}` },
      });
      await res.body.dump();
      codes.push(res.statusCode);
    }
    expect(codes.slice(0, 2)).toEqual([503, 503]);
    expect(codes[2]).not.toBe(503);
  });

  test('advances the clock', async () => {
    const before = gateway.clock.now();
    expect((await post('advance-clock', { ms: 2500 })).status).toBe(200);
    expect(gateway.clock.now()).toBe(before + 2500);
  });

  test('reviewLibraryAsset is refused for an unknown asset, and so is the action (404)', async () => {
    expect(() => reviewLibraryAsset(gateway, 'asset_nope', 'approve')).toThrow(/unknown library material/);
    expect((await post('review-asset', { assetId: 'asset_nope', decision: 'approve' })).status).toBe(404);
  });

  test('sends the whole view on the event stream at once', async () => {
    const controller = new AbortController();
    const res = await request(`${gateway.dashboardUrl}/events`, { signal: controller.signal });
    expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
    let text = '';
    for await (const chunk of res.body) {
      text += String(chunk);
      if (text.includes('event: state\ndata: ')) break;
    }
    controller.abort();
    expect(text).toContain('"tasks":[');
  });
});

describe('dashboard actions on webhooks and the library', () => {
  test('pauses, resumes and rotates an endpoint; the view shows its state and key ID, never its secret', async () => {
    const created = await client.webhooks.endpoints.create({ url: 'https://hooks.example.com/dash' });
    const id = created.endpoint.id;
    const shown = async () =>
      (
        (await view()) as unknown as {
          webhooks: { endpoints: Array<{ id: string; state: string; keyId: string }> };
        }
      ).webhooks.endpoints.find((e) => e.id === id);
    expect(await shown()).toMatchObject({ state: 'unverified', keyId: created.endpoint.key_id });
    expect((await post('set-endpoint', { endpointId: id, enabled: false })).status).toBe(200);
    expect(await shown()).toMatchObject({ state: 'paused' });
    expect((await post('set-endpoint', { endpointId: id, enabled: true })).status).toBe(200);
    expect(await shown()).toMatchObject({ state: 'unverified' });
    expect((await post('rotate-secret', { endpointId: id })).status).toBe(200);
    const rotated = await shown();
    expect(rotated?.keyId).not.toBe(created.endpoint.key_id);
    expect(JSON.stringify(await view())).not.toContain(created.signing_secret);
  });

  test('approves and rejects library materials at once, as reviewLibraryAsset does', async () => {
    const submitted = await client.library.assets.submit({
      model: 'vidmodel-2.5',
      group: { name: 'cast' },
      asset_type: 'Image',
      assets: [{ url: 'https://example.com/a.png' }, { url: 'https://example.com/b.png' }],
    });
    const [first, second] = gateway.tasks.get<{ asset_ids: string[] }>(submitted.id)?.data.asset_ids ?? [];
    expect((await post('review-asset', { assetId: first, decision: 'reject' })).status).toBe(200);
    reviewLibraryAsset(gateway, second ?? '', 'approve');
    expect((await client.library.assets.retrieve(first ?? '')).status).toBe('Failed');
    expect((await client.library.assets.retrieve(second ?? '')).status).toBe('Active');
  });
});
