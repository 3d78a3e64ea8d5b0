/**
 * `midjourney.generate` requests (spec: Other asynchronous image family, Webhook management,
 * Limits): the route's own fields are not shown, so they pass through; only `notifications` and
 * `client_reference_id` have rules. Valid requests and one breaker per rule.
 */

import fc from 'fast-check';
import { utf8Length } from '../../../src/schemas/shared/fast-rules.js';
import { clientReferenceId, extraFields, type Fixtures, httpUrl, notifications, prompt } from './common.js';
import { type Body, badValue, type Rule } from './rules.js';

/** Fields the route may take. None is the SDK's business: they reach the gateway as given. */
const routeFields = {
  prompt,
  model: fc.constantFrom('midjourney', 'mj-v7', 'niji-6'),
  // The mock refuses more than 10 images per request, a limit of its own rather than a schema rule.
  n: fc.integer({ min: 1, max: 4 }),
  mode: fc.constantFrom('fast', 'relax', 'turbo'),
  nsfw_check: fc.boolean(),
};

/** Fields of any JSON shape, nested ones included, under names no rule or mock trigger reads. */
const nestedFields = fc.dictionary(fc.stringMatching(/^x_[a-z]{1,8}$/), fc.jsonValue({ maxDepth: 2 }), {
  maxKeys: 2,
});

/** The legacy provider parameters, which pass through when `notifications` is absent. */
const legacyFields = fc.record({ webhook: httpUrl, callback_url: httpUrl }, { requiredKeys: [] });

/** Valid `midjourney.generate` requests. */
export function midjourneyGenerate(fixtures: Fixtures): fc.Arbitrary<Body> {
  return fc
    .record(
      {
        ...routeFields,
        notifications: notifications(fixtures),
        client_reference_id: clientReferenceId,
        legacy: legacyFields,
        extra: extraFields,
        nested: nestedFields,
      },
      { requiredKeys: ['extra', 'nested'] },
    )
    .map(({ extra, nested, legacy, ...fields }) => {
      const body: Body = { ...nested, ...extra, ...fields };
      // spec: Webhook management — legacy `webhook`/`callback_url` only without `notifications`.
      if (legacy && body.notifications === undefined) Object.assign(body, legacy);
      return body;
    });
}

/** Bytes past the limit by the smallest step of each unit, so most have fewer than 128 characters. */
const overLongReference = fc
  .tuple(
    fc.string({ unit: 'grapheme', maxLength: 20 }).filter((s) => utf8Length(s) <= 128),
    fc.constantFrom('a', 'é', '灯', '🌊'),
  )
  .map(([start, unit]) => {
    let out = start;
    while (utf8Length(out) <= 128) out += unit;
    return out;
  });

