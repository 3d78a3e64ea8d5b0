/**
 * Whether `RedisRateLimiter` keeps to its local share: switched on by an acquisition that
 * failed, switched off by the first `PING` that answers, tried every `retryRedisMs`.
 */
import { type RedisCommandClient, run } from './client.js';

/** Redis's reachability as the limiter sees it. */
export class RedisReachability {
  /** Whether Redis is taken to be unreachable: requests keep to the local share. Set by `goDown`. */
  down = false;
  private probe: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly client: RedisCommandClient,
    private readonly timeoutMs: number,
    private readonly retryMs: number,
  ) {}

  /** Switches to the local share and tries Redis again every `retryMs` until it answers. */
  goDown(): void {
    if (this.down) return;
    this.down = true;
    this.probe = setInterval(() => {
      run(this.client, ['PING'], this.timeoutMs).then(
        () => {
          this.down = false;
          this.stop();
        },
        () => undefined,
      );
    }, this.retryMs);
    this.probe.unref?.();
  }

  /** Stops the probe. */
  stop(): void {
    clearInterval(this.probe);
    this.probe = undefined;
  }
}
