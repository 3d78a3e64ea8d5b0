/**
 * Tasks as the command sees them: which kind an ID is, how to query it, wait for it with a
 * progress bar, save its result, and how to resume a wait that was stopped.
 */
import { basename, extname } from 'node:path';
import {
  APIUserAbortError,
  type ImageTask,
  type MediaDownload,
  type MediaGateway,
  type ReviewTask,
  type VideoTask,
  WaitTimeoutError,
  withExtraFields,
} from '../index.js';
import { CliError, EXIT } from './exit-codes.js';
import type { Output } from './output.js';
import { DownloadProgress, WaitProgress } from './progress.js';

/** The kinds of task the gateway runs. */
export type TaskKind = 'video' | 'image' | 'review';

/** A task to query: its ID, its kind and (for image tasks) the model it was submitted with. */
export interface TaskRef {
  id: string;
  kind: TaskKind;
  model?: string | undefined;
}

/** Any task as queried. */
export type AnyTask = VideoTask | ImageTask | ReviewTask;

/** Options of a wait, from the command's flags. */
export interface WaitFlags {
  /** `--timeout`: the deadline in seconds. @default 600 */
  timeout?: number | undefined;
  /** `--poll-interval`: ms between queries; the spec's figure per kind when left out. */
  pollInterval?: number | undefined;
}

/**
 * The task's kind: `--kind` when given, else by the ID's form (`cgt-` video, `task_` image,
 * `rvt_` review), else image when a model is named, else video.
 */
export function taskRef(id: string, kind: string | undefined, model: string | undefined): TaskRef {
  if (kind !== undefined && kind !== 'video' && kind !== 'image' && kind !== 'review')
    throw new CliError(`--kind must be video, image or review, got ${kind}`);
  const guessed: TaskKind =
    (kind as TaskKind | undefined) ??
    (id.startsWith('cgt-')
      ? 'video'
      : id.startsWith('task_')
        ? 'image'
        : id.startsWith('rvt_')
          ? 'review'
          : model
            ? 'image'
            : 'video');
  if (guessed === 'image' && !model)
    throw new CliError(
      `image task ${id}: pass --model, the model it was submitted with (the task query needs it)`,
    );
  return { id, kind: guessed, model };
}

/** The command that resumes waiting for a task. */
export function resumeCommand(ref: TaskRef): string {
  const parts = ['mediagw', 'tasks', 'wait', ref.id];
  const guessed = ref.id.startsWith('cgt-')
    ? 'video'
    : ref.id.startsWith('task_')
      ? 'image'
      : ref.id.startsWith('rvt_')
        ? 'review'
        : undefined;
  if (guessed !== ref.kind) parts.push('--kind', ref.kind);
  if (ref.kind === 'image' && ref.model) parts.push('--model', ref.model);
  return parts.join(' ');
}

/** Queries a task once. */
export function getTask(client: MediaGateway, ref: TaskRef): Promise<AnyTask> {
  if (ref.kind === 'image') return client.images.getTask(ref.id, { model: ref.model ?? '' });
  if (ref.kind === 'review') return client.library.reviewTasks.retrieve(ref.id);
  return client.videos.retrieve(ref.id);
}

/** The task's wire status and its percent, whatever its kind. */
export function taskStatus(task: AnyTask): { status: string; percent: number | undefined } {
  const raw = withExtraFields(task);
  const data = (raw.raw as { data?: Record<string, unknown> } | undefined)?.data;
  const progress = raw.progress ?? data?.progress;
  let percent: number | undefined;
  if (typeof progress === 'number') percent = progress;
  else if (typeof progress === 'string' && progress.trim() !== '') {
    const n = Number.parseFloat(progress);
    if (Number.isFinite(n)) percent = n;
  }
  const status = String(raw.status ?? 'unknown');
  if (percent === undefined && /^(completed|succeeded|success)$/i.test(status)) percent = 100;
  return { status, percent };
}

/** The task's ID, whatever its kind. */
export function taskIdOf(task: AnyTask): string {
  return (task as { id?: string }).id ?? (task as { task_id?: string }).task_id ?? '';
}

/**
 * Waits for the task with a progress bar on stderr. Ctrl+C stops waiting, and only that: the
 * task goes on, nothing is cancelled or submitted again, and the message says how to resume.
 *
 * @throws CliError exit 130 on Ctrl+C, exit 4 when the deadline passes (both name the resume
 * command); TaskFailedError (exit 3) when the task failed.
 */
export async function waitWithProgress(
  client: MediaGateway,
  out: Output,
  ref: TaskRef,
  flags: WaitFlags,
): Promise<AnyTask> {
  const timeout = Math.round((flags.timeout ?? 600) * 1000);
  if (!(timeout >= 1)) throw new CliError('--timeout must be a positive number of seconds');
  const stop = new AbortController();
  const onSigint = () => stop.abort(new Error('interrupted'));
  process.once('SIGINT', onSigint);
  const progress = new WaitProgress(out, ref.id, timeout);
  progress.start();
  const wait = {
    timeout,
    signal: stop.signal,
    ...(flags.pollInterval === undefined ? {} : { interval: flags.pollInterval }),
    onProgress: (task: AnyTask) => {
      const { status, percent } = taskStatus(task);
      progress.update(status, percent);
    },
  };
  try {
    let task: AnyTask;
    if (ref.kind === 'image')
      task = await client.images.waitForTask(ref.id, { ...wait, model: ref.model ?? '' });
    else if (ref.kind === 'review') task = await client.library.reviewTasks.waitForTask(ref.id, wait);
    else task = await client.videos.waitForTask(ref.id, wait);
    return task;
  } catch (error) {
    if (stop.signal.aborted && error instanceof APIUserAbortError) {
      throw new InterruptedWait(ref);
    }
    if (error instanceof WaitTimeoutError) {
      const last = error.lastTask ? taskStatus(error.lastTask as AnyTask).status : 'not yet seen';
      throw new CliError(
        `the ${Math.round(timeout / 1000)} s deadline passed while task ${ref.id} was ${last}. ` +
          `The task goes on; nothing was cancelled.\nResume with: ${resumeCommand(ref)}`,
        EXIT.deadline,
        { taskId: ref.id, resume: resumeCommand(ref) },
      );
    }
    throw error;
  } finally {
    progress.stop();
    process.removeListener('SIGINT', onSigint);
  }
}

/** Ctrl+C during a wait: exit 130 with the resume command. */
export class InterruptedWait extends CliError {
  constructor(ref: TaskRef) {
    super(
      `Stopped waiting for task ${ref.id}. It goes on: nothing was cancelled or resubmitted.\n` +
        `Resume with: ${resumeCommand(ref)}`,
      EXIT.interrupted,
      { taskId: ref.id, resume: resumeCommand(ref) },
    );
  }
}

/** Streams a download to `path` with a byte bar and a rate on stderr. */
export async function saveWithProgress(out: Output, download: MediaDownload, path: string): Promise<number> {
  const bar = new DownloadProgress(out, basename(path), download.contentLength);
  try {
    const { bytes } = await download.saveTo(path, { onProgress: (p) => bar.update(p.bytes) });
    bar.finish();
    return bytes;
  } catch (error) {
    bar.abandon();
    throw error;
  }
}

/** `out.png` for one file; `out-1.png`, `out-2.png` for several. */
export function numberedPath(path: string, index: number, count: number): string {
  if (count <= 1) return path;
  const ext = extname(path);
  return `${path.slice(0, path.length - ext.length)}-${index + 1}${ext}`;
}
