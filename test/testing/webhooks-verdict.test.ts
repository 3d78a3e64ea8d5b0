// Covers: src/testing/state/webhooks/verdict.ts
/** What the gateway makes of a receiver's answer: the mock's deliveries and `webhooks send` read it here. spec: Events 5 and 7. */
import { describe, expect, test } from 'vitest';
import { InvalidOptionError } from '../../src/index.js';
import { deliveryVerdict, verificationVerdict } from '../../src/testing/index.js';
import { optionRefusal } from '../helpers/rejection.js';

describe('deliveryVerdict', () => {
  test.each([
    [{ status: 200 }, { acknowledged: true, retried: false, pausesEndpoint: false }],
    [{ status: 204 }, { acknowledged: true, retried: false }],
    [{ status: 410 }, { acknowledged: false, retried: false, pausesEndpoint: true }],
    [{ status: 301 }, { acknowledged: false, retried: true }],
    [{ status: 400 }, { acknowledged: false, retried: true }],
    [{ status: 500 }, { acknowledged: false, retried: true }],
    [
      { status: undefined, error: 'ECONNREFUSED' },
      { acknowledged: false, retried: true },
    ],
    // A 2xx whose headers came after 8 s is a timeout to the gateway.
    [
      { status: 200, headersMs: 8_500 },
      { acknowledged: false, retried: true },
    ],
  ])('%j -> %j', (answer, verdict) => {
    expect(deliveryVerdict(answer)).toMatchObject(verdict);
  });

  test('Retry-After on 429 or 503 is honoured inside the 72-hour window, as seconds or a date', () => {
    expect(deliveryVerdict({ status: 429, retryAfter: '30' }).explanation).toContain('retries after 30 s');
    const inAMinute = new Date(Date.now() + 60_000).toUTCString();
    expect(deliveryVerdict({ status: 503, retryAfter: inAMinute }).explanation).toMatch(
      /retries after (59|60) s/,
    );
    // A date is counted from the answer's Date: a receiver's clock off by minutes changes nothing.
    const date = Date.parse('Fri, 27 Nov 2026 10:00:00 GMT');
    for (const skew of [-300_000, 300_000, 3_600_000]) {
      const answer = {
        status: 503,
        date: new Date(date + skew).toUTCString(),
        retryAfter: new Date(date + skew + 90_000).toUTCString(),
      };
      expect(deliveryVerdict(answer).explanation).toContain('retries after 90 s');
    }
    // An unreadable Date is left aside: the date is counted from this clock.
    expect(deliveryVerdict({ status: 503, retryAfter: inAMinute, date: '5' }).explanation).toMatch(
      /retries after (59|60) s/,
    );
    // Past the window, or on another status, the schedule applies.
    expect(deliveryVerdict({ status: 503, retryAfter: String(73 * 3600) }).explanation).toContain('1 minute');
    expect(deliveryVerdict({ status: 500, retryAfter: '30' }).explanation).toContain('1 minute');
    expect(deliveryVerdict({ status: 429, retryAfter: 'soon' }).explanation).toContain('1 minute');
  });

  test('the schedule is said as the spec says it, from the numbers the mock retries by', () => {
    expect(deliveryVerdict({ status: 500 }).explanation).toBe(
      '500 is not a 2xx: the gateway retries (the first retry comes after about 1 minute, then 2, 5, 15, 30 min, ' +
        '1, 2, 4, 8 h and every 12 h, for up to 72 h)',
    );
    expect(deliveryVerdict({ status: 200, headersMs: 8_001 }).explanation).toMatch(
      /^the headers came after 8\.0 s, past the 8 s limit/,
    );
    expect(deliveryVerdict({ status: 200, headersMs: 8_000 }).acknowledged).toBe(true);
  });

  test('retryAfterMs is the wait honoured, in ms, and is left out where the schedule applies', () => {
    expect(deliveryVerdict({ status: 429, retryAfter: '30' }).retryAfterMs).toBe(30_000);
    // Read as the SDK reads a gateway's Retry-After: a fraction of a second is kept.
    expect(deliveryVerdict({ status: 503, retryAfter: '1.5' })).toMatchObject({
      retryAfterMs: 1_500,
      explanation: expect.stringContaining('retries after 2 s'),
    });
    const date = 'Fri, 27 Nov 2026 10:00:00 GMT';
    const at = (s: number) => new Date(Date.parse(date) + s * 1000).toUTCString();
    expect(deliveryVerdict({ status: 503, retryAfter: at(45), date }).retryAfterMs).toBe(45_000);
    // A date in the past asks for no wait at all.
    expect(deliveryVerdict({ status: 503, retryAfter: at(-45), date }).retryAfterMs).toBe(0);
    // Counted from `now` when the answer has no Date.
    expect(deliveryVerdict({ status: 429, retryAfter: at(10) }, Date.parse(date)).retryAfterMs).toBe(10_000);
    for (const answer of [
      { status: 500, retryAfter: '30' },
      { status: 429, retryAfter: 'soon' },
      { status: 429, retryAfter: '-5' },
      { status: 429 },
      { status: 503, retryAfter: String(72 * 3600 + 1) },
      { status: 200, retryAfter: '30' },
    ])
      expect(deliveryVerdict(answer).retryAfterMs).toBeUndefined();
    expect(deliveryVerdict({ status: 503, retryAfter: String(72 * 3600) }).retryAfterMs).toBe(72 * 3600_000);
  });
});

