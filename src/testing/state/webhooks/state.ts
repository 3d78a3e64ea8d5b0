/**
 * The mock gateway's webhook side: endpoints, local routes, the delivery engine and its options.
 * One per gateway, kept in `gateway.store('webhooks')`.
 */
import { randomBytes } from 'node:crypto';
import { Agent } from 'undici';
import { MockHttpError } from '../../http-error.js';
import type { GatewayState } from '../gateway-state.js';
import { newId } from '../ids.js';
import { isPublicHost } from './address.js';
import { DeliveryEngine } from './engine.js';
import { type PostOutcome, postDelivery } from './http.js';
import {
  DELIVERY_HEADERS_TIMEOUT_MS,
  DELIVERY_TIMEOUT_MS,
  ENDPOINTS_PER_ACCOUNT,
  nextUtcMidnight,
  RECORD_RETENTION_MS,
  REPLAYS_PER_DAY,
  ROTATION_OVERLAP_MS,
} from './schedule.js';
import type {
  MockDeliveryAttempt,
  MockDeliveryListener,
  MockVerificationRecord,
  MockWebhookEndpoint,
  MockWebhookEvent,
  MockWebhookOptions,
} from './types.js';
import { verifyEndpoint } from './verify.js';

const DEFAULT_OPTIONS: MockWebhookOptions = {
  jitter: true,
  random: Math.random,
  duplicateDeliveries: false,
  shuffleDeliveries: false,
  timeoutMs: DELIVERY_TIMEOUT_MS,
  headersTimeoutMs: DELIVERY_HEADERS_TIMEOUT_MS,
  catchAllEndpoints: [],
  signingClock: 'wall',
};

/**
 * The webhook side of a mock gateway. Get it with `mockWebhooks(gateway)`.
 *
 * @example
 * const webhooks = mockWebhooks(gateway);
 * webhooks.route('https://hooks.example.com/mediagw', `http://127.0.0.1:${port}/webhooks`);
 * webhooks.configure({ jitter: false });
 */
export class MockWebhooks {
  /** Settings in force; change them with {@link MockWebhooks.configure}. */
  readonly options: MockWebhookOptions = { ...DEFAULT_OPTIONS };
  /** Every endpoint by ID. */
  readonly endpoints = new Map<string, MockWebhookEndpoint>();
  /** Every verification challenge sent, oldest first. */
  readonly verifications: MockVerificationRecord[] = [];
  private readonly routes = new Map<string, string>();
  private readonly deliveryListeners = new Set<MockDeliveryListener>();
  private readonly engine: DeliveryEngine;
  private readonly closing = new AbortController();
  private agent: Agent | undefined;

  /** @param gateway - the gateway whose tasks it reports; use `mockWebhooks(gateway)` rather than `new`. */
  constructor(
    /** The gateway whose tasks it reports. */
    readonly gateway: GatewayState,
  ) {
    this.engine = new DeliveryEngine({
      gateway,
      options: this.options,
      endpoints: this.endpoints,
      targetFor: (url) => this.targetFor(url),
      post: (url, body, headers) => this.post(url, body, headers),
      pauseGone: (endpoint) => this.pause(endpoint, 'gone'),
      notify: (attempt, event) => {
        for (const listener of this.deliveryListeners) {
          try {
            listener(attempt, event);
          } catch (error) {
            console.error('mock webhooks: a delivery listener threw:', error);
          }
        }
      },
    });
    gateway.tasks.on('terminal', (task) => this.engine.onTerminal(task));
    gateway.onClose(async () => {
      this.closing.abort();
      this.engine.close();
      await this.agent?.destroy();
    });
  }

  /**
   * Calls `listener` after each delivery attempt, once its consequence is settled (delivered,
   * retry scheduled, paused or exhausted); a listener that throws is reported on stderr and
   * does not affect delivery. Returns a function that removes the listener.
   *
   * @example
   * mockWebhooks(gateway).on('delivery', (attempt, event) =>
   *   console.log(event.type, attempt.statusCode ?? attempt.error, event.status));
   */
  on(type: 'delivery', listener: MockDeliveryListener): () => void {
    if (type !== 'delivery') throw new TypeError(`on(): unknown event ${String(type)}; use 'delivery'`);
    this.deliveryListeners.add(listener);
    return () => {
      this.deliveryListeners.delete(listener);
    };
  }

  /** Changes settings, e.g. `{ jitter: false }` for exact retry delays. */
  configure(options: Partial<MockWebhookOptions>): this {
    Object.assign(this.options, options);
    return this;
  }

