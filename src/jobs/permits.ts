/**
 * A claimed job's rate-limit permit, taken by the run with its stop signal, then handed to the
 * submission's first attempt. The run's client waited for a permit inside each call, which no
 * stop reached (a submission is not aborted once its intent is journaled): a run stopped while
 * jobs waited for their turn sent them all afterwards. Taken by the run, a wait that ends
 * without a permit releases the job instead, and nothing is sent.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { LimitedRequest, LimitPermit, MediaGateway, RateLimiter, RouteFamily } from '../index.js';

/** A permit taken for one submission, until its first attempt takes it over. */
export interface Held {
  request: LimitedRequest;
  permit: LimitPermit | undefined;
}

/**
 * Wraps the client's rate limiter: {@link take} waits for a permit ahead of a submission, and
 * the submission run through {@link send} gets it for its first attempt, which then waits no
 * more; every other request (its retries, waits, downloads) waits on the limiter as before.
 */
export class PermitHandoff implements RateLimiter {
  readonly #held = new AsyncLocalStorage<Held>();

  constructor(private readonly limiter: RateLimiter) {}

  /** The client sharing `client`'s connections whose calls go through this hand-off. */
  static of(client: MediaGateway): { client: MediaGateway; permits: PermitHandoff | undefined } {
    const limiter = client.rateLimiter;
    if (!limiter) return { client, permits: undefined };
    const permits = new PermitHandoff(limiter);
    return { client: client.withOptions({ limits: permits }), permits };
  }

  /** The permit taken for the submission this call runs in (its first attempt), else the limiter's. */
  acquire(request: LimitedRequest): Promise<LimitPermit> {
    const held = this.#held.getStore();
    const permit = held?.permit;
    if (permit && held.request.model === request.model && held.request.family === request.family) {
      held.permit = undefined;
      return Promise.resolve(permit);
    }
    return this.limiter.acquire(request);
  }

  /** Passes a 429's pause on to the limiter, which every client sharing it honours. */
  pause(model: string | undefined, family: RouteFamily, ms: number): void {
    this.limiter.pause(model, family, ms);
  }

  /**
   * Waits for a submission's permit.
   * @throws what the limiter throws: the signal's reason once it aborts, a queue timeout.
   */
  async take(model: string | undefined, family: RouteFamily, signal: AbortSignal): Promise<Held> {
    const request: LimitedRequest = { model, family, signal };
    signal.throwIfAborted();
    const granting = Promise.resolve(this.limiter.acquire(request));
    let stop = () => {};
    try {
      // Ended by the signal even when the limiter does not heed it (a Redis round trip).
      const permit = await new Promise<LimitPermit>((resolve, reject) => {
        stop = () => reject(signal.reason);
        signal.addEventListener('abort', stop, { once: true });
        granting.then(resolve, reject);
      });
      return { request, permit };
    } catch (error) {
      // A permit granted after the stop is given back, or its room would be held for good.
      granting.then(
        (late) => this.giveBack({ request, permit: late }),
        () => undefined,
      );
      throw error;
    } finally {
      signal.removeEventListener('abort', stop);
    }
  }

  /**
   * Runs `call` with `held` for its first attempt; a permit it did not take (the call was
   * refused before sending) is given back.
   */
  async send<T>(held: Held | undefined, call: () => Promise<T>): Promise<T> {
    if (!held) return call();
    try {
      return await this.#held.run(held, call);
    } finally {
      this.giveBack(held);
    }
  }

  /** Releases a permit no attempt took (the journal refused the job, or it was not sent). */
  giveBack(held: Held | undefined): void {
    const permit = held?.permit;
    if (!held || !permit) return;
    held.permit = undefined;
    try {
      permit.release();
    } catch {
      // A limiter whose release() throws: the SDK warns of it on its own calls.
    }
  }
}
