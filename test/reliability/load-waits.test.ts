// Covers: many concurrent waits against the mock gateway
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { MediaGateway } from '../../src/client.js';
import { APIUserAbortError } from '../../src/core/errors.js';
import { type MockGateway, startMockGateway } from '../../src/testing/index.js';
import { testClient } from '../helpers/client.js';
import { mapLimit } from './limit.js';
import { activeResources, countingConnector, until, watchConnections } from './resources.js';

/** Waits held at once, and the client's socket pool. */
const LOAD = { waits: 500, aborted: 100, connections: 8, intervalMs: 50 } as const;

let gateway: MockGateway;
let connections: ReturnType<typeof watchConnections>;
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);

beforeAll(async () => {
  process.on('unhandledRejection', onUnhandled);
  // Every poll of every wait is counted: keep them all.
  gateway = await startMockGateway({ clock: 'manual', requestLogLimit: 1_000_000 });
  connections = watchConnections(gateway.servers.api);
});
afterAll(async () => {
  process.off('unhandledRejection', onUnhandled);
  await gateway?.close();
});

/** Figures the documentation quotes, printed at the end. */
const figures: Record<string, number> = {};
afterAll(() => console.info('load-waits figures', JSON.stringify(figures)));

const polls = (id: string) =>
  gateway.requests.filter((r) => r.method === 'GET' && r.path === `/v1/videos/${id}`).length;

describe(`${LOAD.waits} concurrent waitForTask calls on a pool of ${LOAD.connections} sockets`, () => {
  /** Starts the waits on fresh queued tasks; resolves once every task was polled twice. */
  async function startWaits(client: MediaGateway) {
    const ids = await mapLimit(Array.from({ length: LOAD.waits }), 50, async () => {
      const { task_id } = await client.videos.create({
        model: 'vidmodel-2.0-mini',
        prompt: 'a kite',
        duration: 5,
      });
      return task_id;
    });
    const controllers = ids.map(() => new AbortController());
    const settled = ids.map((id, i) =>
      client.videos
        .waitForTask(id, { interval: LOAD.intervalMs, timeout: 120_000, signal: controllers[i]!.signal })
        .then(
          (task) => ({ ok: true as const, status: task.status }),
          (error: unknown) => ({ ok: false as const, error }),
        ),
    );
    // The tasks stay queued until the manual clock moves.
    await until(() => ids.every((id) => polls(id) >= 2), 'two polls of every task', 60_000);
    return { ids, controllers, settled };
  }

  /** Closes the client's pool and checks that no timer and no socket is left. */
  async function expectNothingLeft(agent: Agent, sockets: { open: number }, before: Record<string, number>) {
    expect(unhandled).toEqual([]);
    // No sleep or attempt timer outlives its wait.
    expect(activeResources().Timeout ?? 0).toBeLessThanOrEqual(before.Timeout ?? 0);
    await agent.close();
    await until(() => sockets.open === 0, 'the client sockets to close');
    await until(() => connections.open === 0, 'the server side of the sockets to close');
    expect(activeResources().TCPSocketWrap ?? 0).toBeLessThanOrEqual(before.TCPSocketWrap ?? 0);
  }

  test('all complete, on no more sockets than the pool holds, and leave no timer or socket behind', async () => {
    const before = activeResources();
    const { stats: sockets, connector } = countingConnector();
    const agent = new Agent({ connections: LOAD.connections, connect: connector });
    const client = testClient({ gateway, dispatcher: agent });
    const { settled } = await startWaits(client);
    await gateway.clock.advance(20_000);
    const outcomes = await Promise.all(settled);
    expect(outcomes.filter((o) => o.ok && o.status === 'completed')).toHaveLength(LOAD.waits);
    expect(sockets.maxOpen).toBeLessThanOrEqual(LOAD.connections);
    figures.maxOpen = sockets.maxOpen;
    await expectNothingLeft(agent, sockets, before);
  }, 120_000);

  test(`aborting ${LOAD.aborted} of them mid-way ends them at once and frees their timers and sockets`, async () => {
    const before = activeResources();
    const { stats: sockets, connector } = countingConnector();
    const agent = new Agent({ connections: LOAD.connections, connect: connector });
    const client = testClient({ gateway, dispatcher: agent });
    const { ids, controllers, settled } = await startWaits(client);

    // Some are sleeping between polls, some are mid-request: all end with APIUserAbortError.
    for (const controller of controllers.slice(0, LOAD.aborted)) controller.abort();
    const aborted = await Promise.all(settled.slice(0, LOAD.aborted));
    expect(aborted.every((o) => !o.ok && o.error instanceof APIUserAbortError)).toBe(true);
    const pollsAtAbort = ids.slice(0, LOAD.aborted).map(polls);

    await gateway.clock.advance(20_000);
    const completed = await Promise.all(settled.slice(LOAD.aborted));
    expect(completed.every((o) => o.ok && o.status === 'completed')).toBe(true);
    // An aborted wait polls no more.
    expect(ids.slice(0, LOAD.aborted).map(polls)).toEqual(pollsAtAbort);
    // An aborted in-flight request costs its socket (HTTP/1.1 cannot cancel one), and while those
    // are torn down undici's pool briefly holds more than its size (undici alone does the same).
    // The count stays a small multiple of the pool, never near the number of waits.
    expect(sockets.maxOpen).toBeLessThan(4 * LOAD.connections);
    figures.maxOpenWithAborts = sockets.maxOpen;
    await expectNothingLeft(agent, sockets, before);
  }, 120_000);

  test('aborting a wait mid-request frees its socket and timers at once', async () => {
    const agent = new Agent({ connections: 1 });
    const client = testClient({ gateway, dispatcher: agent });
    const { task_id } = await client.videos.create({ model: 'vidmodel-2.0-mini', prompt: 'a kite' });
    const before = activeResources();
    const openBefore = connections.open;
    gateway.inject({ match: { method: 'GET', path: `/v1/videos/${task_id}` }, fault: { hang: true } });
    const controller = new AbortController();
    const wait = client.videos
      .waitForTask(task_id, { interval: 10, signal: controller.signal })
      .catch((e: unknown) => e);
    await until(
      () => gateway.requests.some((r) => r.fault === 'hang' && r.path.endsWith(task_id)),
      'the hanging poll',
    );
    controller.abort();
    expect(await wait).toBeInstanceOf(APIUserAbortError);
    // The hanging request's socket is destroyed, not left to the server.
    await until(() => connections.open < openBefore || connections.open === 0, 'the aborted socket to close');
    expect(activeResources().Timeout ?? 0).toBeLessThanOrEqual(before.Timeout ?? 0);
    await agent.close();
  });

  test('aborting a wait between polls clears its sleep at once', async () => {
    const agent = new Agent({ connections: 1 });
    const client = testClient({ gateway, dispatcher: agent });
    const { task_id } = await client.videos.create({ model: 'vidmodel-2.0-mini', prompt: 'a kite' });
    const before = activeResources();
    const controller = new AbortController();
    const wait = client.videos
      .waitForTask(task_id, { interval: 600_000, signal: controller.signal })
      .catch((e: unknown) => e);
    await until(() => polls(task_id) >= 1, 'the first poll');
    await until(() => (activeResources().Timeout ?? 0) > (before.Timeout ?? 0), 'the sleep timer');
    controller.abort();
    expect(await wait).toBeInstanceOf(APIUserAbortError);
    expect(activeResources().Timeout ?? 0).toBeLessThanOrEqual(before.Timeout ?? 0);
    await agent.close();
  });
});
