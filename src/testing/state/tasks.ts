import type { MockClock } from './clock.js';
import { newId } from './ids.js';
import type { Ledger } from './ledger.js';
import { builtInKinds, type TaskDurations, type TaskKindSpec, type TaskPhase } from './task-kinds.js';

/** How a task ends. */
export type TaskOutcome =
  | 'succeeded'
  | {
      /** The task fails with this error. */
      failed: {
        /** The task's error code, e.g. `task_failed`. */
        code: string;
        /** The task's error message. */
        message: string;
      };
    };

/** When and how a task ends. Unset fields take the kind's defaults. */
export interface TaskPlan {
  /** Mock ms before work starts. */
  queuedMs?: number | undefined;
  /** Mock ms of work. */
  runMs?: number | undefined;
  /** Multiplies both durations (`mock:slow` gives 10). @default 1 */
  scale?: number | undefined;
  /** How the task ends. @default 'succeeded' */
  outcome?: TaskOutcome | undefined;
  /** Seconds charged on success. @default the reserved seconds */
  settleSeconds?: number | undefined;
}

/** What {@link TaskEngine.create} takes. */
export interface TaskInit<D> {
  /** The owning account. */
  account: string;
  /** A defined kind: `video`, `image`, `review`, or one added with `defineKind`. */
  kind: string;
  /** The model ID the task runs under. */
  model: string;
  /** When and how it ends. @default the kind's durations and success */
  plan?: TaskPlan | undefined;
  /** Resource-specific record: the request, outputs, anything the routes need later. */
  data?: D | undefined;
  /** Reserves billable seconds in the same step, so no task exists without its reservation. */
  reserve?:
    | {
        /** Billable seconds to hold. */
        seconds: number;
        /** Price tier, e.g. `720P`. */
        tier: string;
      }
    | undefined;
}

/** A task held by the mock gateway. Its state is derived from the clock: see {@link TaskEngine.state}. */
export interface MockTask<D = Record<string, unknown>> {
  /** Public task ID, with the kind's prefix (`cgt-`, `task_`, `rvt_`). */
  readonly id: string;
  /** The task's kind. */
  readonly kind: string;
  /** The owning account. */
  readonly account: string;
  /** The model ID it runs under. */
  readonly model: string;
  /** Mock ms of submission, start of work and end. */
  readonly createdAt: number;
  /** Mock ms at which work starts (the task leaves its queued phase). */
  startsAt: number;
  /** Mock ms at which it ends. */
  endsAt: number;
  /** How it ends. */
  outcome: TaskOutcome;
  /** Seconds charged on success; `undefined` charges the reserved seconds. */
  settleSeconds: number | undefined;
  /** Resource-specific record: the request, outputs, anything the routes need later. */
  data: D;
}

/** A task's state at the current mock time. */
export interface TaskState {
  /** `queued`, `running`, `succeeded` or `failed`. */
  phase: TaskPhase;
  /** The kind's wire status, e.g. `in_progress` for a running video. */
  status: string;
  /** 0-100; 100 once terminal. */
  progress: number;
  /** Whether the task has ended (succeeded or failed). */
  terminal: boolean;
  /** Mock ms of completion; terminal tasks only. */
  completedAt?: number;
  /** Whole seconds from submission to completion (at least 1); succeeded tasks only. spec: `actual_time`. */
  actualTime?: number;
  /** Failed tasks only. */
  error?: {
    /** The task's error code, e.g. `task_failed`. */
    code: string;
    /** The task's error message. */
    message: string;
  };
}

/** Listener of task events. */
export type TaskListener = (task: MockTask<unknown>) => void;

/** The prompt markers that decide outcomes. Resource routes may add their own. */
export const MOCK_TRIGGERS = {
  /** In a prompt: the task fails with `task_failed`. */
  fail: 'mock:fail',
  /** In a prompt: the task takes ten times as long. */
  slow: 'mock:slow',
} as const;

/**
 * The plan a request text asks for: `mock:fail` fails the task with
 * `{ code: 'task_failed', message: 'mock: generation failed' }`; `mock:slow` makes it take ten
 * times as long. No marker: an empty plan (kind defaults, success).
 *
 * @example
 * gateway.tasks.create({ account, kind: 'video', model, plan: outcomeFor(body.prompt) });
 */
export function outcomeFor(text: string | undefined): TaskPlan {
  const plan: TaskPlan = {};
  if (text?.includes(MOCK_TRIGGERS.fail)) {
    plan.outcome = { failed: { code: 'task_failed', message: 'mock: generation failed' } };
  }
  if (text?.includes(MOCK_TRIGGERS.slow)) plan.scale = 10;
  return plan;
}

/**
 * The generic task engine: creates tasks, derives their state from the clock, settles or refunds
 * their reservation when they end and tells listeners, exactly once per task.
 */
export class TaskEngine {
  private readonly tasks = new Map<string, MockTask<unknown>>();
  private readonly kinds = new Map<string, TaskKindSpec>();
  private readonly listeners = { created: new Set<TaskListener>(), terminal: new Set<TaskListener>() };
  private readonly finished = new Set<string>();

