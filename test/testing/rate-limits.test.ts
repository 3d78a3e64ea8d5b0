// Covers: src/testing/state/rate-limits.ts
import { Agent, request } from 'undici';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { startMockGateway } from '../../src/testing/index.js';
import { testClient } from '../helpers/client.js';

const kite = { model: 'vidmodel-2.0-mini', prompt: 'a red kite', duration: 5 } as const;

const gateway = await startMockGateway({
  clock: 'manual',
  rateLimits: { perKeyModel: { requestsPerSecond: 2, burst: 2 }, perIp: { requestsPerSecond: 1000 } },
});
const agent = new Agent();
afterAll(async () => {
  await gateway.close();
  await agent.close();
});
beforeEach(() => gateway.rateLimits.reset());

const submit = (key = gateway.apiKey, model: string = kite.model) =>
  request(`${gateway.url}/v1/videos/generations`, {
    method: 'POST',
    dispatcher: agent,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ ...kite, model }),
  });

describe('mock gateway rate limits', () => {
  it('answers 429 rate_limit_exceeded with Retry-After past the burst, and creates no task', async () => {
    const before = gateway.tasks.list().length;
    const answers = [await submit(), await submit(), await submit()];
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses).toEqual([200, 200, 429]);
    const limited = answers[2]!;
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(await limited.body.json()).toEqual({
      code: 'rate_limit_exceeded',
      message: expect.stringContaining('vidmodel-2.0-mini'),
      data: null,
    });
    await Promise.all(answers.slice(0, 2).map((a) => a.body.dump()));
    expect(gateway.tasks.list().length - before).toBe(2);
    expect(gateway.rateLimits.stats.limited).toBe(1);
  });

  it.each([
    ['/v1/images/generations/async', { model: 'imgmodel-2', prompt: 'a kite' }],
    ['/v1/images/generations', { model: 'imgmodel-2', prompt: 'a kite' }],
  ])('limits %s too, whose route reads its JSON body raw', async (path, body) => {
    const send = () =>
      request(`${gateway.url}${path}`, {
        method: 'POST',
        dispatcher: agent,
        headers: { authorization: `Bearer ${gateway.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const answers = [await send(), await send(), await send()];
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 429]);
    expect(await answers[2]!.body.json()).toMatchObject({ message: expect.stringContaining('imgmodel-2') });
    await Promise.all(answers.slice(0, 2).map((a) => a.body.dump()));
  });

  it('keeps one budget per key and model', async () => {
    const other = gateway.accounts[1]!.apiKey;
    const answers = [
      await submit(),
      await submit(),
      await submit(other),
      await submit(gateway.apiKey, 'vidmodel-2.5'),
    ];
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200]);
    await Promise.all(answers.map((a) => a.body.dump()));
  });

  it('the SDK retries a billable submission answered 429 once the pause is over: one task, one charge', async () => {
    const client = testClient({ gateway, dispatcher: agent, limits: {}, maxRetries: 2 });
    const before = gateway.tasks.list().length;
    await client.videos.create(kite);
    await client.videos.create(kite);
    const { task_id } = await client.videos.create(kite); // 429 first, then accepted
    expect(gateway.rateLimits.stats.limited).toBe(1);
    expect(gateway.tasks.list().length - before).toBe(3);
    expect(gateway.ledger.entriesFor(task_id).map((e) => e.kind)).toEqual(['reserve']);
  });
});

describe('mock gateway rate limits per IP', async () => {
  const perIp = await startMockGateway({
    clock: 'manual',
    rateLimits: { perIp: { requestsPerSecond: 1, burst: 1 } },
  });
  afterAll(() => perIp.close());
  it('limits creation and upload routes per IP, not queries', async () => {
    const post = () =>
      request(`${perIp.url}/v1/videos/generations`, {
        method: 'POST',
        dispatcher: agent,
        headers: { authorization: `Bearer ${perIp.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify(kite),
      });
    const get = () =>
      request(`${perIp.url}/v1/videos/cgt-unknown`, {
        dispatcher: agent,
        headers: { authorization: `Bearer ${perIp.apiKey}` },
      });
    const answers = [await post(), await post(), await get(), await get()];
    expect(answers.map((a) => a.statusCode)).toEqual([200, 429, 404, 404]);
    await Promise.all(answers.map((a) => a.body.dump()));
  });

  it('leaves the dashboard out: its pipeline is neither limited nor counted', async () => {
    for (let i = 0; i < 5; i++) {
      const answer = await request(`${gateway.dashboardUrl}/state`, { dispatcher: agent });
      expect(answer.statusCode).toBe(200);
      await answer.body.dump();
    }
    expect(gateway.rateLimits.stats.checked).toBe(0);
    const submitted = await submit();
    expect(submitted.statusCode).toBe(200);
    await submitted.body.dump();
    expect(gateway.rateLimits.stats.checked).toBe(1);
  });
});
