import { contentTypeError, MockHttpError } from '../http-error.js';
import { type GatewayState, imageResultUrl } from '../state/gateway-state.js';
import { pngImage } from '../state/media.js';
import type { MediaRecord } from '../state/media-origin.js';
import type { RequestContext } from '../types.js';

/**
 * Prompt markers of the image routes (besides `mock:fail` and `mock:slow`, which apply too).
 * - `mock:moderation` with `nsfw_check: true`: 400 `nsfw_content_detected`, no task.
 * - `mock:b64`: a synchronous answer carries `b64_json` instead of `url` (as does
 *   `response_format: 'b64_json'`).
 * - `mock:legacy`: an image task answers in the legacy form: bare URL strings in
 *   `result.images` and the alternative status words `submitted`, `in_progress`, `success`, `error`.
 */
export const IMAGE_TRIGGERS = {
  moderation: 'mock:moderation',
  b64: 'mock:b64',
  legacy: 'mock:legacy',
} as const;

/** The most output images one request may ask for on the mock's routes. */
export const MAX_IMAGES_PER_REQUEST = 10;

/** The moderation message: it lists the flagged categories. spec: Errors — Moderation rejection. */
export const MODERATION_MESSAGE = 'flagged categories: sexual, violence';

/** What an image task (async generation, async edit, Midjourney) keeps in its `data`. */
export interface ImageTaskData {
  /** The request's `notifications`, for the webhook delivery engine. */
  notifications?: unknown;
  /** The request's `client_reference_id`, echoed in events. */
  client_reference_id?: string | undefined;
  /** Images published when the task succeeds. */
  count: number;
  /** The task query answers in the legacy form. */
  legacy: boolean;
  /** Which route created it. */
  route: 'generations' | 'edits' | 'midjourney';
  /** Midjourney-family batch the task belongs to. */
  batch_id?: string | undefined;
  /** The text fields of the request as received. */
  request: Record<string, unknown>;
}

/** Publishes `count` result PNGs for the account (and task, when given). */
export function publishImages(
  gateway: GatewayState,
  account: string,
  count: number,
  taskId?: string,
): MediaRecord[] {
  const base = gateway.media.forTask(taskId ?? '').length;
  return Array.from({ length: count }, (_, i) =>
    gateway.media.publishImage({ account, taskId, seed: base + i + 1 }),
  );
}

/** Whether a request asked for moderation: `nsfw_check` true, as JSON or as a form field. */
function wantsModeration(value: unknown): boolean {
  return value === true || value === 'true';
}

/**
 * Refuses a request whose prompt carries `mock:moderation` when `nsfw_check` is true, as the
 * gateway refuses flagged content: 400 `nsfw_content_detected`, no task, no reservation.
 * spec: Errors — Moderation rejection (`nsfw_check` true).
 */
export function checkModeration(fields: Record<string, unknown>): void {
  const prompt = typeof fields.prompt === 'string' ? fields.prompt : '';
  if (wantsModeration(fields.nsfw_check) && prompt.includes(IMAGE_TRIGGERS.moderation)) {
    throw MockHttpError.spec(400, 'nsfw_content_detected', MODERATION_MESSAGE);
  }
}

/** The number of images asked for (`n`, default 1), or a 400 over the mock's per-request limit. */
export function imageCount(n: unknown): number {
  const count = typeof n === 'number' ? n : 1;
  if (count > MAX_IMAGES_PER_REQUEST) {
    throw MockHttpError.spec(
      400,
      'invalid_request',
      `n: must be at most ${MAX_IMAGES_PER_REQUEST} on this route (the maximum depends on the route)`,
    );
  }
  return count;
}

/** Whether a synchronous answer should carry `b64_json` instead of `url`. */
export function wantsBase64(fields: Record<string, unknown>): boolean {
  const prompt = typeof fields.prompt === 'string' ? fields.prompt : '';
  return fields.response_format === 'b64_json' || prompt.includes(IMAGE_TRIGGERS.b64);
}

/**
 * Answers the synchronous image response: `{created, data}` with one entry per image, each a
 * `url` on the gateway's origin or the PNG's bytes as `b64_json`. spec: Synchronous image response.
 */
export function answerImages(
  gateway: GatewayState,
  ctx: RequestContext<unknown>,
  count: number,
  base64: boolean,
): Promise<void> {
  const created = Math.floor(gateway.clock.now() / 1000);
  if (base64) {
    const data = Array.from({ length: count }, (_, i) => ({
      b64_json: pngImage({ seed: i + 1 }).toString('base64'),
    }));
    return ctx.json(200, { created, data });
  }
  const data = publishImages(gateway, ctx.account.id, count).map((record) => ({
    url: imageResultUrl(gateway, record),
  }));
  return ctx.json(200, { created, data });
}

/**
 * Reads a JSON generation body from the raw bytes, so that a multipart edit sent here gets a
 * message that names the right endpoint. spec: Images — "An edit must not be sent to the
 * generations endpoints".
 */
export function readGenerationBody(ctx: RequestContext<unknown>, editPath: string): unknown {
  const type = ctx.req.headers['content-type']?.toLowerCase() ?? '';
  if (type.startsWith('multipart/form-data')) {
    throw MockHttpError.spec(
      400,
      'invalid_request',
      `an edit must not be sent to the generations endpoints: send the image files as multipart to POST ${editPath}`,
    );
  }
  const raw = ctx.raw ?? Buffer.alloc(0);
  if (raw.length === 0) return undefined;
  const wrongType = contentTypeError(ctx.req.headers['content-type']);
  if (wrongType) throw wrongType;
  try {
    const body: unknown = JSON.parse(raw.toString('utf8'));
    ctx.record.body = body;
    return body;
  } catch {
    throw MockHttpError.spec(400, 'invalid_request', 'the request body is not valid JSON');
  }
}
