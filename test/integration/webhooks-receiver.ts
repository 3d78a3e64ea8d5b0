import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createNodeWebhookHandler,
  type HandledWebhookEvent,
  MemoryDedupeStore,
  type WebhookSecrets,
} from '../../src/webhooks/index.js';

/** A request the test receiver got, and how it answered. */
export interface ReceivedRequest {
  /** The request target: path and query. */
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
  status: number;
}

/** A scripted answer that replaces the handler for one request. */
export interface ScriptedAnswer {
  status: number;
  headers?: Record<string, string>;
  /** `false`: answer without a `Date` header. */
  sendDate?: false;
  body?: string;
  /** Real ms to wait before answering (or forever with `hang`). */
  delayMs?: number;
  hang?: boolean;
}

/** Options of {@link startReceiver}. */
export interface ReceiverOptions {
  secrets: WebhookSecrets;
  /** Unix seconds the handler checks timestamps against; give the mock clock. */
  clock?: () => number;
  /** Also called with each event, after it is recorded (e.g. `hub.publish`). */
  onEvent?: (event: HandledWebhookEvent) => unknown;
}

/**
 * A webhook receiver on 127.0.0.1 built from the SDK's Node handler, for tests: records every
 * request, every event passed to `onEvent`, and can answer from a script instead.
 */
export class TestReceiver {
  readonly requests: ReceivedRequest[] = [];
  readonly events: HandledWebhookEvent[] = [];
  /** Answers used, in order, before the handler gets requests again. */
  readonly script: ScriptedAnswer[] = [];
  readonly dedupe = new MemoryDedupeStore();
  url = '';
  private handler: ReturnType<typeof createNodeWebhookHandler>;
  private readonly server: Server;
  private readonly hanging = new Set<() => void>();

  constructor(private readonly options: ReceiverOptions) {
    this.handler = this.build(options.secrets);
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        const entry: ReceivedRequest = {
          url: req.url ?? '',
          headers: req.headers,
          body: body.toString('utf8'),
          status: 0,
        };
        this.requests.push(entry);
        res.on('finish', () => {
          entry.status = res.statusCode;
        });
        const answer = this.script.shift();
        if (!answer) {
          this.handler(Object.assign(req, { body }), res);
          return;
        }
        const send = () => {
          if (answer.sendDate === false) res.sendDate = false;
          res.writeHead(answer.status, answer.headers);
          res.end(answer.body ?? '');
        };
        if (answer.hang) this.hanging.add(() => res.destroy());
        else if (answer.delayMs) setTimeout(send, answer.delayMs);
        else send();
      });
    });
  }

  /** Replaces the secrets the handler accepts (the dedupe store is kept). */
  setSecrets(secrets: WebhookSecrets): void {
    this.handler = this.build(secrets);
  }

  /** Event IDs that reached the receiver, one per request, in arrival order. */
  get eventIds(): string[] {
    return this.requests.map((r) => String(r.headers['x-service-event-id']));
  }

  async listen(path = '/webhooks'): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}${path}`;
    return this;
  }

  async close(): Promise<void> {
    for (const end of this.hanging) end();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private build(secrets: WebhookSecrets) {
    return createNodeWebhookHandler({
      secrets,
      dedupe: this.dedupe,
      onEvent: (event) => {
        this.events.push(event);
        return this.options.onEvent?.(event);
      },
      onError: () => {},
      ...(this.options.clock ? { clock: this.options.clock } : {}),
    });
  }
}

/** Starts a {@link TestReceiver}. */
export function startReceiver(options: ReceiverOptions): Promise<TestReceiver> {
  return new TestReceiver(options).listen();
}
