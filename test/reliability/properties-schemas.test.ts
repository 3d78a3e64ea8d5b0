// Covers: properties of the request schemas
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { RequestValidationError } from '../../src/core/errors.js';
import { mutations } from './arbitraries/rules.js';
import { PROPERTY_RUNS, PROPERTY_SEED, WIRE_SAMPLE } from './property-settings.js';
import { type Rig, SUITES, startRig } from './schema-suites.js';

let rig: Rig;

beforeAll(async () => {
  rig = await startRig();
});
afterAll(async () => {
  await rig?.gateway.close();
});

const settings = { seed: PROPERTY_SEED, numRuns: PROPERTY_RUNS };

describe.each(SUITES.map((suite) => [suite.name, suite] as const))('%s', (_name, suite) => {
  test(`${PROPERTY_RUNS} valid requests pass client validation, unchanged`, async () => {
    await fc.assert(
      fc.asyncProperty(suite.valid(rig.fixtures), async (request) => {
        const parsed = (await suite.validate(request)) as Record<string, unknown>;
        // Nothing is added or dropped: the SDK sends exactly what the caller set.
        expect(Object.keys(parsed).sort()).toEqual(Object.keys(request).sort());
      }),
      settings,
    );
  });

  test(`${WIRE_SAMPLE} valid requests are accepted by the mock gateway`, async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(suite.valid(rig.fixtures), async (request) => {
        const answer = await suite.send(rig, request, run++);
        expect(answer).toBeTypeOf('object');
      }),
      // Sending changes the mock's state, so a failure is reported as found, without shrinking.
      { ...settings, numRuns: WIRE_SAMPLE, endOnFailure: true },
    );
  });

  test(`${PROPERTY_RUNS} requests with one rule broken are refused, at that rule's path, and nothing is sent`, async () => {
    const rules = suite.rules(rig.fixtures);
    const broken = new Set<string>();
    // The newest request's ID, not the log's length: the log keeps only the newest requests.
    const lastBefore = rig.gateway.requests.at(-1)?.id;
    await fc.assert(
      fc.asyncProperty(mutations(suite.valid(rig.fixtures), rules), async (mutation) => {
        broken.add(mutation.rule);
        let error: unknown;
        try {
          await suite.send(rig, mutation.input, 0);
        } catch (caught) {
          error = caught;
        }
        expect(error, mutation.rule).toBeInstanceOf(RequestValidationError);
        const paths = (error as RequestValidationError).issues.map((issue) => issue.path);
        expect([...new Set(paths)], mutation.rule).toEqual([mutation.path]);
      }),
      settings,
    );
    expect(rig.gateway.requests.at(-1)?.id, 'requests sent by refused calls').toBe(lastBefore);
    // Every rule was broken at least once.
    expect([...broken].sort()).toEqual(rules.map((rule) => rule.rule).sort());
  });
});
