// Covers: properties of the answer decoders
import fc from 'fast-check';
import { MockAgent } from 'undici';
import { afterAll, describe, expect, test } from 'vitest';
import { MediaGatewayError } from '../../src/core/errors.js';
import { imageTaskState, toImageTask } from '../../src/resources/image-task.js';
import { toReviewTask } from '../../src/resources/library/types.js';
import { testClient } from '../helpers/client.js';
import { PROPERTY_RUNS, PROPERTY_SEED } from './property-settings.js';

const settings = { seed: PROPERTY_SEED, numRuns: PROPERTY_RUNS };
const STATES = ['pending', 'running', 'succeeded', 'failed'];

// spec: States and transitions — the image task statuses, and keys every plain object inherits.
const IMAGE_STATUSES = [
  'pending',
  'submitted',
  'processing',
  'in_progress',
  'succeeded',
  'success',
  'completed',
  'failed',
  'error',
  'cancelled',
];
const INHERITED_KEYS = ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf', 'isPrototypeOf'];

const anyStatus = fc.oneof(
  fc.constantFrom(...IMAGE_STATUSES),
  fc.constantFrom(...IMAGE_STATUSES).map((s) => s.toUpperCase()),
  fc.constantFrom(...INHERITED_KEYS),
  fc.string(),
  fc.jsonValue(),
);

/** Image task answers as the spec describes them, any optional field left out, any field replaced. */
const imageTaskAnswer = fc.oneof(
  fc.record(
    {
      code: fc.oneof(fc.constant(200), fc.jsonValue()),
      data: fc.record(
        {
          status: anyStatus,
          result: fc.oneof(
            fc.record(
              {
                images: fc.oneof(
                  fc.array(
                    fc.oneof(
                      fc.webUrl(),
                      fc.record({ url: fc.oneof(fc.webUrl(), fc.jsonValue()) }),
                      fc.jsonValue(),
                    ),
                  ),
                  fc.jsonValue(),
                ),
              },
              { requiredKeys: [] },
            ),
            fc.jsonValue(),
          ),
          error: fc.oneof(
            fc.record({ code: fc.jsonValue(), message: fc.jsonValue() }, { requiredKeys: [] }),
            fc.jsonValue(),
          ),
          fail_reason: fc.jsonValue(),
        },
        { requiredKeys: [] },
      ),
    },
    { requiredKeys: [] },
  ),
  fc.jsonValue(),
);

/** Review task answers: the spec's `{code, data}` wrapper with any optional field left out, or any JSON. */
const asset = fc.oneof(
  fc.record(
    {
      id: fc.jsonValue(),
      asset_id: fc.jsonValue(),
      asset_url: fc.oneof(fc.constant('asset://a_1'), fc.jsonValue()),
      status: fc.jsonValue(),
    },
    { requiredKeys: [] },
  ),
  fc.jsonValue(),
);
const reviewTaskAnswer = fc.oneof(
  fc.record(
    {
      code: fc.constant(200),
      data: fc.record(
        {
          id: fc.string(),
          object: fc.constant('vidmodel.avatar.asset.task'),
          status: fc.oneof(fc.constantFrom('processing', 'completed', 'failed'), fc.jsonValue()),
          progress: fc.oneof(fc.integer({ min: 0, max: 100 }), fc.jsonValue()),
          group_id: fc.jsonValue(),
          result: fc.oneof(
            fc.record(
              {
                assets: fc.array(asset),
                usable_assets: fc.oneof(fc.array(asset), fc.jsonValue()),
                failed_assets: fc.array(asset),
              },
              { requiredKeys: [] },
            ),
            fc.jsonValue(),
          ),
          error: fc.jsonValue(),
        },
        { requiredKeys: [] },
      ),
    },
    { requiredKeys: [] },
  ),
  fc.jsonValue(),
);

/** Answers parsed from JSON text, as the transport hands them over. */
const parsed = (arb: fc.Arbitrary<unknown>) =>
  arb.map((value) => JSON.parse(JSON.stringify(value) ?? 'null'));