describe('verificationVerdict', () => {
  const challenge = 'chl_0123456789abcdef';
  test.each([
    [
      { status: 200, text: JSON.stringify({ challenge }) },
      { verified: true, reason: undefined },
    ],
    // The echo is read in the first 64 KiB, padding and all.
    [{ status: 200, text: JSON.stringify({ challenge, padding: 'x'.repeat(4096) }) }, { verified: true }],
    [
      { status: 201, text: JSON.stringify({ challenge }) },
      { verified: false, reason: 'the receiver answered 201, not 200' },
    ],
    [
      { status: undefined, error: 'no answer within 10 s', text: '' },
      { verified: false, reason: 'no answer within 10 s' },
    ],
    [
      {
        status: 200,
        error: "the answer's body had not ended after 10 s (9 bytes read)",
        text: `{"challenge":"${challenge}"`,
      },
      { verified: false, reason: "the answer's body had not ended after 10 s (9 bytes read)" },
    ],
    [{ status: 200, text: JSON.stringify({ challenge: 'chl_other' }) }, { verified: false }],
    [{ status: 200, text: challenge }, { verified: false }],
    [{ status: 200, text: 'null' }, { verified: false }],
  ])('%j -> %j', (answer, verdict) => {
    expect(verificationVerdict(answer, challenge)).toMatchObject(verdict);
  });
});

describe('what the verdicts refuse', () => {
  test.each<[string, () => unknown]>([
    ['answer', () => deliveryVerdict(null as never)],
    ['answer.status', () => deliveryVerdict({ status: 99 })],
    ['answer.status', () => deliveryVerdict({ status: 600 })],
    ['answer.status', () => deliveryVerdict({ status: 200.5 })],
    ['now', () => deliveryVerdict({ status: 503 }, Number.NaN)],
    ['now', () => deliveryVerdict({ status: 503 }, -1)],
    ['answer', () => verificationVerdict('200' as never, 'chl_1')],
    ['answer.text', () => verificationVerdict({ status: 200 } as never, 'chl_1')],
    ['challenge', () => verificationVerdict({ status: 200, text: '{}' }, 7 as never)],
    ['answer.retryAfter', () => deliveryVerdict({ status: 503, retryAfter: 30 as never })],
    ['answer.date', () => deliveryVerdict({ status: 503, retryAfter: '30', date: 0 as never })],
    ['answer.error', () => deliveryVerdict({ error: new Error('x') as never })],
  ])('%s', (option, check) => {
    expect(optionRefusal(check).option).toBe(option);
  });

  test('takes both ends of each range', () => {
    expect(deliveryVerdict({ status: 100 }).retried).toBe(true);
    expect(deliveryVerdict({ status: 599 }).retried).toBe(true);
    expect(deliveryVerdict({ status: 503, retryAfter: '1' }, 0).retryAfterMs).toBe(1_000);
    expect(verificationVerdict({ status: 200, text: '' }, '').verified).toBe(false);
    expect(optionRefusal(() => deliveryVerdict({ status: 99 }))).toBeInstanceOf(InvalidOptionError);
  });
});
