import type { APIPromise } from '../core/api-promise.js';
import { checkOptionsArgument } from '../core/arguments.js';
import { SubmittedCallbackError, withTaskId } from '../core/errors/wait.js';
import { APIUserAbortError, abortedBy } from '../core/errors.js';
import { checkCallback, checkOptions } from '../core/options.js';
import { type PollSpec, pollChecked, pollTask, WAIT_OPTIONS, type WaitOptions } from '../core/polling.js';
import { untilAborted } from '../core/signal-fanout.js';
import { openDownload } from '../internal/download.js';
import type { MediaDownload } from '../internal/media-download.js';
import type { RequestOptions } from '../internal/request-spec.js';
import { checkVideoRequest, estimateReservation } from '../internal/schemas.js';
import { path } from '../internal/url.js';
import type { VideoCreateParams } from '../schemas/video/index.js';
import type { ReservationEstimate, ReservationHints } from '../schemas/video/reservation-tiers.js';
import { APIResource } from './resource.js';
import type { TaskSubmission } from './submission.js';
import {
  checkVideoModelHint,
  type VideoTask,
  type VideoTaskCompat,
  videoPollInterval,
} from './video-task.js';

/** Options of {@link Videos.waitForTask}. */
export type VideoWaitOptions = WaitOptions<VideoTask> & {
  /**
   * The task's model, to pick the spec's poll interval (mini 3-5 s, 2.5 5-10 s, others 4-6 s)
   * when the first task read names none (the gateway names it for `vidmodel-2.5` only); the
   * model the answer names wins. With neither, the task is polled every 3-5 s.
   */
  model?: string | undefined;
};

/** Options of {@link Videos.createAndWait}. */
export type CreateAndWaitOptions = Omit<VideoWaitOptions, 'model'> & {
  /**
   * Called with the task ID as soon as the submission is accepted, to store it; a promise it
   * returns is awaited before the first poll. When it throws or rejects, `createAndWait`
   * rejects with `SubmittedCallbackError` (holding the task ID; the task exists and is billed)
   * and does not wait.
   */
  onSubmitted?: ((taskId: string) => unknown) | undefined;
  /** Options of the submission request itself. */
  request?: RequestOptions | undefined;
};

/**
 * Video generation: always asynchronous. Submit, wait for the task (by polling or a webhook
 * event), then download with authentication.
 */
export class Videos extends APIResource {
  /**
   * Submits a video task (`POST /v1/videos/generations`). Billable: sent once, never retried
   * after its bytes went out.
   *
   * @throws RequestValidationError before sending, for any rule of the model's request shape.
   * @throws AmbiguousSubmissionError when the outcome is unknown (timeout, reset): check before resubmitting.
   * @throws APIError (a subclass by status) when the gateway refuses it, e.g. BadRequestError (400,
   * no task, no reservation), ContentModerationError, PermissionDeniedError, RateLimitError.
   * @example
   * const { task_id } = await client.videos.create({ model: 'vidmodel-2.5', prompt: 'a lighthouse at dusk', duration: 5 });
   */
  create(params: VideoCreateParams, options?: RequestOptions): APIPromise<TaskSubmission> {
    return this.submitTask('/videos/generations', () => checkVideoRequest(params), options);
  }

  /**
   * Reads a task in object style (`GET /v1/videos/{id}`). A failed task is still answered
   * with 200: check `status`.
   *
   * @throws NotFoundError for an unknown task or one of another account; other APIError
   * subclasses by status. Safe to retry, so network failures are retried first.
   * @example
   * const task = await client.videos.retrieve(taskId);
   * if (task.status === 'completed') await (await client.videos.downloadContent(taskId)).saveTo('out.mp4');
   */
  retrieve(taskId: string, options?: RequestOptions): APIPromise<VideoTask> {
    return this.jsonCall<VideoTask>('GET', 'safe', () => ({ path: path`/videos/${{ taskId }}` }), options);
  }

