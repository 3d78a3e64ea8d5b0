// Covers: src/testing/state/tasks.ts
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type MockGateway, type MockTask, outcomeFor, startMockGateway } from '../../src/testing/index.js';
import { api, createAgent } from './helpers.js';

const agent = createAgent();
let gateway: MockGateway;
const terminal: string[] = [];

beforeAll(async () => {
  gateway = await startMockGateway({
    clock: 'manual',
    taskDurations: { video: { queuedMs: 1_000, runMs: 10_000 }, image: { queuedMs: 500, runMs: 2_000 } },
  });
  gateway.tasks.on('terminal', (task) => terminal.push(task.id));
  gateway.router.add('GET', '/v1/test/tasks/:id', async (ctx) => {
    const task = ctx.gateway.tasks.getFor(ctx.account.id, ctx.params.id);
    if (!task) return ctx.error(404, 'not_found', 'no such task');
    return ctx.json(200, ctx.gateway.tasks.state(task));
  });
});
afterAll(async () => {
  await gateway.close();
  await agent.close();
});

const statuses = async (task: MockTask<unknown>, steps: number[]) => {
  const seen: Array<[string, number]> = [];
  for (const step of steps) {
    await gateway.clock.advance(step);
    const state = gateway.tasks.state(task);
    seen.push([state.status, state.progress]);
  }
  return seen;
};

describe('state progression on the manual clock (spec: States and transitions)', () => {
  test('video: queued -> in_progress with rising progress -> completed with actual_time', async () => {
    const task = gateway.tasks.create({ account: 'acct_1', kind: 'video', model: 'vidmodel-2.5' });
    expect(task.id).toMatch(/^cgt-[0-9a-f]{24}$/);
    expect(gateway.tasks.state(task)).toEqual({
      phase: 'queued',
      status: 'queued',
      progress: 0,
      terminal: false,
    });
    expect(await statuses(task, [999, 1, 2_500, 5_000, 2_499])).toEqual([
      ['queued', 0],
      ['in_progress', 0],
      ['in_progress', 25],
      ['in_progress', 75],
      ['in_progress', 99],
    ]);
    expect(terminal).not.toContain(task.id);
    await gateway.clock.advance(1);
    expect(gateway.tasks.state(task)).toEqual({
      phase: 'succeeded',
      status: 'completed',
      progress: 100,
      terminal: true,
      completedAt: task.endsAt,
      actualTime: 11,
    });
  });

  test('image: pending -> processing -> succeeded', async () => {
    const task = gateway.tasks.create({ account: 'acct_1', kind: 'image', model: 'imgmodel-2' });
    expect(task.id).toMatch(/^task_/);
    expect((await statuses(task, [0, 500, 1_999, 1])).map(([s]) => s)).toEqual([
      'pending',
      'processing',
      'processing',
      'succeeded',
    ]);
  });

  test('review: processing -> completed, and failed with its error but no actual_time', async () => {
    const ok = gateway.tasks.create({ account: 'acct_2', kind: 'review', model: 'vidmodel-2.5' });
    const bad = gateway.tasks.create({
      account: 'acct_2',
      kind: 'review',
      model: 'vidmodel-2.5',
      plan: { outcome: { failed: { code: 'review_failed', message: 'rejected' } } },
    });
    expect(gateway.tasks.state(ok).status).toBe('processing');
    await gateway.clock.advance(5_000);
    expect(gateway.tasks.state(ok)).toMatchObject({ status: 'completed', actualTime: 5 });
    const failed = gateway.tasks.state(bad);
    expect(failed).toMatchObject({
      phase: 'failed',
      status: 'failed',
      error: { code: 'review_failed', message: 'rejected' },
    });
    expect(failed).not.toHaveProperty('actualTime');
  });

  test('the terminal listener fires exactly once per task, however often the state is read', async () => {
    const before = terminal.length;
    const task = gateway.tasks.create({ account: 'acct_1', kind: 'image', model: 'imgmodel-2' });
    await gateway.clock.advance(10_000);
    for (let i = 0; i < 3; i++) gateway.tasks.state(task);
    await gateway.clock.advance(10_000);
    gateway.tasks.finishNow(task.id, { failed: { code: 'x', message: 'y' } });
    expect(terminal.slice(before)).toEqual([task.id]);
    expect(gateway.tasks.state(task).phase).toBe('succeeded');
  });

  test('the state is served over HTTP and scoped to the account', async () => {
    const task = gateway.tasks.create({ account: 'acct_1', kind: 'video', model: 'vidmodel-2.0-mini' });
    await gateway.clock.advance(6_000);
    const reply = await api(agent, gateway, 'GET', `/v1/test/tasks/${task.id}`, { key: gateway.apiKey });
    expect(reply.json()).toEqual({ phase: 'running', status: 'in_progress', progress: 50, terminal: false });
    const foreign = await api(agent, gateway, 'GET', `/v1/test/tasks/${task.id}`, {
      key: gateway.account('acct_2').apiKey,
    });
    expect(foreign.status).toBe(404);
  });
});

