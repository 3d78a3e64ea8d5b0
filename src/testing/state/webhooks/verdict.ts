/**
 * What the gateway makes of a receiver's answer to a delivery: the one reading of it, used by
 * the mock gateway's deliveries and by `mediagw webhooks send`. spec: Events 5 and 7; Webhook
 * endpoint states.
 */
import { parseRetryAfter } from '../../../core/errors/api-fields.js';
import { checkCount, InvalidOptionError } from '../../../core/options.js';
import {
  DELIVERY_HEADERS_TIMEOUT_MS,
  DELIVERY_WINDOW_MS,
  LATER_RETRY_DELAY_MS,
  RETRY_DELAYS_MS,
} from './schedule.js';

/** A receiver's answer to one delivery, as {@link deliveryVerdict} reads it. */
export interface DeliveryAnswer {
  /** The HTTP status; `undefined` when no complete answer came. */
  status?: number | undefined;
  /** Why no complete answer came: a network error, or a body that broke off or came too late. */
  error?: string | undefined;
  /** Milliseconds until the answer's headers came, when they were timed. */
  headersMs?: number | undefined;
  /** The answer's `Retry-After` header. */
  retryAfter?: string | undefined;
  /** The answer's `Date` header: a `Retry-After` date is counted from it. */
  date?: string | undefined;
}

