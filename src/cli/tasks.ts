/**
 * Tasks as the command sees them: which kind an ID is, how to query it, wait for it with a
 * progress bar, save its result, and how to resume a wait that was stopped.
 */
import { basename, extname } from 'node:path';
import {
  type ImageData,
  type ImageTask,
  type MediaDownload,
  type MediaGateway,
  type ReviewTask,
  TaskFailedError,
  type VideoTask,
  WaitTimeoutError,
  withExtraFields,
} from '../index.js';
import type { Context } from './context.js';
import { CliError, EXIT, exitCodeFor } from './exit-codes.js';
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

/** What a wait saves once the task succeeded: `--output` and `--last-frame`. */
export interface Saves {
  output?: string | undefined;
  lastFrame?: string | undefined;
}

/**
 * The `tasks wait` words (after `mediagw`) that wait for the task and save what `saves` names:
 * with {@link Context.finishCommand}, the command a stopped run prints to finish the job.
 */
export function waitCommandParts(ref: TaskRef, saves: Saves = {}): string[] {
  const parts = ['tasks', 'wait', ref.id];
  const guessed = ref.id.startsWith('cgt-')
    ? 'video'
    : ref.id.startsWith('task_')
      ? 'image'
      : ref.id.startsWith('rvt_')
        ? 'review'
        : undefined;
  if (guessed !== ref.kind) parts.push('--kind', ref.kind);
  if (ref.kind === 'image' && ref.model) parts.push('--model', ref.model);
  if (saves.output) parts.push('--output', saves.output);
  if (saves.lastFrame && ref.kind === 'video') parts.push('--last-frame', saves.lastFrame);
  return parts;
}

/** Said in place of a resume command under `--mock`. */
export const MOCK_ENDS =
  'The mock gateway of --mock stopped with this command, and its tasks with it: there is nothing to resume.';

