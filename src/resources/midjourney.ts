import type { APIPromise } from '../core/api-promise.js';
import type { RequestOptions } from '../internal/request-spec.js';
import { parseMidjourneyGenerateParams } from '../internal/schemas.js';
import type { MidjourneyGenerateParams } from '../schemas/images/midjourney.js';
import { APIResource } from './resource.js';
import type { TaskSubmission } from './submission.js';

/**
 * The Midjourney-family asynchronous route. The gateway's document lists the route but not
 * its fields, so they pass through; `notifications` and `client_reference_id` are checked as
 * everywhere else. Its child events carry `batch_id` and end in `batch.completed`.
 */
export class Midjourney extends APIResource {
  /**
   * Submits a Midjourney-family task (`POST /v1/midjourney/generations`). Billable: sent
   * once, never retried after its bytes went out. Query the task with `images.getTask` /
   * `images.waitForTask` and the model it runs under.
   *
   * @throws RequestValidationError for `notifications` not of the spec's shape or combined with
   * `webhook`/`callback_url`, or a `client_reference_id` over 128 bytes of UTF-8.
   * @example
   * const { task_id } = await client.midjourney.generate({
   *   prompt: 'a lighthouse, woodcut style',
   *   notifications: { webhook: { endpoint_id: 'whep_123', events: ['task.completed', 'batch.completed'] } },
   * });
   */
  generate(params: MidjourneyGenerateParams, options?: RequestOptions): APIPromise<TaskSubmission> {
    return this.submitTask('/midjourney/generations', () => parseMidjourneyGenerateParams(params), options);
  }
}