  constructor(
    private readonly clock: MockClock,
    private readonly ledger: Ledger,
    durations: Readonly<Record<string, TaskDurations>> = {},
    private readonly onError: (error: unknown) => void = (e) =>
      console.error('mock task listener failed:', e),
  ) {
    for (const [name, spec] of Object.entries(builtInKinds())) {
      const custom = durations[name];
      this.defineKind(name, {
        ...spec,
        queuedMs: custom?.queuedMs ?? spec.queuedMs,
        runMs: custom?.runMs ?? spec.runMs,
      });
    }
  }

  /** Adds or replaces a kind of task. */
  defineKind(name: string, spec: TaskKindSpec): void {
    this.kinds.set(name, spec);
  }

  /**
   * Creates a task (and its reservation when `init.reserve` is given) and schedules its end.
   *
   * @throws Error for an unknown kind.
   */
  create<D = Record<string, unknown>>(init: TaskInit<D>): MockTask<D> {
    const spec = this.kindOf(init.kind);
    const plan = init.plan ?? {};
    const scale = plan.scale ?? 1;
    const now = this.clock.now();
    const startsAt = now + (plan.queuedMs ?? spec.queuedMs) * scale;
    const task: MockTask<D> = {
      id: newId(spec.prefix),
      kind: init.kind,
      account: init.account,
      model: init.model,
      createdAt: now,
      startsAt,
      endsAt: startsAt + (plan.runMs ?? spec.runMs) * scale,
      outcome: plan.outcome ?? 'succeeded',
      settleSeconds: plan.settleSeconds,
      data: init.data ?? ({} as D),
    };
    this.tasks.set(task.id, task);
    if (init.reserve) this.ledger.reserve({ taskId: task.id, account: task.account, ...init.reserve });
    this.emit('created', task);
    this.clock.at(task.endsAt, () => this.finish(task));
    return task;
  }

  /** The task with this ID, whoever owns it. */
  get<D = Record<string, unknown>>(id: string): MockTask<D> | undefined {
    return this.tasks.get(id) as MockTask<D> | undefined;
  }

  /**
   * The task if `account` owns it (and it is of `kind`, when given), else `undefined`: routes
   * answer 404 for another account's task. spec: Authentication — a key manages only its account's tasks.
   */
  getFor<D = Record<string, unknown>>(account: string, id: string, kind?: string): MockTask<D> | undefined {
    const task = this.tasks.get(id);
    if (!task || task.account !== account || (kind !== undefined && task.kind !== kind)) return undefined;
    return task as MockTask<D>;
  }

  /** Every task, oldest first, optionally only one account's or one kind's. */
  list(filter: { account?: string; kind?: string } = {}): MockTask<unknown>[] {
    return [...this.tasks.values()].filter(
      (t) =>
        (filter.account === undefined || t.account === filter.account) &&
        (filter.kind === undefined || t.kind === filter.kind),
    );
  }

  /** The task's state now. A task whose end has passed is finished first, so its listeners have run. */
  state(task: MockTask<unknown>): TaskState {
    const now = this.clock.now();
    const spec = this.kindOf(task.kind);
    if (now >= task.endsAt) {
      this.finish(task);
      const phase: TaskPhase = task.outcome === 'succeeded' ? 'succeeded' : 'failed';
      const state: TaskState = {
        phase,
        status: spec.statuses[phase],
        progress: 100,
        terminal: true,
        completedAt: task.endsAt,
      };
      if (task.outcome === 'succeeded')
        state.actualTime = Math.max(1, Math.ceil((task.endsAt - task.createdAt) / 1000));
      else state.error = { ...task.outcome.failed };
      return state;
    }
    if (now < task.startsAt)
      return { phase: 'queued', status: spec.statuses.queued, progress: 0, terminal: false };
    const progress = Math.min(99, Math.floor(((now - task.startsAt) / (task.endsAt - task.startsAt)) * 100));
    return { phase: 'running', status: spec.statuses.running, progress, terminal: false };
  }

  /** Ends a running task now, optionally with another outcome. Does nothing to a finished task. */
  finishNow(id: string, outcome?: TaskOutcome): void {
    const task = this.tasks.get(id);
    if (!task || this.finished.has(id)) return;
    const now = this.clock.now();
    if (outcome) task.outcome = outcome;
    task.startsAt = Math.min(task.startsAt, now);
    task.endsAt = now;
    this.finish(task);
  }

  /**
   * Subscribes to `created` (right after creation) or `terminal` (once per task, after its
   * reservation is settled or refunded). Returns the unsubscribe function.
   */
  on(event: 'created' | 'terminal', listener: TaskListener): () => void {
    this.listeners[event].add(listener);
    return () => this.listeners[event].delete(listener);
  }

  private finish(task: MockTask<unknown>): void {
    if (this.finished.has(task.id) || this.clock.now() < task.endsAt) return;
    this.finished.add(task.id);
    // spec: Billing — success settles, failure refunds the reservation in full.
    if (task.outcome === 'succeeded') this.ledger.settle(task.id, task.settleSeconds);
    else this.ledger.refund(task.id);
    this.emit('terminal', task);
  }

  private emit(event: 'created' | 'terminal', task: MockTask<unknown>): void {
    for (const listener of this.listeners[event]) {
      try {
        listener(task);
      } catch (error) {
        this.onError(error);
      }
    }
  }

  private kindOf(kind: string): TaskKindSpec {
    const spec = this.kinds.get(kind);
    if (!spec) throw new Error(`unknown mock task kind ${kind}; known: ${[...this.kinds.keys()].join(', ')}`);
    return spec;
  }
}
