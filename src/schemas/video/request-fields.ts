/**
 * Shapes shared by the requests of every video family, in a leaf of their own so that each
 * family's request types (types.ts, 2-5-types.ts) can build on them without
 * importing one another.
 */
import type { Notifications } from '../shared/common.js';
import type { ImageRole } from './shared.js';

/** Fields every video JSON request accepts (spec: Webhook management, "Task request additions"). */
export interface VideoTaskAdditions {
  /**
   * `notifications`: the verified webhook endpoint and the events to send for this task. Must not
   * be combined with the legacy `webhook` or `callback_url` parameters.
   */
  notifications?: Notifications | undefined;
  /**
   * `client_reference_id`: your own reference, at most 128 bytes of UTF-8, echoed in events.
   * It is not an idempotency key.
   */
  client_reference_id?: string | undefined;
}

/** One item of `image_with_roles`. */
export interface ImageWithRole {
  /** `url`: `http(s)://` URL or `asset://` reference. Base64 and data URLs are refused. */
  url: string;
  /** `role`: `first_frame`, `last_frame` or `reference_image`. */
  role: ImageRole;
}

/** One item of `tools`: a search declaration. */
export interface WebSearchTool {
  /** `type`: always `web_search`. */
  type: 'web_search';
}
