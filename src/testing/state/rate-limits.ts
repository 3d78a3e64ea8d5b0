/**
 * The mock gateway's rate limits: token buckets per API key and model, and per client IP on the
 * creation and upload routes, checked before a route runs. spec: Limits — "Rate limits apply per
 * key and model, and upload and creation endpoints also limit requests per IP"; spec: Errors —
 * a rate limit answers 429 (`{code, message, data: null}`), and no task is created.
 */
import { checkCount } from '../../core/options.js';
import { MockHttpError } from '../http-error.js';

/** One limit the mock enforces. */
export interface MockRateLimit {
  /** Requests admitted per second (real time, whatever the mock clock does). */
  requestsPerSecond: number;
  /** Requests admitted at once after a quiet spell. @default requestsPerSecond */
  burst?: number | undefined;
}

/** The `rateLimits` option of `startMockGateway`. */
export interface MockRateLimitOptions {
  /** Per API key and model: every request whose JSON body or form names a `model`. */
  perKeyModel?: MockRateLimit | undefined;
  /** Per client IP, on creation (generation submissions) and upload routes. */
  perIp?: MockRateLimit | undefined;
}

/** What the mock's rate limits saw; read it from `gateway.rateLimits.stats`. */
export interface MockRateLimitStats {
  /** Requests the limits were checked for. */
  checked: number;
  /** Requests answered 429. */
  limited: number;
  /** The most requests of one key and model awaiting their answer at once, by `<key>|<model>`. */
  peakInFlight: Map<string, number>;
  /** Requests admitted per key and model, by `<key>|<model>`, per whole second of real time. */
  admittedPerSecond: Map<string, Map<number, number>>;
}

/** A request as the limits see it. */
export interface RateLimitedRequest {
  /** The HTTP method, upper case. */
  method: string;
  /** The path, with `/v1`. */
  path: string;
  /** The `Authorization` header. */
  authorization: string | undefined;
  /** The model the body names. */
  model: string | undefined;
  /** The peer address. */
  ip: string | undefined;
}

class Bucket {
  private tokens: number;
  private last: number;

  constructor(
    private readonly rate: number,
    private readonly burst: number,
    now: number,
  ) {
    this.tokens = burst;
    this.last = now;
  }

  /** 0 when a token was taken, else the milliseconds until one is there. */
  take(now: number): number {
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) * this.rate) / 1000);
    this.last = now;
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return 0;
    }
    return Math.ceil(((1 - this.tokens) * 1000) / this.rate);
  }
}

const CREATION = /^\/v1\/(videos?|images|midjourney)\/(generations|edits)(\/|$)/;

/** The route family of a request, as the gateway limits them. */
function familyOf(method: string, path: string): 'creation' | 'upload' | 'other' {
  if (method !== 'POST') return 'other';
  if (path.startsWith('/v1/uploads/')) return 'upload';
  return CREATION.test(path) ? 'creation' : 'other';
}

function checkLimit(name: string, limit: MockRateLimit | undefined): void {
  if (!limit) return;
  checkCount(`rateLimits.${name}.requestsPerSecond`, limit.requestsPerSecond, 1);
  checkCount(`rateLimits.${name}.burst`, limit.burst, 1);
}

/** The limits of one mock gateway: `gateway.rateLimits`. */
export class MockRateLimits {
  /** What the limits saw so far. */
  readonly stats: MockRateLimitStats = {
    checked: 0,
    limited: 0,
    peakInFlight: new Map(),
    admittedPerSecond: new Map(),
  };
  private readonly buckets = new Map<string, Bucket>();
  private readonly inFlightByKey = new Map<string, number>();

  /** @throws InvalidOptionError for a rate or burst that is not a whole number of 1 or more. */
  constructor(
    private readonly options: MockRateLimitOptions = {},
    private readonly now: () => number = Date.now,
  ) {
    checkLimit('perKeyModel', options.perKeyModel);
    checkLimit('perIp', options.perIp);
  }

  /** Requests of `<key>|<model>` awaiting their answer now. */
  inFlight(keyModel: string): number {
    return this.inFlightByKey.get(keyModel) ?? 0;
  }

  /** Empties the stats (in place) and refills every bucket. */
  reset(): void {
    this.buckets.clear();
    this.stats.checked = 0;
    this.stats.limited = 0;
    this.stats.peakInFlight.clear();
    this.stats.admittedPerSecond.clear();
  }

  /**
   * Admits a request, or gives the 429 to answer with. An admitted request's `done` is called
   * when its answer is finished, for the in-flight count.
   */
  admit(request: RateLimitedRequest):
    | MockHttpError
    | {
        /** Marks the admitted request answered. */
        done: () => void;
      } {
    const { perKeyModel, perIp } = this.options;
    const key = /^Bearer\s+(\S+)/i.exec(request.authorization ?? '')?.[1];
    const keyModel = key !== undefined && request.model !== undefined ? `${key}|${request.model}` : undefined;
    this.stats.checked++;
    const now = this.now();
    const family = familyOf(request.method, request.path);
    if (perIp && family !== 'other' && request.ip) {
      const wait = this.bucket(`ip|${request.ip}`, perIp, now).take(now);
      if (wait > 0) return this.limited(wait, 'requests from this IP address');
    }
    if (perKeyModel && keyModel) {
      const wait = this.bucket(keyModel, perKeyModel, now).take(now);
      if (wait > 0) return this.limited(wait, `requests for ${request.model} with this API key`);
    }
    if (keyModel === undefined) return { done: () => undefined };
    const second = Math.floor(now / 1000);
    let perSecond = this.stats.admittedPerSecond.get(keyModel);
    if (!perSecond) {
      perSecond = new Map();
      this.stats.admittedPerSecond.set(keyModel, perSecond);
    }
    perSecond.set(second, (perSecond.get(second) ?? 0) + 1);
    const count = (this.inFlightByKey.get(keyModel) ?? 0) + 1;
    this.inFlightByKey.set(keyModel, count);
    if (count > (this.stats.peakInFlight.get(keyModel) ?? 0)) this.stats.peakInFlight.set(keyModel, count);
    let done = false;
    return {
      done: () => {
        if (done) return;
        done = true;
        this.inFlightByKey.set(keyModel, (this.inFlightByKey.get(keyModel) ?? 1) - 1);
      },
    };
  }

  private bucket(name: string, limit: MockRateLimit, now: number): Bucket {
    let bucket = this.buckets.get(name);
    if (!bucket) {
      bucket = new Bucket(limit.requestsPerSecond, limit.burst ?? limit.requestsPerSecond, now);
      this.buckets.set(name, bucket);
    }
    return bucket;
  }

  private limited(waitMs: number, what: string): MockHttpError {
    this.stats.limited++;
    // Retry-After in whole seconds, as HTTP gives it: the wait for the next token, rounded up.
    const seconds = Math.max(1, Math.ceil(waitMs / 1000));
    const error = MockHttpError.spec(
      429,
      'rate_limit_exceeded',
      `too many ${what}; retry after ${seconds} s`,
    );
    error.headers['Retry-After'] = String(seconds);
    return error;
  }
}
