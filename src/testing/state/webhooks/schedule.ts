/**
 * When the mock gateway retries a delivery. spec: Events 7 — "Delays: 1, 2, 5, 15, 30 minutes,
 * then 1, 2, 4, 8 hours, then every 12 hours, with jitter up to 20%", for up to 72 hours.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** The retry delays in order, in ms; after the last one, every 12 hours. */
export const RETRY_DELAYS_MS: readonly number[] = [
  MINUTE,
  2 * MINUTE,
  5 * MINUTE,
  15 * MINUTE,
  30 * MINUTE,
  HOUR,
  2 * HOUR,
  4 * HOUR,
  8 * HOUR,
];

/** The delay after the fixed steps. */
export const LATER_RETRY_DELAY_MS = 12 * HOUR;

/** The time limit of one delivery, the answer's body included. spec: Events 5. */
export const DELIVERY_TIMEOUT_MS = 10_000;

/** The time limit for a delivery's response headers. spec: Events 5. */
export const DELIVERY_HEADERS_TIMEOUT_MS = 8_000;

/** How long after an event's creation (or replay) attempts are made. spec: Events 7 and 8. */
export const DELIVERY_WINDOW_MS = 72 * HOUR;

/** How long the previous signing secret stays valid after a rotation. spec: Webhook management. */
export const ROTATION_OVERLAP_MS = 24 * HOUR;

/** How long event and attempt records are kept. spec: Events 8. */
export const RECORD_RETENTION_MS = 30 * 24 * HOUR;

/** Manual replays per event per UTC day. spec: Limits — Webhook replays. */
export const REPLAYS_PER_DAY = 5;

/** Endpoints per account. spec: Limits — Webhook endpoints per account. */
export const ENDPOINTS_PER_ACCOUNT = 20;

/**
 * The delay before retry number `index + 1` (0-based `index` counts the retries already
 * scheduled), with up to 20% added when `jitter` is on.
 *
 * @example retryDelay(0, false) // 60000
 */
export function retryDelay(index: number, jitter: boolean, random: () => number = Math.random): number {
  const base = RETRY_DELAYS_MS[index] ?? LATER_RETRY_DELAY_MS;
  return jitter ? Math.round(base * (1 + 0.2 * random())) : base;
}

/** The mock ms of the next UTC midnight after `now`. */
export function nextUtcMidnight(now: number): number {
  const date = new Date(now);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate() + 1);
}
