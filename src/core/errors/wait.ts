// Waits for a task and their callbacks: a failed task, a deadline, a callback that threw.

import { brand, MediaGatewayError } from '../base-error.js';
import type { SubmissionEnvelope, TaskByKind, TaskKind } from '../task-types.js';
import { clip } from './transport.js';

/**
 * A waited-for task ended failed (thrown by `waitForTask` and `createAndWait`); `task` holds
 * it as last read. For a video task the gateway refunds the reservation. Submitting again makes
 * a new, separately billed task.
 *
 * Generic over the {@link TaskKind}: `kind` says which wait threw it, and checking it narrows
 * `task` to that kind's type (`VideoTask` for `'video'`, `ImageTask`, `ReviewTask`).
 *
 * @example
 * try { await client.videos.createAndWait(params) }
 * catch (e) {
 *   if (e instanceof TaskFailedError && e.kind === 'video') console.log(e.code, e.task.error?.message);
 * }
 */
export class TaskFailedError<K extends TaskKind = TaskKind> extends MediaGatewayError {
  /** Always `'TaskFailedError'`. */
  declare readonly name: 'TaskFailedError';
  /** Which kind of task failed: `'video'`, `'image'` or `'review'`; checking it narrows `task`. */
  declare readonly kind: K;
  /** The task as last read. */
  declare readonly task: TaskByKind[K];
  /** The public task ID. */
  declare readonly taskId: string;
  /** The task's error code (`task_failed`, `FormatUnsupported`, `InvalidParameter.TaskTypeMismatch`, ...). */
  declare readonly code: string | undefined;
  /**
   * @param taskId - the public task ID.
   * @param task - the task as last read.
   * @param code - the task's error code.
   * @param message - the task's error message; `no detail given` when absent.
   * @param kind - which kind of task it is.
   */
  constructor(
    taskId: string,
    task: TaskByKind[K],
    code: string | undefined,
    message: string | undefined,
    kind: K,
  ) {
    super(`Task ${taskId} failed${code ? ` (${code})` : ''}: ${message ?? 'no detail given'}`);
    this.kind = kind;
    this.task = task;
    this.taskId = taskId;
    this.code = code;
  }

  /** `instanceof` narrows to one error per kind, so that checking `kind` narrows `task`. */
  declare static [Symbol.hasInstance]: (
    value: unknown,
  ) => value is { [Kind in TaskKind]: TaskFailedError<Kind> }[TaskKind];
}

/**
 * The wait's deadline (`timeout`, 10 minutes by default) passed before the task ended. Nothing
 * was resubmitted: keep `taskId` and query it again later; the task may still succeed and bill.
 * Generic over the {@link TaskKind} like {@link TaskFailedError}: checking `kind` narrows `lastTask`.
 *
 * @example
 * catch (e) {
 *   if (e instanceof WaitTimeoutError && e.kind === 'video') console.log(e.taskId, e.lastTask?.progress);
 * }
 */
export class WaitTimeoutError<K extends TaskKind = TaskKind> extends MediaGatewayError {
  /** Always `'WaitTimeoutError'`. */
  declare readonly name: 'WaitTimeoutError';
  /** Which kind of task was waited for: `'video'`, `'image'` or `'review'`; checking it narrows `lastTask`. */
  declare readonly kind: K;
  /** The public task ID, to query again later. */
  declare readonly taskId: string;
  /** The task as last read, if any poll answered. */
  declare readonly lastTask: TaskByKind[K] | undefined;
  /**
   * @param taskId - the public task ID.
   * @param timeoutMs - the deadline that passed, for the message.
   * @param lastTask - the task as last read, if any poll answered.
   * @param kind - which kind of task was waited for.
   */
  constructor(taskId: string, timeoutMs: number, lastTask: TaskByKind[K] | undefined, kind: K) {
    // Whole seconds read best, but a deadline of 1500 ms must not be reported as "2 s".
    const after = timeoutMs % 1000 === 0 ? `${timeoutMs / 1000} s` : `${timeoutMs} ms`;
    super(
      `Task ${taskId} was not finished after ${after}. It was not resubmitted; ` +
        'keep the task ID and query it again later.',
    );
    this.kind = kind;
    this.taskId = taskId;
    this.lastTask = lastTask;
  }

  /** `instanceof` narrows to one error per kind, so that checking `kind` narrows `lastTask`. */
  declare static [Symbol.hasInstance]: (
    value: unknown,
  ) => value is { [Kind in TaskKind]: WaitTimeoutError<Kind> }[TaskKind];
}

