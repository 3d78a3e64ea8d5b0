// Covers: src/cli/webhook-events.ts
/** The events `webhooks send` builds. spec: Events 3-4. */
import { describe, expect, test } from 'vitest';
import { parseFault } from '../../src/cli/commands/mock-flags.js';
import { sampleEvent } from '../../src/cli/webhook-events.js';

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
