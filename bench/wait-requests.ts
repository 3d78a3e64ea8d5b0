/**
 * (8) Requests made by `videos.waitForTask` for a `vidmodel-2.5` task that takes 30 s, with
 * the SDK's default intervals, polling alone and with a `TaskEventHub` that receives the
 * task's terminal event, against the fewest requests the spec's intervals allow.
 *
 * Time runs 50 times faster: the mock gateway's clock at speed 50, and in the waiting process
 * every timer over one second fires 50 times sooner (the SDK's 5-10 s poll sleeps and 60-120 s
 * fallback sleeps included). Request counts do not depend on the speed.
 */

import { runInChild } from './lib/child.js';
import { type BenchContext, modulePath, reps } from './lib/context.js';
import { loadMediagw, loadTesting } from './lib/package.js';
import type { Row } from './lib/results.js';
import { interleave, median } from './lib/stats.js';
import type { WorkerChannel } from './lib/worker.js';

const SPEED = 50;
const QUEUED_MS = 5_000;
const RUN_MS = 25_000;
const TASK_MS = QUEUED_MS + RUN_MS;
// spec: States — vidmodel-2.5 is polled every 5-10 s; spec: Events 10 — fallback every 60-120 s.
const INTERVAL_MS = [5_000, 10_000] as const;
const FALLBACK_MIN_MS = 60_000;

type Mode = 'polling' | 'events';

interface WorkerArgs {
  mode: Mode;
  url: string;
  apiKey: string;
  speed: number;
}

/** Makes every timer over one second fire `speed` times sooner in this process. */
function speedUpTimers(speed: number): void {
  const real = globalThis.setTimeout;
  const fast = (handler: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) =>
    real(handler, typeof ms === 'number' && ms > 1000 ? ms / speed : ms, ...args);
  globalThis.setTimeout = fast as unknown as typeof setTimeout;
}

/** Child side: submit one task, tell the parent its ID, wait for it. */
export async function waitWorker(args: WorkerArgs, channel: WorkerChannel): Promise<{ taskId: string }> {
  speedUpTimers(args.speed);
  const { MediaGateway, TaskEventHub } = await loadMediagw();
  const client = new MediaGateway({ apiKey: args.apiKey, baseURL: args.url });
  const hub = new TaskEventHub();
  channel.onMessage((message) => {
    if (message.type === 'event') hub.publish(message.event as Parameters<typeof hub.publish>[0]);
  });
  const { task_id: taskId } = await client.videos.create({
    model: 'vidmodel-2.5',
    prompt: 'a paper boat',
    duration: 5,
  });
  channel.send({ type: 'submitted', taskId });
  const task = await client.videos.waitForTask(taskId, {
    model: 'vidmodel-2.5',
    ...(args.mode === 'events' ? { events: hub } : {}),
  });
  if (task.status !== 'completed') throw new Error(`the task ended ${task.status}`);
  return { taskId };
}

interface Sample {
  requests: number;
  beforeEvent: number;
  beforeFallback: number;
  lagMs: number;
}

/** Parent side: the mock gateway here; it forwards the task's terminal event to the child. */
export async function measure(ctx: BenchContext): Promise<Row[]> {
  const { startMockGateway } = await loadTesting();
  await loadMediagw();
  const gateway = await startMockGateway({
    clock: 'real',
    speed: SPEED,
    taskDurations: { video: { queuedMs: QUEUED_MS, runMs: RUN_MS } },
  });
  try {
    const rounds = reps(ctx, 3, 1);
    const samples = await interleave(['polling', 'events'] as const, rounds, async (mode: Mode) => {
      const unsubscribe: Array<() => void> = [];
      const { taskId } = await runInChild<{ taskId: string }>(
        modulePath(import.meta.url),
        'waitWorker',
        { mode, url: gateway.url, apiKey: gateway.apiKey, speed: SPEED } satisfies WorkerArgs,
        {
          timeoutMs: 60_000,
          onMessage: (message, send) => {
            if (message.type !== 'submitted') return;
            const id = message.taskId as string;
            const off = gateway.tasks.on('terminal', (task) => {
              if (task.id !== id) return;
              const type = task.outcome === 'succeeded' ? 'task.completed' : 'task.failed';
              send({
                type: 'event',
                event: { id: `evt_${id}`, type, data: { task_id: id, status: 'completed' } },
              });
            });
            unsubscribe.push(off);
          },
        },
      ).finally(() => {
        for (const off of unsubscribe) off();
      });
      const task = gateway.tasks.get(taskId);
      if (!task) throw new Error(`the gateway has no task ${taskId}`);
      const queries = gateway.requests.filter((r) => r.method === 'GET' && r.path === `/v1/videos/${taskId}`);
      const sample: Sample = {
        requests: queries.length,
        beforeEvent: queries.filter((r) => r.at < task.endsAt).length,
        beforeFallback: queries.filter((r) => r.at < task.endsAt && r.at < task.createdAt + FALLBACK_MIN_MS)
          .length,
        lagMs: Math.max(...queries.map((r) => r.at)) - task.endsAt,
      };
      ctx.log(`wait ${mode}: ${sample.requests} requests, ${sample.beforeEvent} before the task ended`);
      return sample;
    });
    const fewest = 1 + Math.ceil(TASK_MS / INTERVAL_MS[1]);
    const most = 1 + Math.ceil(TASK_MS / INTERVAL_MS[0]);
    const polling = samples.polling;
    const events = samples.events;
    ctx.note(
      `(8) wait: ${rounds} round(s) per mode; a vidmodel-2.5 task of ${TASK_MS / 1000} s (mock), time ${SPEED}x faster; the spec's 5-10 s interval allows ` +
        `${fewest} (every 10 s) to ${most} (every 5 s) queries. Polling: requests ${polling.map((s) => s.requests).join(', ')}, ` +
        `done ${median(polling.map((s) => s.lagMs / 1000)).toFixed(1)} s after the task ended (median). ` +
        `Events: requests ${events.map((s) => s.requests).join(', ')} in all, done ${median(events.map((s) => s.lagMs / 1000)).toFixed(1)} s after the task ended.`,
    );
    const pollsBeforeFallback = Math.max(...events.map((s) => s.beforeFallback));
    return [
      {
        id: 'wait.polling',
        figure: '(8) videos.waitForTask, 30 s vidmodel-2.5 task, polling: task queries',
        unit: 'requests',
        better: 'lower',
        mediagw: median(polling.map((s) => s.requests)),
        limit: fewest,
        limitLabel: 'fewest at the 5-10 s interval',
        ratio: median(polling.map((s) => s.requests)) / fewest,
        samples: { mediagw: polling.map((s) => s.requests) },
      },
      {
        id: 'wait.events',
        figure: '(8) videos.waitForTask with events: polls before the event (worst round)',
        unit: 'requests',
        better: 'lower',
        mediagw: pollsBeforeFallback,
        limit: 0,
        limitLabel: 'one confirming query after the event',
        samples: {
          mediagw: events.map((s) => s.beforeFallback),
          total: events.map((s) => s.requests),
        },
      },
    ];
  } finally {
    await gateway.close();
  }
}
