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

/** A hub that keeps every event naming its task under the event's `client_reference_id`. */
class ReferenceHub extends TaskEventHub {
  protected override keyOf(event: WebhookEventLike): string | undefined {
    const data = (event as ReferencedEvent).data;
    const reference = data?.client_reference_id;
    return typeof reference === 'string' && typeof data?.task_id === 'string' && data.task_id
      ? reference
      : undefined;
  }
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
  private readonly references: ReferenceHub;

  /** @throws {InvalidOptionError} as `TaskEventHub` does. */
  constructor(options: TaskEventHubOptions = {}) {
    this.hub = new TaskEventHub(options);
    this.references = new ReferenceHub(options);
  }

  /** Hands an event to the run. Bound, so `onEvent: events.publish` works. */
  readonly publish = (event: WebhookEventLike): void => {
    this.references.publish(event);
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
  async taskFor(reference: string, signal: AbortSignal): Promise<string> {
    const event = await this.references.waitFor(reference, signal);
    return event.data?.task_id as string; // ReferenceHub keeps only events that name their task
  }
}