describe('outcome triggers', () => {
  test.each([
    ['a plain prompt', 'a cat on a boat', 'succeeded', 11],
    ['mock:fail', 'a cat mock:fail', 'failed', undefined],
    ['mock:slow', 'a cat mock:slow', 'succeeded', 110],
  ])('%s', async (_name, prompt, phase, actualTime) => {
    const task = gateway.tasks.create({
      account: 'acct_1',
      kind: 'video',
      model: 'vidmodel-2.5',
      plan: outcomeFor(prompt),
    });
    await gateway.clock.advance(10_999);
    expect(gateway.tasks.state(task).terminal).toBe(false);
    await gateway.clock.advance(100_000);
    const state = gateway.tasks.state(task);
    expect(state.phase).toBe(phase);
    expect(state.actualTime).toBe(actualTime);
    if (phase === 'failed')
      expect(state.error).toEqual({ code: 'task_failed', message: 'mock: generation failed' });
  });

  test('no text, no plan', () => {
    expect(outcomeFor(undefined)).toEqual({});
  });
});

describe('ledger (spec: Billing and reservations)', () => {
  test('reserves at creation and settles on success, by default the reserved seconds', async () => {
    const task = gateway.tasks.create({
      account: 'acct_1',
      kind: 'video',
      model: 'vidmodel-2.0-mini',
      reserve: { seconds: 5, tier: '720P' },
    });
    expect(gateway.ledger.entriesFor(task.id)).toEqual([
      { taskId: task.id, account: 'acct_1', kind: 'reserve', seconds: 5, tier: '720P', at: task.createdAt },
    ]);
    expect(gateway.ledger.reservedTotal('acct_1')).toBe(5);
    await gateway.clock.advance(11_000);
    expect(gateway.ledger.entriesFor(task.id).map((e) => [e.kind, e.seconds, e.tier])).toEqual([
      ['reserve', 5, '720P'],
      ['settle', 5, '720P'],
    ]);
    expect(gateway.ledger.reservedTotal('acct_1')).toBe(0);
  });

  test('settles at the planned seconds when they differ from the reservation', async () => {
    const task = gateway.tasks.create({
      account: 'acct_2',
      kind: 'video',
      model: 'vidmodel-2.5',
      plan: { settleSeconds: 12 },
      reserve: { seconds: 30, tier: '720p' },
    });
    const settledBefore = gateway.ledger.settledTotal('acct_2');
    await gateway.clock.advance(11_000);
    expect(gateway.ledger.entriesFor(task.id).at(-1)).toMatchObject({ kind: 'settle', seconds: 12 });
    expect(gateway.ledger.settledTotal('acct_2') - settledBefore).toBe(12);
  });

  test('refunds the reservation in full on failure, and the listener sees the refund already made', async () => {
    let seenByListener: string[] = [];
    const off = gateway.tasks.on('terminal', (t) => {
      seenByListener = gateway.ledger.entriesFor(t.id).map((e) => e.kind);
    });
    const task = gateway.tasks.create({
      account: 'acct_1',
      kind: 'video',
      model: 'vidmodel-2.5',
      plan: outcomeFor('mock:fail'),
      reserve: { seconds: 30, tier: '1080p' },
    });
    await gateway.clock.advance(11_000);
    off();
    expect(gateway.ledger.entriesFor(task.id).map((e) => [e.kind, e.seconds])).toEqual([
      ['reserve', 30],
      ['refund', 30],
    ]);
    expect(seenByListener).toEqual(['reserve', 'refund']);
  });

  test('a task is never reserved twice, and a task without a reservation leaves no entry', async () => {
    const task = gateway.tasks.create({ account: 'acct_1', kind: 'image', model: 'imgmodel-2' });
    expect(() =>
      gateway.ledger.reserve({ taskId: task.id, account: 'acct_1', seconds: 1, tier: 'x' }),
    ).not.toThrow();
    expect(() =>
      gateway.ledger.reserve({ taskId: task.id, account: 'acct_1', seconds: 1, tier: 'x' }),
    ).toThrow(/already has a reservation/);
    const plain = gateway.tasks.create({ account: 'acct_1', kind: 'image', model: 'imgmodel-2' });
    await gateway.clock.advance(5_000);
    expect(gateway.ledger.entriesFor(plain.id)).toEqual([]);
  });
});

describe('task engine extras', () => {
  test('an unknown kind is refused; a defined one works with its own statuses', async () => {
    expect(() => gateway.tasks.create({ account: 'acct_1', kind: 'music', model: 'm' })).toThrow(
      /unknown mock task kind/,
    );
    gateway.tasks.defineKind('music', {
      prefix: 'mus_',
      statuses: { queued: 'waiting', running: 'playing', succeeded: 'done', failed: 'broken' },
      queuedMs: 0,
      runMs: 1_000,
    });
    const task = gateway.tasks.create({ account: 'acct_1', kind: 'music', model: 'm' });
    expect(gateway.tasks.state(task).status).toBe('playing');
    await gateway.clock.advance(1_000);
    expect(gateway.tasks.state(task).status).toBe('done');
  });

  test('list filters by account and kind', () => {
    const all = gateway.tasks.list();
    const mine = gateway.tasks.list({ account: 'acct_2', kind: 'review' });
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((t) => t.account === 'acct_2' && t.kind === 'review')).toBe(true);
    expect(all.length).toBeGreaterThan(mine.length);
  });
});