/** What {@link SubmittedCallbackError} keeps of the accepted submission (a `TaskSubmission`). */
export interface AcceptedSubmission {
  /** The public task ID. */
  task_id: string;
  /** Normally `submitted`. */
  status: string;
  /** The submission envelope as received. */
  raw: SubmissionEnvelope;
}

/**
 * `onSubmitted` of a `createAndWait` threw or rejected. The submission had been accepted: the
 * task exists and is billed, and the wait never started. `taskId` and `submission` hold what
 * the callback was given; `cause` holds what it threw. Do not submit again: store the ID and
 * wait for the task with `waitForTask(taskId)`.
 *
 * @example
 * try { await client.videos.createAndWait(params, { onSubmitted: (id) => db.save(id) }) }
 * catch (e) { if (e instanceof SubmittedCallbackError) await client.videos.waitForTask(e.taskId) }
 */
export class SubmittedCallbackError extends MediaGatewayError {
  /** Always `'SubmittedCallbackError'`. */
  declare readonly name: 'SubmittedCallbackError';
  /** The public task ID of the accepted submission. */
  declare readonly taskId: string;
  /** The accepted submission. */
  declare readonly submission: AcceptedSubmission;
  /**
   * @param submission - the accepted submission.
   * @param waitMethod - the method to wait for the task with, for the message, e.g. `videos.waitForTask`.
   * @param cause - what `onSubmitted` threw or rejected with.
   */
  constructor(submission: AcceptedSubmission, waitMethod: string, cause: unknown) {
    super(
      `onSubmitted failed for task ${submission.task_id} (${describeCause(cause)}). The task exists and is ` +
        `billed; the wait did not start. Do not submit again: keep the task ID and wait for it with ` +
        `${waitMethod}('${submission.task_id}').`,
      { cause },
    );
    this.taskId = submission.task_id;
    this.submission = submission;
  }
}

/**
 * `onProgress` of a wait threw or rejected. The wait stopped polling; the task was not
 * resubmitted and may still be running. `task` is the task the callback was given and `cause`
 * what it threw: wait for the task again with `waitForTask(taskId)`. Generic over the
 * {@link TaskKind} like {@link TaskFailedError}: checking `kind` narrows `task`.
 */
export class ProgressCallbackError<K extends TaskKind = TaskKind> extends MediaGatewayError {
  /** Always `'ProgressCallbackError'`. */
  declare readonly name: 'ProgressCallbackError';
  /** Which kind of task was waited for: `'video'`, `'image'` or `'review'`; checking it narrows `task`. */
  declare readonly kind: K;
  /** The public task ID, to wait for again. */
  declare readonly taskId: string;
  /** The task `onProgress` was given. */
  declare readonly task: TaskByKind[K];
  /**
   * @param taskId - the public task ID.
   * @param task - the task `onProgress` was given.
   * @param cause - what `onProgress` threw or rejected with.
   * @param kind - which kind of task was waited for.
   */
  constructor(taskId: string, task: TaskByKind[K], cause: unknown, kind: K) {
    super(
      `onProgress failed for task ${taskId} (${describeCause(cause)}). The wait stopped; the task was not ` +
        'resubmitted and may still be running: wait for it again with waitForTask and the same task ID.',
      { cause },
    );
    this.kind = kind;
    this.taskId = taskId;
    this.task = task;
  }

  /** `instanceof` narrows to one error per kind, so that checking `kind` narrows `task`. */
  declare static [Symbol.hasInstance]: (
    value: unknown,
  ) => value is { [Kind in TaskKind]: ProgressCallbackError<Kind> }[TaskKind];
}

brand({ TaskFailedError, WaitTimeoutError, SubmittedCallbackError, ProgressCallbackError });

/** A callback's failure in a few words, for a message; the error itself stays in `cause`. */
export function describeCause(cause: unknown): string {
  let text: string;
  try {
    text = cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause);
  } catch {
    text = typeof cause; // an object without a usable toString
  }
  return clip(text);
}

/** A failure's message, or the failure itself as text when it is not an Error. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Sets `taskId` on an SDK error that does not carry one, and returns it: an error that ends a
 * wait on a task the call created keeps the ID of that billed task.
 *
 * @internal
 */
export function withTaskId(error: unknown, taskId: string): unknown {
  if (error instanceof MediaGatewayError && error.taskId === undefined) {
    Object.defineProperty(error, 'taskId', { value: taskId, enumerable: true });
  }
  return error;
}
