import type { APIPromise } from '../core/api-promise.js';
import type { RequestOptions, RequestSpec } from '../internal/request-spec.js';
import type { RetryClass } from '../internal/retry-policy.js';
import { TIMEOUTS } from '../internal/timeouts.js';
import type { Transport } from '../internal/transport.js';
import { type SubmissionEnvelope, type TaskSubmission, toTaskSubmission } from './submission.js';

/** What a client tells its resources besides how to send requests: its defaults for waits. */
export interface ResourceSettings {
  /** The client's `pollInterval`: the interval of every wait that names none. */
  readonly pollInterval?: number | readonly [number, number] | undefined;
}

/** The base of every resource: holds the client's transport and settings. */
export abstract class APIResource {
  /** @internal */
  declare protected readonly transport: Transport;
  /** @internal */
  declare protected readonly settings: ResourceSettings;

  constructor(transport: Transport, settings: ResourceSettings = {}) {
    Object.defineProperty(this, 'transport', { value: transport, enumerable: false });
    Object.defineProperty(this, 'settings', { value: settings, enumerable: false });
  }

  /**
   * A JSON call with the default timeout. `route` builds its path, query and body inside the
   * call, so an ID or a body refused while it is built rejects the call.
   */
  protected jsonCall<T>(
    method: RequestSpec['method'],
    retry: RetryClass,
    route: () => Pick<RequestSpec, 'path' | 'query' | 'body'>,
    options: RequestOptions | undefined,
  ): APIPromise<T> {
    return this.transport.json<T>(() => ({ method, ...route(), retry, timeout: TIMEOUTS.default, options }));
  }

  /**
   * Submits a billable task (`POST /v1<path>`) and returns its task ID. `body` checks the
   * request inside the call, so a refused body rejects it.
   */
  protected submitTask(
    path: string,
    body: () => unknown,
    options: RequestOptions | undefined,
  ): APIPromise<TaskSubmission> {
    return this.transport
      .json<SubmissionEnvelope>(() => ({
        method: 'POST',
        path,
        body: body(),
        retry: 'billable',
        timeout: TIMEOUTS.submission,
        options,
      }))
      ._thenUnwrap((envelope) => toTaskSubmission(envelope, `POST /v1${path}`));
  }
}
