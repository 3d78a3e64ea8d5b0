// Covers: src/testing/gateway.ts
/**
 * `gateway.clientOptions()`: a client whose waits keep pace with the mock's clock. Asserted on
 * the mock clock and the number of polls, never on wall time.
 */
import { Agent } from 'undici';
import { afterAll, describe, expect, test } from 'vitest';
import { MediaGateway } from '../../src/index.js';
import { type MockGateway, startMockGateway } from '../../src/testing/index.js';

const started: MockGateway[] = [];
const agent = new Agent({ keepAliveTimeout: 1_000 });
afterAll(async () => {
  await Promise.all(started.map((g) => g.close()));
  await agent.close();
});

async function gatewayAt(options: Parameters<typeof startMockGateway>[0]) {
  const gateway = await startMockGateway(options);
  started.push(gateway);
  const client = new MediaGateway({ ...gateway.clientOptions(), maxRetries: 0, dispatcher: agent });
  const polls = (id: string) =>
    gateway.requests.filter((r) => r.method === 'GET' && r.path === `/v1/videos/${id}`);
  return { gateway, client, polls };
}

const kite = { model: 'vidmodel-2.0-mini', prompt: 'a red kite', duration: 5 } as const;

describe('gateway.clientOptions()', () => {
  test.each([
    [1, [3_000, 5_000]],
    [100, [30, 50]],
    [0.5, [6_000, 10_000]],
    [4_000, [1, 1]],
    [1_000_000, [1, 1]],
  ])('with a real clock at speed %d, polls every 3-5 mock seconds: %j ms', async (speed, interval) => {
    const gateway = await startMockGateway({ speed });
    started.push(gateway);
    expect(gateway.clientOptions()).toEqual({
      baseURL: gateway.url,
      apiKey: gateway.apiKey,
      pollInterval: interval,
    });
  });

  test('with a manual clock, polls every 10 ms; a new object each call', async () => {
    const gateway = await startMockGateway({ clock: 'manual' });
    started.push(gateway);
    const options = gateway.clientOptions();
    expect(options.pollInterval).toEqual([10, 10]);
    expect(gateway.clientOptions()).not.toBe(options);
  });

  test('at speed 100, createAndWait polls at 3-5 s of mock time: a 10 s task in at most 5 polls', async () => {
    const { client, polls } = await gatewayAt({ speed: 100 });
    const statuses: string[] = [];
    const task = await client.videos.createAndWait(kite, { onProgress: (t) => void statuses.push(t.status) });
    expect(task.status).toBe('completed');
    const seen = polls(task.id);
    // Each sleep is at least 30 real ms, 3 mock seconds (the mock clock reads whole ms, so a
    // little less may show): a task of 10 mock seconds ends within 5 polls.
    const gaps = seen.slice(1).map((r, i) => r.at - seen[i]!.at);
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(2_900);
    expect(seen.length).toBeGreaterThanOrEqual(2);
    expect(seen.length).toBeLessThanOrEqual(5);
    expect(statuses.at(-1)).toBe('completed');
    // The client's spec interval at speed 100 would have been 300-500 mock seconds per poll.
    expect(seen.at(-1)!.at - seen[0]!.at).toBeLessThan(300_000);
  });

  test("a wait's own interval still wins", async () => {
    const { client, polls } = await gatewayAt({ clock: 'manual' });
    const { task_id } = await client.videos.create(kite);
    // Time stands still: at the client's 10 ms the wait would poll dozens of times before its
    // deadline; at its own 10 minutes it polls once, and once more (twice if a poll was slow)
    // just before the deadline.
    const error = await client.videos
      .waitForTask(task_id, { interval: 600_000, timeout: 500 })
      .catch((e) => e);
    expect(error).toMatchObject({ name: 'WaitTimeoutError' });
    expect(polls(task_id).length).toBeGreaterThanOrEqual(2);
    expect(polls(task_id).length).toBeLessThanOrEqual(3);
  });

  test('with a manual clock, a wait sees each advance of the clock without an interval of its own', async () => {
    const { gateway, client, polls } = await gatewayAt({ clock: 'manual' });
    const statuses: string[] = [];
    const task = await client.videos.createAndWait(kite, {
      onProgress: (t) => {
        statuses.push(t.status);
        // Each poll moves the mock clock 5 s: queued, in_progress, then completed.
        void gateway.clock.advance(5_000);
      },
    });
    expect(statuses).toEqual(['queued', 'in_progress', 'completed']);
    expect(polls(task.id)).toHaveLength(3);
  });
});
