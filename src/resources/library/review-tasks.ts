import type { APIPromise } from '../../core/api-promise.js';
import { checkOptionsArgument } from '../../core/arguments.js';
import { pollTask, type WaitOptions } from '../../core/polling.js';
import type { RequestOptions } from '../../internal/request-spec.js';
import { path } from '../../internal/url.js';
import { APIResource } from '../resource.js';
import { type ReviewTask, toReviewTask } from './types.js';

/** spec: Limits — review tasks are polled every 5-10 s. */
const REVIEW_INTERVAL: readonly [number, number] = [5_000, 10_000];

/** Library review tasks: `GET /v1/tasks/{id}` without `model`. */
export class ReviewTasks extends APIResource {
  /**
   * Reads a review task. `usable_assets` holds the `asset://` references ready for video requests.
   *
   * @throws NotFoundError for an unknown or another account's review task.
   */
  retrieve(reviewTaskId: string, options?: RequestOptions): APIPromise<ReviewTask> {
    return this.jsonCall<unknown>(
      'GET',
      'safe',
      () => ({ path: path`/tasks/${{ reviewTaskId }}` }),
      options,
    )._thenUnwrap(toReviewTask);
  }

  /**
   * Polls a review task until it ends and resolves with it, completed or failed: a failed
   * batch can still have usable materials (`usable_assets`).
   *
   * @throws WaitTimeoutError (`kind: 'review'`) at the deadline (default 10 minutes, interrupting a query in
   * flight), with the last task seen; nothing is resubmitted.
   * @throws ProgressCallbackError when `onProgress` throws or rejects (it is awaited).
   * @throws InvalidOptionError for a bad `timeout`, `interval` or `fallbackInterval`, or an
   * `onProgress` that is not a function, before any request.
   * @throws APIUserAbortError when `options.signal` aborts, with its reason as `cause`.
   * @example
   * const task = await client.library.reviewTasks.waitForTask(review.id);
   * if (task.status === 'failed') console.warn(task.result?.failed_assets);
   * const refs = task.usable_assets; // asset:// references of the Active materials
   */
  waitForTask(reviewTaskId: string, options: WaitOptions<ReviewTask> = {}): Promise<ReviewTask> {
    try {
      checkOptionsArgument('library.reviewTasks.waitForTask', options);
    } catch (error) {
      return Promise.reject(error);
    }
    return pollTask<ReviewTask>(
      {
        taskId: reviewTaskId,
        kind: 'review',
        fetch: (signal) => this.retrieve(reviewTaskId, { signal }),
        outcome: (task) =>
          task.status === 'completed' ? 'succeeded' : task.status === 'failed' ? 'failed' : 'pending',
        failure: () => ({}),
        defaultInterval: REVIEW_INTERVAL,
        clientInterval: this.settings.pollInterval,
        resolveOnFailure: true,
      },
      options,
    );
  }
}