/** What the gateway makes of a receiver's answer. spec: Events 5 and 7; Webhook endpoint states. */
export interface DeliveryVerdict {
  /** The gateway counts the delivery as done. */
  acknowledged: boolean;
  /** The gateway sends the event again later. */
  retried: boolean;
  /** The endpoint is paused (410): nothing more is sent until it is enabled again. */
  pausesEndpoint: boolean;
  /**
   * The wait a valid `Retry-After` on 429 or 503 asks for, in ms, when it lies inside the 72-hour
   * window: the next attempt comes then, in place of the schedule's next step.
   */
  retryAfterMs?: number | undefined;
  /** In words. */
  explanation: string;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/**
 * The retry schedule as the explanations say it, from the schedule's own numbers: "the first
 * retry comes after about 1 minute, then 2, 5, 15, 30 min, 1, 2, 4, 8 h and every 12 h, for up
 * to 72 h".
 */
const SCHEDULE = (() => {
  const [first = MINUTE, ...rest] = RETRY_DELAYS_MS;
  const minutes = rest.filter((ms) => ms < HOUR).map((ms) => ms / MINUTE);
  const hours = rest.filter((ms) => ms >= HOUR).map((ms) => ms / HOUR);
  return (
    `the first retry comes after about ${first / MINUTE} minute, then ${minutes.join(', ')} min, ` +
    `${hours.join(', ')} h and every ${LATER_RETRY_DELAY_MS / HOUR} h, for up to ${DELIVERY_WINDOW_MS / HOUR} h`
  );
})();

/**
 * Reads a receiver's answer as the gateway does: any 2xx within 10 s (headers within 8 s, and
 * the whole answer, body included, within the 10 s; `error` says when it was not) acknowledges;
 * 410 pauses the endpoint; everything else, redirects included, is retried on the schedule (1,
 * 2, 5, 15, 30 min, 1, 2, 4, 8 h, then every 12 h, up to 72 h), and a valid `Retry-After` on 429
 * or 503 is honoured inside that window (seconds, or a date counted from the answer's `Date` when
 * it has a readable one, else from `now`).
 *
 * @example
 * deliveryVerdict({ status: 503, retryAfter: '30' }).retryAfterMs; // 30000
 */
export function deliveryVerdict(answer: DeliveryAnswer, now = Date.now()): DeliveryVerdict {
  answer = checkAnswer(answer);
  checkCount('now', now, 0);
  const retry = (why: string): DeliveryVerdict => ({
    acknowledged: false,
    retried: true,
    pausesEndpoint: false,
    explanation: `${why}: the gateway retries (${SCHEDULE})`,
  });
  const { status } = answer;
  if (status === undefined) return retry(`no answer (${answer.error ?? 'network error'})`);
  // Headers in time but a body that broke off or did not end within 10 s: the request failed.
  if (answer.error !== undefined) return retry(`no complete answer (${answer.error})`);
  if (answer.headersMs !== undefined && answer.headersMs > DELIVERY_HEADERS_TIMEOUT_MS)
    return retry(
      `the headers came after ${(answer.headersMs / 1000).toFixed(1)} s, past the ${DELIVERY_HEADERS_TIMEOUT_MS / 1000} s limit`,
    );
  if (status >= 200 && status < 300)
    return {
      acknowledged: true,
      retried: false,
      pausesEndpoint: false,
      explanation: `${status} acknowledges the delivery: no retry`,
    };
  if (status === 410)
    return {
      acknowledged: false,
      retried: false,
      pausesEndpoint: true,
      explanation: '410 pauses the endpoint: no retries, and no further deliveries until it is enabled again',
    };
  if (status >= 300 && status < 400)
    return retry(`${status} is a redirect, which the gateway does not follow`);
  if (status === 429 || status === 503) {
    const ms = parseRetryAfter(answer.retryAfter, now, answer.date);
    if (ms !== undefined && ms <= DELIVERY_WINDOW_MS)
      return {
        acknowledged: false,
        retried: true,
        pausesEndpoint: false,
        retryAfterMs: ms,
        explanation: `${status} with Retry-After ${answer.retryAfter}: the gateway retries after ${Math.ceil(ms / 1000)} s (honoured inside the ${DELIVERY_WINDOW_MS / HOUR} h window)`,
      };
  }
  return retry(`${status} is not a 2xx`);
}

/** What the gateway makes of a receiver's answer to a verification challenge. */
export interface VerificationVerdict {
  /** The endpoint is verified. */
  verified: boolean;
  /** Why not, when it is not. */
  reason: string | undefined;
}

/**
 * Reads a receiver's answer to a `webhook.endpoint_verification` challenge as the gateway does:
 * it passes only with a 200, whole within 10 s (`error` says when it was not), whose JSON body
 * is `{"challenge": <the value sent>}`. spec: Events 4.
 *
 * @example
 * verificationVerdict({ status: 200, text: '{"challenge":"chl_1"}' }, 'chl_1'); // { verified: true, reason: undefined }
 */
export function verificationVerdict(
  answer: Pick<DeliveryAnswer, 'status' | 'error'> & { text: string },
  challenge: string,
): VerificationVerdict {
  answer = checkAnswer(answer);
  if (typeof challenge !== 'string')
    throw new InvalidOptionError('challenge', challenge, 'the challenge sent, as a string');
  if (typeof answer.text !== 'string')
    throw new InvalidOptionError('answer.text', answer.text, "the answer's body, as a string");
  const refused = (reason: string): VerificationVerdict => ({ verified: false, reason });
  if (answer.error !== undefined) return refused(answer.error);
  if (answer.status !== 200) return refused(`the receiver answered ${answer.status ?? 'nothing'}, not 200`);
  if (echoed(answer.text) !== challenge)
    return refused('the receiver did not answer {"challenge": <the value sent>}');
  return { verified: true, reason: undefined };
}

/**
 * An answer as the verdicts read it: an object whose `status` is an HTTP status or left out.
 *
 * @throws InvalidOptionError naming the field.
 */
function checkAnswer<A extends DeliveryAnswer>(answer: A): A {
  if (answer === null || typeof answer !== 'object')
    throw new InvalidOptionError('answer', answer, 'an object { status, error?, ... }');
  checkCount('answer.status', answer.status, 100, 599);
  for (const field of ['error', 'retryAfter', 'date'] as const) {
    const value = answer[field];
    if (value !== undefined && typeof value !== 'string')
      throw new InvalidOptionError(`answer.${field}`, value, 'text, as received');
  }
  return answer;
}

function echoed(text: string): unknown {
  try {
    return (JSON.parse(text) as { challenge?: unknown } | null)?.challenge;
  } catch {
    return undefined;
  }
}