  /**
   * Delivers what is addressed to `registeredUrl` (an HTTPS URL an endpoint is registered
   * with) to `localUrl` (e.g. `http://127.0.0.1:3000/webhooks`) instead. `registeredUrl` may
   * also be a prefix such as an origin: the rest of the path is appended to `localUrl`.
   * Returns a function that removes the route.
   *
   * @throws TypeError when `localUrl` is not an http(s) URL.
   */
  route(registeredUrl: string, localUrl: string): () => void {
    const local = new URL(localUrl);
    if (local.protocol !== 'http:' && local.protocol !== 'https:')
      throw new TypeError(`route(): localUrl must be http(s), got ${localUrl}`);
    this.routes.set(registeredUrl, localUrl);
    return () => {
      if (this.routes.get(registeredUrl) === localUrl) this.routes.delete(registeredUrl);
    };
  }

  /** The local URL for a registered URL: an exact route, else the longest matching prefix. */
  targetFor(url: string): string | undefined {
    const exact = this.routes.get(url);
    if (exact !== undefined) return exact;
    let best: string | undefined;
    for (const prefix of this.routes.keys()) {
      const boundary = url.charAt(prefix.length);
      const fits = url.startsWith(prefix) && (prefix.endsWith('/') || boundary === '/' || boundary === '?');
      if (fits && (best === undefined || prefix.length > best.length)) best = prefix;
    }
    if (best === undefined) return undefined;
    const base = this.routes.get(best) ?? '';
    const rest = url.slice(best.length);
    return base.endsWith('/') && rest.startsWith('/') ? base + rest.slice(1) : base + rest;
  }

  /** The account's endpoint, or 404 (foreign endpoints are not disclosed). */
  endpointFor(account: string, id: string): MockWebhookEndpoint {
    const endpoint = this.endpoints.get(id);
    if (!endpoint || endpoint.account !== account) throw MockHttpError.notFound(`webhook endpoint ${id}`);
    return endpoint;
  }

  /**
   * Registers an endpoint and returns it with its secret (shown once).
   * @throws MockHttpError 400 for a non-public host, 409 `endpoint_limit_reached` past 20 per account.
   */
  createEndpoint(
    account: string,
    url: string,
  ): {
    /** The new endpoint, unverified. */
    endpoint: MockWebhookEndpoint;
    /** Its signing secret, returned only here. */
    secret: string;
  } {
    if (!isPublicHost(new URL(url).hostname)) {
      throw MockHttpError.spec(
        400,
        'invalid_request',
        'url: must be a public address (not loopback or private)',
      );
    }
    const owned = [...this.endpoints.values()].filter((e) => e.account === account).length;
    if (owned >= ENDPOINTS_PER_ACCOUNT) {
      throw MockHttpError.spec(
        409,
        'endpoint_limit_reached',
        `an account may register at most ${ENDPOINTS_PER_ACCOUNT} webhook endpoints`,
      );
    }
    const endpoint: MockWebhookEndpoint = {
      id: newId('whep_'),
      account,
      url,
      keyId: newId('kid_', 8),
      secret: newSecret(),
      previous: undefined,
      verified: false,
      enabled: true,
      pausedBy: undefined,
      createdAt: this.gateway.clock.now(),
    };
    this.endpoints.set(endpoint.id, endpoint);
    return { endpoint, secret: endpoint.secret };
  }

  /** Sends the verification challenge and records the outcome. spec: Events 4. */
  async verify(endpoint: MockWebhookEndpoint): Promise<MockVerificationRecord> {
    const record = await verifyEndpoint(this, endpoint);
    this.verifications.push(record);
    if (record.verified) endpoint.verified = true;
    return record;
  }

  /** Pauses (`false`) or resumes (`true`) an endpoint. spec: Webhook endpoint states. */
  setEnabled(endpoint: MockWebhookEndpoint, enabled: boolean): void {
    if (!enabled) {
      this.pause(endpoint, 'request');
      return;
    }
    if (endpoint.enabled) return;
    endpoint.enabled = true;
    endpoint.pausedBy = undefined;
    this.engine.resumeEndpoint(endpoint.id);
  }

  private pause(endpoint: MockWebhookEndpoint, by: 'request' | 'gone'): void {
    endpoint.pausedBy = endpoint.enabled ? by : (endpoint.pausedBy ?? by);
    endpoint.enabled = false;
    this.engine.pauseEndpoint(endpoint.id);
  }

  /** A new secret and key ID; the previous pair stays valid for 24 mock hours. */
  rotateSecret(endpoint: MockWebhookEndpoint): string {
    endpoint.previous = {
      keyId: endpoint.keyId,
      secret: endpoint.secret,
      expiresAt: this.gateway.clock.now() + ROTATION_OVERLAP_MS,
    };
    endpoint.keyId = newId('kid_', 8);
    endpoint.secret = newSecret();
    return endpoint.secret;
  }

