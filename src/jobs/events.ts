/**
 * Webhook events for a job run: they end its waits, like a `TaskEventHub`, and they reconcile
 * jobs in doubt by the `client_reference_id` they carry.
 */
import {
  TaskEventHub,
  type TaskEventHubOptions,
  type TaskEventSource,
  type WebhookEventLike,
} from '../index.js';

interface ReferencedEvent extends WebhookEventLike {
  data?: WebhookEventLike['data'] & { client_reference_id?: string | undefined };
}

/**
 * The events a job run receives. Hand it every task event your receiver gets
 * (`onEvent: events.publish` in a handler of `mediagw/webhooks`) and pass it to `runJobs` as
 * `events`: waits end on the events, and a job in doubt (sent, no answer) gets its task ID from
 * the event that carries its `client_reference_id`. Events that come before anyone asks are
 * kept, up to `maxBuffered`, for `maxAgeMs`.
 *
 * @example
 * const events = new JobEvents();
 * http.createServer(createNodeWebhookHandler({ secrets, onEvent: events.publish })).listen(8080);
 * await runJobs(client, 'nightly.jsonl', { journal: 'nightly.journal', outputDir: 'out', events });
 */
export class JobEvents implements TaskEventSource {
  private readonly hub: TaskEventHub;
  private readonly early = new Map<string, { taskId: string; at: number }>();
  private readonly waiters = new Map<string, (taskId: string) => void>();
  private readonly maxBuffered: number;
  private readonly maxAgeMs: number;
  private readonly now: () => number;

  constructor(options: TaskEventHubOptions = {}) {
    this.hub = new TaskEventHub(options);
    this.maxBuffered = options.maxBuffered ?? 1000;
    this.maxAgeMs = options.maxAgeMs ?? 600_000;
    this.now = options.now ?? Date.now;
  }

  /** Hands an event to the run. Bound, so `onEvent: events.publish` works. */
  readonly publish = (event: WebhookEventLike): void => {
    const data = (event as ReferencedEvent).data;
    const reference = data?.client_reference_id;
    const taskId = data?.task_id;
    if (typeof reference === 'string' && typeof taskId === 'string' && taskId) {
      const waiter = this.waiters.get(reference);
      if (waiter) {
        this.waiters.delete(reference);
        waiter(taskId);
      } else {
        this.early.delete(reference);
        this.early.set(reference, { taskId, at: this.now() });
        while (this.early.size > this.maxBuffered) {
          const oldest = this.early.keys().next().value;
          if (oldest === undefined) break;
          this.early.delete(oldest);
        }
      }
    }
    this.hub.publish(event);
  };

  /** For the run's waits: the task's terminal event. */
  waitFor(taskId: string, signal: AbortSignal): Promise<WebhookEventLike> {
    return this.hub.waitFor(taskId, signal);
  }

  /**
   * The task ID of the request sent with `reference`, from the first event that carries it.
   *
   * @throws the signal's reason when `signal` aborts first.
   */
  taskFor(reference: string, signal: AbortSignal): Promise<string> {
    const kept = this.early.get(reference);
    if (kept && kept.at >= this.now() - this.maxAgeMs) {
      this.early.delete(reference);
      return Promise.resolve(kept.taskId);
    }
    return new Promise((resolve, reject) => {
      if (signal.aborted) return reject(signal.reason);
      const onAbort = () => {
        this.waiters.delete(reference);
        reject(signal.reason);
      };
      this.waiters.set(reference, (taskId) => {
        signal.removeEventListener('abort', onAbort);
        resolve(taskId);
      });
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }
}