/** Queries a task once. */
export function getTask(
  client: MediaGateway,
  ref: TaskRef,
  options: { signal?: AbortSignal } = {},
): Promise<AnyTask> {
  if (ref.kind === 'image') return client.images.getTask(ref.id, { model: ref.model ?? '' }, options);
  if (ref.kind === 'review') return client.library.reviewTasks.retrieve(ref.id, options);
  return client.videos.retrieve(ref.id, options);
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
 * Waits for the task with a progress bar on stderr. A signal stops waiting, and only that: the
 * task goes on, nothing is cancelled or submitted again, and the message says how to resume
 * (with `saves`, so that the command printed also saves what this run was to save).
 *
 * @throws CliError exit 4 when the deadline passes (naming the resume command); TaskFailedError
 * (exit 3) when the task failed; an abort error after SIGINT or SIGTERM, which the program
 * reports as the stage set here says.
 */
export async function waitWithProgress(
  ctx: Context,
  client: MediaGateway,
  ref: TaskRef,
  flags: WaitFlags,
  saves: Saves = {},
): Promise<AnyTask> {
  const timeout = Math.round((flags.timeout ?? 600) * 1000);
  if (!(timeout >= 1)) throw new CliError('--timeout must be a positive number of seconds');
  const out = ctx.output;
  const resume = ctx.finishCommand(waitCommandParts(ref, saves));
  ctx.during({
    message: `Stopped waiting for task ${ref.id}. ${resume ? 'It goes on: nothing was cancelled or resubmitted.' : MOCK_ENDS}`,
    taskId: ref.id,
    resume,
  });
  const progress = new WaitProgress(out, ref.id, timeout);
  progress.start();
  const wait = {
    timeout,
    signal: ctx.signal,
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
    if (error instanceof WaitTimeoutError) {
      const last = error.lastTask ? taskStatus(error.lastTask as AnyTask).status : 'not yet seen';
      throw new CliError(
        `the ${Math.round(timeout / 1000)} s deadline passed while task ${ref.id} was ${last}. ` +
          (resume ? `The task goes on; nothing was cancelled.\nResume with: ${resume}` : MOCK_ENDS),
        EXIT.deadline,
        { taskId: ref.id, ...(resume ? { resume } : {}) },
      );
    }
    // A task that failed says so itself; any other failure (the gateway unreachable) keeps the
    // task's ID and the way back to it.
    if (error instanceof TaskFailedError || ctx.signal.aborted) throw error;
    throw taskGoesOn(error, ref, resume, 'It goes on: nothing was cancelled or resubmitted.');
  } finally {
    progress.stop();
  }
}

/** What a saved file belongs to: the task and the command that saves it again, if any. */
export interface SaveOf {
  /** The task whose media it is (none for a synchronous image answer). */
  ref?: TaskRef | undefined;
  /** What the whole run saves, for the resume command. */
  saves?: Saves | undefined;
  /** The URLs of a synchronous answer's images not saved yet, told when saving stops. */
  unsaved?: string[] | undefined;
}

/**
 * Opens a download with the run's signal and streams it to `path` with a byte bar and a rate on
 * stderr. A signal stops it: the SDK removes its temporary file, so no partial file is left, and
 * the message names the command that saves it again.
 */
export async function saveWithProgress(
  ctx: Context,
  open: (options: { signal: AbortSignal }) => Promise<MediaDownload>,
  path: string,
  of: SaveOf = {},
): Promise<number> {
  const out = ctx.output;
  const { ref } = of;
  const resume = ref ? ctx.finishCommand(waitCommandParts(ref, of.saves ?? { output: path })) : undefined;
  const done = ref
    ? ` Task ${ref.id} is done; nothing was cancelled or resubmitted.${resume ? '' : ` ${MOCK_ENDS}`}`
    : of.unsaved?.length
      ? ` Not saved: ${of.unsaved.join(' ')} (download with your API key, before they expire).`
      : '';
  ctx.during({
    message: `Stopped saving ${path}: no partial file was left.${done}`,
    taskId: ref?.id,
    resume,
  });
  let bar: DownloadProgress | undefined;
  try {
    const download = await open({ signal: ctx.signal });
    bar = new DownloadProgress(out, basename(path), download.contentLength);
    const { bytes } = await download.saveTo(path, { onProgress: (p) => bar?.update(p.bytes) });
    bar.finish();
    return bytes;
  } catch (error) {
    bar?.abandon();
    if (ctx.signal.aborted) throw error;
    // Billed, not saved: the message keeps what it takes to save it again.
    if (ref) throw taskGoesOn(error, ref, resume, `It is done; nothing was cancelled or resubmitted.`);
    if (of.unsaved?.length)
      throw new CliError(
        `${messageOf(error)}\nNot saved: ${of.unsaved.join(' ')} (download with your API key, before they expire)`,
        exitCodeFor(error),
        {},
        error,
      );
    throw error;
  }
}

/** A failure after a task was submitted, with its ID and the command that takes it up again. */
function taskGoesOn(error: unknown, ref: TaskRef, resume: string | undefined, state: string): CliError {
  return new CliError(
    `${messageOf(error)}\nTask ${ref.id}: ${state}${resume ? `\nResume with: ${resume}` : ` ${MOCK_ENDS}`}`,
    exitCodeFor(error),
    { taskId: ref.id, ...(resume ? { resume } : {}) },
    error,
  );
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Saves images (a synchronous answer's, or an image task's) at `output`, numbered when there are
 * several; returns the paths saved, none without `output`.
 */
export async function saveImages(
  ctx: Context,
  client: MediaGateway,
  entries: Array<ImageData | { url: string }>,
  output: string | undefined,
  of: SaveOf,
): Promise<string[]> {
  if (!output) return [];
  const saved: string[] = [];
  for (const [i, entry] of entries.entries()) {
    const path = numberedPath(output, i, entries.length);
    // A synchronous answer has no task to come back to: the images left are named by URL.
    const unsaved = of.ref ? undefined : entries.slice(i).flatMap((e) => (e.url ? [e.url] : []));
    await saveWithProgress(ctx, (o) => client.images.download(entry, o), path, { ...of, unsaved });
    saved.push(path);
  }
  return saved;
}

/**
 * Saves what `saves` asks of a succeeded task: its video, or its images, at `output`, then a
 * video's last frame. Returns the paths saved.
 */
export async function saveTaskMedia(
  ctx: Context,
  client: MediaGateway,
  ref: TaskRef,
  task: AnyTask,
  saves: Saves,
): Promise<string[]> {
  const { output, lastFrame } = saves;
  const saved =
    ref.kind === 'image'
      ? await saveImages(ctx, client, (task as ImageTask).images, output, { ref, saves })
      : [];
  if (output && ref.kind === 'video') {
    await saveWithProgress(ctx, (o) => client.videos.downloadContent(ref.id, o), output, { ref, saves });
    saved.push(output);
  }
  if (lastFrame) {
    // The video is saved by now: a resume saves the last frame alone.
    await saveWithProgress(ctx, (o) => client.videos.downloadLastFrame(ref.id, o), lastFrame, {
      ref,
      saves: { lastFrame },
    });
    saved.push(lastFrame);
  }
  return saved;
}

/** `out.png` for one file; `out-1.png`, `out-2.png` for several. */
export function numberedPath(path: string, index: number, count: number): string {
  if (count <= 1) return path;
  const ext = extname(path);
  return `${path.slice(0, path.length - ext.length)}-${index + 1}${ext}`;
}
