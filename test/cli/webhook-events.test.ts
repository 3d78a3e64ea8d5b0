// Covers: src/cli/webhook-events.ts
/** The rules `webhooks send` applies to an answer, and the events it builds. spec: Events 5 and 7. */
import { describe, expect, test } from 'vitest';
import { parseFault } from '../../src/cli/commands/mock-flags.js';
import { deliveryVerdict, sampleEvent } from '../../src/cli/webhook-events.js';

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
});

describe('sampleEvent', () => {
  test('a failed image task event has the envelope fields, a task URL with the model, and no result', () => {
    const event = sampleEvent({
      type: 'task.failed',
      kind: 'image',
      model: 'imgmodel-2.5-flare',
      baseUrl: 'https://gw.example/',
    });
    expect(event).toMatchObject({
      id: expect.stringMatching(/^evt_/),
      type: 'task.failed',
      api_version: '2026-10-03',
      data: {
        kind: 'image',
        model: 'imgmodel-2.5-flare',
        status: 'failed',
        result: null,
        error: { code: 'generation_failed' },
      },
    });
    expect((event.data as { task_url: string }).task_url).toMatch(
      /^https:\/\/gw\.example\/v1\/tasks\/task_\w+\?model=imgmodel-2\.5-flare$/,
    );
  });

  test('an unknown type or kind is a usage error', () => {
    expect(() => sampleEvent({ type: 'task.started' })).toThrow(/--type must be one of/);
    expect(() => sampleEvent({ kind: 'audio' })).toThrow(/--kind must be one of/);
  });
});

describe('parseFault (mock --fault)', () => {
  test.each([
    ['503', { fault: { status: 503 } }],
    ['503:/v1/videos/generations', { fault: { status: 503 }, match: { path: '/v1/videos/generations' } }],
    [
      'reset:/v1/imagesx2',
      { fault: { reset: 'after-body', runHandler: true }, match: { path: '/v1/images' }, times: 2 },
    ],
    ['500:/v1/x-files/indexx3', { fault: { status: 500 }, match: { path: '/v1/x-files/index' }, times: 3 }],
    ['hangxinf', { fault: { hang: true }, times: Number.POSITIVE_INFINITY }],
    ['delay=250', { fault: { delayMs: 250 } }],
    ['{"fault":{"malformedJson":true},"times":3}', { fault: { malformedJson: true }, times: 3 }],
  ])('%s', (spec, init) => {
    expect(parseFault(spec)).toEqual(init);
  });

  test.each(['teapot', '{"fault":', 'delay=soon'])('%s is refused', (spec) => {
    expect(() => parseFault(spec)).toThrow(/--fault/);
  });
});