/** One breaker per rule of `midjourney.generate`. */
export function midjourneyGenerateRules(fixtures: Fixtures): Rule[] {
  const endpoint = fixtures.endpointIds[0] ?? 'whep_x';
  const subscription = (body: Body) =>
    (body.notifications as { webhook: { endpoint_id: string; events: string[] } } | undefined) ?? {
      webhook: { endpoint_id: endpoint, events: ['batch.completed'] },
    };
  // A broken `notifications` next to a legacy field would break the "not combined" rule as well.
  const withNotifications = (body: Body, value: unknown): Body => {
    const { webhook: _webhook, callback_url: _callbackUrl, ...rest } = body;
    return { ...rest, notifications: value };
  };
  const withWebhook = (body: Body, change: (webhook: Body) => unknown): Body =>
    withNotifications(body, { webhook: change({ ...subscription(body).webhook }) });
  const combinedWith = (legacy: 'webhook' | 'callback_url'): Rule => ({
    rule: `notifications is not combined with the legacy ${legacy}`,
    // Present counts, whatever the value.
    bad: fc.oneof(httpUrl, fc.constantFrom(null, false, '', { url: 'https://hooks.example.com/x' })),
    apply: (body, value) => {
      const other = legacy === 'webhook' ? 'callback_url' : 'webhook';
      const { [other]: _other, ...rest } = body;
      return {
        input: { ...rest, notifications: subscription(body), [legacy]: value },
        path: 'notifications',
      };
    },
  });
  return [
    {
      rule: 'the body is an object (its fields pass through, the body itself does not)',
      bad: fc.constantFrom(null, 'a lighthouse --ar 16:9', [], 42),
      apply: (_body, bad) => ({ input: bad, path: '' }),
    },
    {
      rule: 'notifications is an object',
      bad: fc.constantFrom(null, endpoint, [], 1, true),
      apply: (body, bad) => ({ input: withNotifications(body, bad), path: 'notifications' }),
    },
    {
      rule: 'notifications holds webhook and nothing else',
      bad: fc.constantFrom('email', 'url', 'events', 'endpoint_id'),
      apply: (body, key) => ({
        input: withNotifications(body, { ...subscription(body), [key as string]: 'x' }),
        path: 'notifications',
      }),
    },
    {
      rule: 'notifications.webhook is an object',
      bad: fc.constantFrom(undefined, null, 'https://hooks.example.com/a', [], endpoint),
      apply: (body, bad) => ({
        input: withNotifications(body, bad === undefined ? {} : { webhook: bad }),
        path: 'notifications.webhook',
      }),
    },
    {
      rule: 'notifications.webhook holds endpoint_id and events and nothing else',
      bad: fc.constantFrom('url', 'secret', 'enabled'),
      apply: (body, key) => ({
        input: withWebhook(body, (webhook) => ({ ...webhook, [key as string]: 'x' })),
        path: 'notifications.webhook',
      }),
    },
    {
      rule: 'notifications.webhook.endpoint_id is a non-empty string',
      bad: fc.constantFrom(undefined, '', 42, null),
      apply: (body, bad) => ({
        input: withWebhook(body, ({ endpoint_id: _id, ...webhook }) =>
          bad === undefined ? webhook : { ...webhook, endpoint_id: bad },
        ),
        path: 'notifications.webhook.endpoint_id',
      }),
    },
    {
      rule: 'notifications.webhook.events is a list',
      bad: fc.constantFrom(undefined, 'batch.completed', null, { 0: 'task.completed' }),
      apply: (body, bad) => ({
        input: withWebhook(body, ({ events: _events, ...webhook }) =>
          bad === undefined ? webhook : { ...webhook, events: bad },
        ),
        path: 'notifications.webhook.events',
      }),
    },
    {
      rule: 'notifications.webhook.events are task.completed, task.failed or batch.completed',
      bad: fc.constantFrom(
        'task.started',
        'webhook.endpoint_verification',
        'BATCH.COMPLETED',
        'batch.done',
        '',
        7,
      ),
      apply: (body, event) => {
        const events = subscription(body).webhook.events;
        return {
          input: withWebhook(body, (webhook) => ({ ...webhook, events: [...events, event] })),
          path: `notifications.webhook.events[${events.length}]`,
        };
      },
    },
    combinedWith('webhook'),
    combinedWith('callback_url'),
    {
      rule: 'client_reference_id is at most 128 bytes of UTF-8',
      // 'é' is 2 bytes, '灯' 3, '🌊' 4: each of these has fewer than 129 characters.
      bad: fc.oneof(
        fc.constantFrom(
          'a'.repeat(129),
          'é'.repeat(65),
          `${'é'.repeat(64)}a`,
          '灯'.repeat(43),
          '🌊'.repeat(33),
          `${'a'.repeat(127)}🌊`,
        ),
        overLongReference,
      ),
      apply: (body, bad) => ({ input: { ...body, client_reference_id: bad }, path: 'client_reference_id' }),
    },
    badValue('client_reference_id is a string', 'client_reference_id', 42, null, true, ['order-1'], {
      id: 'order-1',
    }),
  ];
}
