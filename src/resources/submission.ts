import { AmbiguousSubmissionError } from '../core/errors/transport.js';
import type { SubmissionEnvelope } from '../core/task-types.js';
import { keepRequestId } from '../internal/response-body.js';

export type { SubmissionEnvelope } from '../core/task-types.js';

/**
 * An accepted asynchronous submission. HTTP success means acceptance, not that media exists:
 * wait for the task (or its webhook event) before downloading.
 */
export interface TaskSubmission {
  /** The public task ID. Store it before waiting. */
  task_id: string;
  /** Normally `submitted`; an upstream may already report a completion state. */
  status: string;
  /** The envelope as received. */
  raw: SubmissionEnvelope;
  /** `X-Service-Request-Id` of the answer. */
  _requestId?: string | undefined;
}

/**
 * Reads the task ID out of a submission envelope. An accepted answer without one means the
 * task may exist with an ID the SDK cannot see: that is ambiguous, never a reason to resubmit.
 */
export function toTaskSubmission(envelope: SubmissionEnvelope, operation: string): TaskSubmission {
  const first = Array.isArray(envelope?.data) ? envelope.data[0] : undefined;
  if (!first || typeof first.task_id !== 'string' || !first.task_id) {
    throw new AmbiguousSubmissionError(operation, 'the answer held no task ID');
  }
  const submission: TaskSubmission = {
    task_id: first.task_id,
    // An object status is shown as JSON: String() of an object that shadows toString throws.
    status:
      first.status !== null && typeof first.status === 'object'
        ? JSON.stringify(first.status)
        : String(first.status ?? 'submitted'),
    raw: envelope,
  };
  return keepRequestId(submission, (envelope as { _requestId?: string })._requestId);
}