  /**
   * The secrets a receiver of this endpoint should hold now, by key ID: the current pair, and
   * the previous one until 24 mock hours after a rotation.
   */
  secrets(endpointId: string): Record<string, string> {
    const endpoint = this.endpoints.get(endpointId);
    if (!endpoint) throw new Error(`unknown webhook endpoint ${endpointId}`);
    const out: Record<string, string> = { [endpoint.keyId]: endpoint.secret };
    const previous = this.livePrevious(endpoint);
    if (previous) out[previous.keyId] = previous.secret;
    return out;
  }

  /** The previous pair while it is valid. */
  livePrevious(endpoint: MockWebhookEndpoint): MockWebhookEndpoint['previous'] {
    const previous = endpoint.previous;
    return previous && this.gateway.clock.now() < previous.expiresAt ? previous : undefined;
  }

  /** Events, oldest first, optionally of one task, endpoint or type; records older than 30 days are gone. */
  events(
    filter: { taskId?: string; endpointId?: string; type?: string; account?: string } = {},
  ): MockWebhookEvent[] {
    const cutoff = this.gateway.clock.now() - RECORD_RETENTION_MS;
    return [...this.engine.events.values()].filter(
      (e) =>
        e.createdAt >= cutoff &&
        (filter.taskId === undefined || e.taskIds.includes(filter.taskId)) &&
        (filter.endpointId === undefined || e.endpointId === filter.endpointId) &&
        (filter.type === undefined || e.type === filter.type) &&
        (filter.account === undefined || e.account === filter.account),
    );
  }

  /** The event with this ID (within the 30-day retention). */
  event(id: string): MockWebhookEvent | undefined {
    return this.events().find((e) => e.id === id);
  }

  /** Every delivery attempt of every event, oldest event first. */
  deliveries(): MockDeliveryAttempt[] {
    return this.events().flatMap((e) => e.attempts);
  }

  /** The event's body as sent (built at once if no attempt was made yet). */
  bodyOf(event: MockWebhookEvent): string {
    return this.engine.ensureBody(event);
  }

  /**
   * Replays an event now. spec: Events 8.
   * @throws MockHttpError 409 `delivery_in_flight` while an attempt is under way; 429
   * `redeliver_limit_reached` after 5 replays of the event this UTC day (mock clock).
   */
  redeliver(event: MockWebhookEvent): void {
    if (event.status === 'in_flight') {
      throw MockHttpError.spec(
        409,
        'delivery_in_flight',
        `a delivery of ${event.id} is in flight; try again when it ends`,
      );
    }
    const now = this.gateway.clock.now();
    const today = this.replaysToday(event);
    if (today >= REPLAYS_PER_DAY) {
      const wait = Math.ceil((nextUtcMidnight(now) - now) / 1000);
      throw new MockHttpError(
        429,
        {
          code: 'redeliver_limit_reached',
          message: `an event may be redelivered ${REPLAYS_PER_DAY} times per UTC day`,
          data: null,
        },
        { 'Retry-After': String(wait) },
      );
    }
    this.engine.replay(event);
  }

  /** Replays of the event since the last UTC midnight (mock clock). */
  replaysToday(event: MockWebhookEvent): number {
    const dayStart = nextUtcMidnight(this.gateway.clock.now()) - 86_400_000;
    return event.replays.filter((at) => at >= dayStart).length;
  }

  /** Resolves once no delivery is under way or about to start. Call after `clock.advance()`. */
  flush(): Promise<void> {
    return this.engine.flush();
  }

  /** One POST with the configured limits. */
  post(url: string, body: string, headers: Record<string, string>): Promise<PostOutcome> {
    let dispatcher = this.options.dispatcher;
    if (dispatcher === undefined) {
      this.agent ??= new Agent({ keepAliveTimeout: 1_000, connect: { timeout: this.options.timeoutMs } });
      dispatcher = this.agent;
    }
    return postDelivery(url, body, headers, {
      timeoutMs: this.options.timeoutMs,
      headersTimeoutMs: this.options.headersTimeoutMs,
      signal: this.closing.signal,
      stopped: 'the gateway closed',
      dispatcher,
      userAgent: 'mediagw-mock-gateway',
    });
  }
}

function newSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

/** The webhook side of `gateway`, created (and subscribed to task ends) on first use. */
export function webhookState(gateway: GatewayState): MockWebhooks {
  return gateway.store('webhooks', () => new MockWebhooks(gateway));
}
