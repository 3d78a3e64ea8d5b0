import { createHmac, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { openAIErrorBody } from '../http-error.js';
import type { RequestContext, RouteRegistry } from '../types.js';
import type { MockClock } from './clock.js';
import { largeBody, mp4Video, pngImage } from './media.js';

/** The spec's message for expired media. spec: Errors — Media expired: 410. */
export const MEDIA_EXPIRED_MESSAGE = 'media has expired or is unavailable';

/** What {@link MediaStore.publish} takes: bytes in memory, or a generator of a fresh stream per download. */
export interface PublishInit {
  /** The owning account: only its keys may download the file through the gateway. */
  account: string;
  /** The task the file belongs to, if any. */
  taskId?: string | undefined;
  /** The media type served, e.g. `video/mp4`. */
  contentType: string;
  /** The bytes, held in memory. Give this or `generator`. */
  bytes?: Buffer | undefined;
  /** Returns a fresh stream for each download, for bodies too large to hold. Give this or `bytes`. */
  generator?: (() => Readable) | undefined;
  /** Byte length; required with `generator` to send a Content-Length. */
  size?: number | undefined;
  /** Mock ms until it expires. @default the gateway's `mediaTtlMs` (no expiry) */
  ttlMs?: number | undefined;
}

/** A published file. */
export interface MediaRecord {
  /** The file's random token, part of its URL. */
  readonly token: string;
  /** Signed URL on the media origin; works without a key, like a presigned URL. */
  readonly url: string;
  /** The owning account. */
  readonly account: string;
  /** The task the file belongs to, if any. */
  readonly taskId: string | undefined;
  /** The media type served. */
  readonly contentType: string;
  /** Byte length, when known. */
  readonly size: number | undefined;
  /** Mock time of publication (ms). */
  readonly createdAt: number;
  /** Mock time (ms) from which it answers 410; `undefined` for no expiry. */
  readonly expiresAt: number | undefined;
  /** Set by `expire()`: the file answers 410 from now on. */
  expired: boolean;
}

interface Stored extends MediaRecord {
  bytes: Buffer | undefined;
  generator: (() => Readable) | undefined;
}

/**
 * Files the mock serves: results are published here and downloaded from the media origin (a
 * second listening port) by signed token URLs, as a gateway hands out presigned storage URLs.
 */
export class MediaStore {
  private readonly files = new Map<string, Stored>();
  private readonly secret = randomBytes(32);
  private origin = '';

  constructor(
    private readonly clock: MockClock,
    private readonly options: {
      ttlMs: number | undefined;
      redirect: boolean;
      largeMediaBytes: number | undefined;
    },
  ) {}

  /** Sets the media origin's base URL, once it listens. */
  setOrigin(url: string): void {
    this.origin = url;
  }

  /**
   * Publishes a file and returns its record with the signed URL.
   *
   * @throws Error when neither `bytes` nor `generator` is given.
   */
  publish(init: PublishInit): MediaRecord {
    if (!init.bytes && !init.generator) throw new Error('media.publish() needs bytes or a generator');
    const token = randomBytes(18).toString('base64url');
    const ttl = init.ttlMs ?? this.options.ttlMs;
    const now = this.clock.now();
    const record: Stored = {
      token,
      url: `${this.origin}/media/${token}?sig=${this.sign(token)}`,
      account: init.account,
      taskId: init.taskId,
      contentType: init.contentType,
      size: init.bytes ? init.bytes.length : init.size,
      createdAt: now,
      expiresAt: ttl === undefined ? undefined : now + ttl,
      expired: false,
      bytes: init.bytes,
      generator: init.generator,
    };
    this.files.set(token, record);
    return record;
  }

  /** Publishes a generated PNG (a result image or a last frame). */
  publishImage(init: {
    account: string;
    taskId?: string | undefined;
    seed?: number;
    width?: number;
    height?: number;
  }): MediaRecord {
    const bytes = pngImage({ seed: init.seed, width: init.width, height: init.height });
    return this.publish({ account: init.account, taskId: init.taskId, contentType: 'image/png', bytes });
  }

  /**
   * Publishes a video result: the tiny MP4, or a generated body of `largeMediaBytes` when the
   * gateway was started with that option (for streaming and memory tests).
   */
  publishVideo(init: {
    account: string;
    taskId?: string | undefined;
    format?: 'mp4' | 'mov' | undefined;
  }): MediaRecord {
    const contentType = init.format === 'mov' ? 'video/quicktime' : 'video/mp4';
    const large = this.options.largeMediaBytes;
    if (large !== undefined) {
      return this.publish({ ...init, contentType, size: large, generator: () => largeBody(large) });
    }
    return this.publish({ account: init.account, taskId: init.taskId, contentType, bytes: mp4Video() });
  }

  /** The file with this token. */
  get(token: string): MediaRecord | undefined {
    return this.files.get(token);
  }

  /** The files of a task, oldest first. */
  forTask(taskId: string): MediaRecord[] {
    return [...this.files.values()].filter((f) => f.taskId === taskId);
  }

  /** Expires a file (by token) or every file of a task (by task ID). Returns how many. */
  expire(taskIdOrToken: string): number {
    const direct = this.files.get(taskIdOrToken);
    const targets = direct ? [direct] : this.forTask(taskIdOrToken);
    for (const file of targets) file.expired = true;
    return targets.length;
  }

  /** Whether the file can still be downloaded at the current mock time. */
  isAvailable(record: MediaRecord): boolean {
    return !record.expired && (record.expiresAt === undefined || this.clock.now() < record.expiresAt);
  }

  /** A fresh stream of the file's bytes. */
  open(record: MediaRecord): Readable {
    const stored = this.files.get(record.token);
    if (stored?.bytes) return Readable.from([stored.bytes]);
    if (stored?.generator) return stored.generator();
    throw new Error(`no media ${record.token}`);
  }

  /**
   * Answers a content route on the gateway: 410 when expired, else a 302 to the media origin
   * (or, with `redirectContent: false`, the bytes themselves).
   */
  serve(ctx: RequestContext<unknown>, record: MediaRecord): Promise<void> {
    if (this.options.redirect && this.isAvailable(record)) return ctx.redirect(record.url);
    return this.deliver(ctx, record);
  }

  private deliver(ctx: RequestContext<unknown>, record: MediaRecord): Promise<void> {
    if (!this.isAvailable(record))
      return ctx.json(410, openAIErrorBody(MEDIA_EXPIRED_MESSAGE, 'media_expired'));
    return ctx.stream(record.contentType, this.open(record), record.size);
  }

  /** Registers the media origin's route: `GET /media/:token?sig=…`, no key needed. */
  registerRoutes(router: RouteRegistry): void {
    router.add(
      'GET',
      '/media/:token',
      (ctx) => {
        const record = this.files.get(ctx.params.token);
        if (!record) return ctx.openAIError(404, 'media not found', 'not_found');
        if (ctx.query.get('sig') !== this.sign(record.token)) {
          return ctx.openAIError(403, 'the media URL signature is invalid', 'invalid_signature');
        }
        return this.deliver(ctx, record);
      },
      { auth: false, body: 'none' },
    );
  }

  private sign(token: string): string {
    return createHmac('sha256', this.secret).update(token).digest('hex').slice(0, 32);
  }
}