  /**
   * Reads a task in the compatibility format (`GET /v1/video/generations/{id}`):
   * `data.status` is `queued`, `processing`, `succeeded` or `failed`.
   *
   * @throws NotFoundError for an unknown task or one of another account; other APIError
   * subclasses by status.
   */
  retrieveCompat(taskId: string, options?: RequestOptions): APIPromise<VideoTaskCompat> {
    return this.jsonCall<VideoTaskCompat>(
      'GET',
      'safe',
      () => ({ path: path`/video/generations/${{ taskId }}` }),
      options,
    );
  }

  /**
   * Polls a task (`GET /v1/videos/{id}`) until it completes, at `options.interval`, else the
   * client's `pollInterval`, else the model's interval (mini 3-5 s, `vidmodel-2.5` 5-10 s,
   * others 4-6 s; the model the first answer shows, else `options.model`); with `options.events` it ends on the
   * task's webhook event and polls only every 60-120 s. Never resubmits.
   *
   * @throws TaskFailedError (`kind: 'video'`, `task` a `VideoTask`) when the task failed, with
   * its `code`, e.g. `task_failed`.
   * @throws WaitTimeoutError (`kind: 'video'`) at the deadline (default 10 minutes), holding the
   * task ID and the last task seen; the deadline interrupts a query in flight and its retry sleeps.
   * @throws ProgressCallbackError (`kind: 'video'`) when `onProgress` throws or rejects (it is awaited).
   * @throws InvalidOptionError for a bad `timeout`, `interval` or `fallbackInterval`, or an
   * `onProgress` that is not a function, before any request.
   * @throws APIUserAbortError when `options.signal` aborts, with its reason as `cause`.
   * @example
   * const task = await client.videos.waitForTask(taskId, { model: 'vidmodel-2.5', onProgress: (t) => console.log(t.progress) });
   */
  waitForTask(taskId: string, options: VideoWaitOptions = {}): Promise<VideoTask> {
    try {
      checkOptionsArgument('videos.waitForTask', options);
      checkVideoModelHint('videos.waitForTask', options.model);
    } catch (error) {
      return Promise.reject(error);
    }
    const { model, ...wait } = options;
    return pollTask(videoPollSpec(this, taskId, model, this.settings.pollInterval), wait);
  }

  /**
   * Submits once, awaits `onSubmitted(taskId)`, then waits. A submission whose outcome is
   * unknown raises `AmbiguousSubmissionError` and the wait never starts. The wait's `timeout`
   * starts once `onSubmitted` has returned. With `events`, a request whose `notifications`
   * subscribe neither `task.completed` nor `task.failed` (or that has no `notifications`) can
   * send no event to end the wait: the wait then polls at its normal pace (`interval`, the
   * client's `pollInterval`, else the model's), as without `events`, and says so in a `debug` log line.
   *
   * @throws InvalidOptionError for a bad `timeout`, `interval` or `fallbackInterval`, or an
   * `onProgress` that is not a function, before the submission.
   * @throws SubmittedCallbackError when `onSubmitted` throws or rejects: the task exists and is
   * billed; wait for it with `waitForTask(error.taskId)` instead of submitting again.
   * @throws everything {@link Videos.create} and {@link Videos.waitForTask} throw.
   *
   * @example
   * const task = await client.videos.createAndWait(params, { onSubmitted: (id) => db.save(id) });
   */
  async createAndWait(params: VideoCreateParams, options: CreateAndWaitOptions = {}): Promise<VideoTask> {
    checkOptionsArgument('videos.createAndWait', options);
    checkOptionsArgument('videos.createAndWait', options.request, 'options.request');
    // A wait that could not start must refuse the call before anything is billed: its options
    // are checked here, once, and the wait after the submission takes them as they are.
    const { onSubmitted, request, ...wait } = checkOptions(
      { ...WAIT_OPTIONS, onSubmitted: checkCallback },
      options,
    );
    const submission = await this.create(params, { signal: wait.signal, ...request });
    if (onSubmitted) {
      const signal = wait.signal;
      try {
        // The caller's signal ends the wait for the callback too; the task ID goes with it.
        await untilAborted(() => onSubmitted(submission.task_id), signal);
      } catch (cause) {
        if (signal?.aborted && cause === signal.reason) {
          const message = `videos.createAndWait was aborted while onSubmitted ran, ${abortedBy(cause)}; task ${submission.task_id} was submitted and is billed: wait for it with videos.waitForTask`;
          throw withTaskId(new APIUserAbortError(message, { cause }), submission.task_id);
        }
        throw new SubmittedCallbackError(submission, 'videos.waitForTask', cause);
      }
    }
    // spec: Events — only the events a request's notifications select are sent: without a
    // terminal one no event can end the wait, which would sit until its 60-120 s fallback poll.
    const subscribed = (params as { notifications?: { webhook?: { events?: unknown } } }).notifications
      ?.webhook?.events;
    if (
      wait.events &&
      !(Array.isArray(subscribed) && subscribed.some((e) => e === 'task.completed' || e === 'task.failed'))
    ) {
      wait.events = undefined;
      this.transport.log(
        'debug',
        `videos.createAndWait: task ${submission.task_id} subscribes no task.completed or task.failed event (notifications), so no event can end its wait: polling at the normal pace instead`,
      );
    }
    try {
      return await pollChecked(
        videoPollSpec(this, submission.task_id, params.model, this.settings.pollInterval),
        wait,
      );
    } catch (error) {
      // Whatever ends the wait (an abort, a poll that failed for good), the task exists.
      throw withTaskId(error, submission.task_id);
    }
  }

