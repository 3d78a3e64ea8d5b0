/** The phases every task goes through, whatever its kind calls them on the wire. */
export type TaskPhase = 'queued' | 'running' | 'succeeded' | 'failed';

/** How a kind of task looks on the wire and how long it takes by default. */
export interface TaskKindSpec {
  /** Prefix of the public task ID. */
  prefix: string;
  /** The wire status of each phase. */
  statuses: Readonly<Record<TaskPhase, string>>;
  /** Default mock time spent waiting before work starts (ms). */
  queuedMs: number;
  /** Default mock time spent working (ms). */
  runMs: number;
}

/** The built-in kinds. More can be added with `gateway.tasks.defineKind()`. */
export type BuiltInTaskKind = 'video' | 'image' | 'review';

/** Durations of a kind, for the `taskDurations` option. */
export interface TaskDurations {
  /** Mock time spent waiting before work starts (ms). @default the kind's own figure */
  queuedMs?: number | undefined;
  /** Mock time spent working (ms). @default the kind's own figure */
  runMs?: number | undefined;
}

/**
 * The built-in task kinds. spec: States and transitions.
 * - video: `queued` -> `in_progress` -> `completed` | `failed` (object style; the compatibility
 *   format maps the phases to `queued`, `processing`, `succeeded`, `failed`).
 * - image: `pending` -> `processing` -> `succeeded` | `failed`.
 * - review: `processing` -> `completed` | `failed` (a review batch starts processing at once).
 */
export function builtInKinds(): Record<BuiltInTaskKind, TaskKindSpec> {
  return {
    video: {
      prefix: 'cgt-',
      statuses: { queued: 'queued', running: 'in_progress', succeeded: 'completed', failed: 'failed' },
      queuedMs: 2_000,
      runMs: 8_000,
    },
    image: {
      prefix: 'task_',
      statuses: { queued: 'pending', running: 'processing', succeeded: 'succeeded', failed: 'failed' },
      queuedMs: 1_000,
      runMs: 4_000,
    },
    review: {
      prefix: 'rvt_',
      statuses: { queued: 'processing', running: 'processing', succeeded: 'completed', failed: 'failed' },
      queuedMs: 0,
      runMs: 5_000,
    },
  };
}

/** The video phases in the compatibility format. spec: Video task statuses. */
export const VIDEO_COMPAT_STATUS: Readonly<Record<TaskPhase, string>> = {
  queued: 'queued',
  running: 'processing',
  succeeded: 'succeeded',
  failed: 'failed',
};
