/**
 * The `notifications` field of a task request, written out as a type of its own so that it
 * accepts what a caller writes: a readonly `events` list, or an object `as const`. The rule
 * that checks it is `notificationsSchema` in common.ts.
 */

/**
 * A task event a request may subscribe to (spec: Events — the `notifications.webhook.events`
 * list selects which of the first three event types are sent). The same three as
 * `SUBSCRIBABLE_EVENTS`, which the rule checks against.
 */
export type SubscribableEvent = 'task.completed' | 'task.failed' | 'batch.completed';

/**
 * Webhook subscription of one task request: `{ webhook: { endpoint_id, events } }`. There is no
 * account-wide default endpoint; each task request names one, and it must be verified, enabled
 * and yours, else the request is rejected before submission.
 *
 * @example
 * const notifications: Notifications = {
 *   webhook: { endpoint_id: 'whep_123', events: ['task.completed', 'task.failed'] },
 * };
 */
export interface Notifications {
  /** Delivery by signed webhook. */
  webhook: {
    /** `whep_...` ID of a verified, enabled endpoint of your account. */
    endpoint_id: string;
    /** Which of `task.completed`, `task.failed`, `batch.completed` to send for this task. */
    events: readonly SubscribableEvent[];
  };
}