  /**
   * Streams the video (`GET /v1/videos/{id}/content`), following redirects; the key is not
   * sent to another origin. The container is `mp4` or `mov` as requested.
   *
   * @throws MediaExpiredError (410) when the media has expired.
   * @throws AuthenticationError (401) or NotFoundError (404) when the key is not of the task's account.
   * @example
   * await (await client.videos.downloadContent(taskId)).saveTo('./out/video.mp4');
   */
  downloadContent(taskId: string, options?: RequestOptions): Promise<MediaDownload> {
    return openDownload(this.transport, () => ({ path: path`/videos/${{ taskId }}/content` }), options);
  }

  /**
   * Streams the last frame (`GET /v1/videos/{id}/last-frame`); its type follows `contentType`.
   *
   * @throws NotFoundError when `return_last_frame` was not set, or the frame is absent.
   * @throws MediaExpiredError (410) when the media has expired.
   */
  downloadLastFrame(taskId: string, options?: RequestOptions): Promise<MediaDownload> {
    return openDownload(this.transport, () => ({ path: path`/videos/${{ taskId }}/last-frame` }), options);
  }

  /**
   * The seconds and tier a submission reserves, by the spec's billing rules. No request is made.
   * Same as the top-level {@link estimateReservation}.
   *
   * @param hints - durations the SDK cannot read from URLs (reference videos), in seconds.
   * @throws RequestValidationError when the request itself is invalid.
   * @example
   * client.videos.estimateReservation({ model: 'vidmodel-2.0-mini', prompt: 'p', video_urls: [url] }, { videoDurations: [4.2] });
   */
  estimateReservation(params: VideoCreateParams, hints?: ReservationHints): ReservationEstimate {
    return estimateReservation(params, hints);
  }
}

/** What a wait for a video task polls, and how often by default. */
function videoPollSpec(
  videos: Videos,
  taskId: string,
  model: VideoWaitOptions['model'],
  clientInterval: PollSpec<VideoTask>['clientInterval'],
): PollSpec<VideoTask> {
  // Fixed at the first sleep: the model the first answer names decides (the task's own model),
  // else the caller's; later answers cannot move a wait between intervals.
  let interval: readonly [number, number] | undefined;
  return {
    taskId,
    kind: 'video',
    fetch: (signal) => videos.retrieve(taskId, { signal }),
    outcome: (task) =>
      task.status === 'completed' ? 'succeeded' : task.status === 'failed' ? 'failed' : 'pending',
    // Strings only: the error's fields go into TaskFailedError's message, and an object
    // there (one that shadows toString) would throw instead.
    failure: ({ error }) => ({
      code: typeof error?.code === 'string' ? error.code : undefined,
      message: typeof error?.message === 'string' ? error.message : undefined,
    }),
    defaultInterval: (task) =>
      (interval ??= videoPollInterval(typeof task?.model === 'string' ? task.model : model)),
    clientInterval,
  };
}