describe('status normalization never throws, and always gives a known state', () => {
  test(`toImageTask: ${PROPERTY_RUNS} image task answers`, () => {
    fc.assert(
      fc.property(parsed(imageTaskAnswer), (raw) => {
        const task = toImageTask('task_1', raw);
        expect(STATES).toContain(task.state);
        expect(typeof task.status).toBe('string');
        for (const image of task.images)
          expect(typeof image.url === 'string' && image.url.length > 0).toBe(true);
        if (task.state !== 'failed') expect(task.error).toBeUndefined();
      }),
      settings,
    );
  });

  test('imageTaskState maps every status of the spec, in any case, and nothing else to a terminal state', () => {
    fc.assert(
      fc.property(anyStatus, (status) => {
        const state = imageTaskState(status);
        expect(STATES).toContain(state);
        const known = typeof status === 'string' && IMAGE_STATUSES.includes(status.toLowerCase());
        if (!known) expect(state).toBe('running');
      }),
      settings,
    );
  });

  test(`toReviewTask: ${PROPERTY_RUNS} review task answers`, () => {
    fc.assert(
      fc.property(parsed(reviewTaskAnswer), (raw) => {
        const task = toReviewTask(raw);
        expect(Array.isArray(task.usable_assets)).toBe(true);
        for (const ref of task.usable_assets) expect(ref).toMatch(/^asset:\/\/\S/);
      }),
      settings,
    );
  });
});

/** A client whose every request is answered by `answer()`, through an undici MockAgent (no sockets). */
function clientAnswering(answer: () => unknown) {
  const agent = new MockAgent();
  agent.disableNetConnect();
  agent
    .get('https://gw.example')
    .intercept({ path: () => true, method: 'GET' })
    .reply(200, () => JSON.stringify(answer()) ?? 'null', { headers: { 'content-type': 'application/json' } })
    .persist();
  const client = testClient({ apiKey: 'mgw_test', baseURL: 'https://gw.example', dispatcher: agent });
  return { client, agent };
}

const videoTaskAnswer = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record(
      {
        id: fc.string(),
        object: fc.constant('video'),
        model: fc.string(),
        status: fc.oneof(
          fc.constantFrom('queued', 'in_progress', 'completed', 'failed'),
          fc.constantFrom(...INHERITED_KEYS),
          fc.jsonValue(),
        ),
        progress: fc.oneof(fc.constant('100%'), fc.jsonValue()),
        url: fc.webUrl(),
        usage: fc.oneof(fc.record({ completion_tokens: fc.integer() }, { requiredKeys: [] }), fc.jsonValue()),
        actual_time: fc.integer(),
        last_frame_url: fc.webUrl(),
        error: fc.oneof(
          fc.record({ code: fc.jsonValue(), message: fc.jsonValue() }, { requiredKeys: [] }),
          fc.jsonValue(),
        ),
      },
      { requiredKeys: [] },
    ),
  },
  { weight: 1, arbitrary: fc.jsonValue() },
);

describe('waiting on a task never fails with anything but the SDK errors, whatever the gateway answers', () => {
  let current: unknown;
  const { client, agent } = clientAnswering(() => current);
  afterAll(() => agent.close());

  // One poll per answer: onProgress ends a wait the answer leaves pending, as the deadline did
  // when it was only checked between polls. Terminal answers end the wait on their own.
  const once = () => {
    const stop = new AbortController();
    return { interval: 1, signal: stop.signal, onProgress: () => stop.abort() };
  };
  const outcomes = [
    ['videos.waitForTask', videoTaskAnswer, () => client.videos.waitForTask('cgt-1', once())],
    [
      'images.waitForTask',
      imageTaskAnswer,
      () => client.images.waitForTask('task_1', { model: 'imgmodel-2', ...once() }),
    ],
    [
      'library.reviewTasks.waitForTask',
      reviewTaskAnswer,
      () => client.library.reviewTasks.waitForTask('rt_1', once()),
    ],
  ] as const;

  test.each(outcomes)(`%s: ${PROPERTY_RUNS} answers`, async (_name, answers, wait) => {
    await fc.assert(
      fc.asyncProperty(answers as fc.Arbitrary<unknown>, async (answer) => {
        current = answer;
        try {
          await wait();
        } catch (error) {
          expect(error, String(error)).toBeInstanceOf(MediaGatewayError);
        }
      }),
      settings,
    );
  });
});
