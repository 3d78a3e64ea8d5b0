import { required } from '../shared/fast-rules.js';
import { notPublicReason } from '../shared/public-address.js';
import { parseParams } from '../shared/validate.js';
import { z } from '../shared/zod.js';

/** `POST /v1/webhook-endpoints`. */
export interface WebhookEndpointCreateParams {
  /**
   * `url`: where signed events are delivered. `https://` on port 443 (an explicit `:443` is fine),
   * a public address (not `localhost` nor a loopback, private, shared or link-local IP literal,
   * IPv4 or IPv6), no user name or password in the URL; the gateway follows no redirects and
   * the URL cannot be changed later.
   */
  url: string;
}

/** `PATCH /v1/webhook-endpoints/{id}`: pause (`false`) or resume (`true`). */
export interface WebhookEndpointUpdateParams {
  /** `enabled`: a JSON boolean. */
  enabled: boolean;
}

/** `GET /v1/webhook-capabilities?model=`. */
export interface WebhookCapabilitiesParams {
  /** `model`: the model ID whose event eligibility is asked. */
  model: string;
}

/** `GET /v1/webhook-events?task_id=`. */
export interface WebhookEventListParams {
  /** `task_id`: the public task ID whose events are listed. */
  task_id: string;
}

/** spec: Limits — webhook endpoints are "HTTPS, port 443, public address, no redirects". */
export const webhookEndpointURL = z
  .string({ error: required('an https:// URL on port 443') })
  .superRefine((value, ctx) => {
    const refuse = (message: string) => ctx.addIssue({ code: 'custom', message });
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      refuse('must be an absolute https:// URL');
      return;
    }
    if (url.protocol !== 'https:') {
      refuse(`must use https:// (got ${url.protocol}//): webhook endpoints must be HTTPS`);
      return;
    }
    // The URL parser drops a default port, so an explicit ":443" leaves `port` empty.
    if (url.port !== '') refuse(`must use port 443 (got ${url.port}): webhook endpoints must listen on 443`);
    if (url.username !== '' || url.password !== '') {
      refuse('must not hold a user name or password: the gateway authenticates deliveries by signature');
    }
    const notPublic = notPublicReason(url.hostname);
    if (notPublic !== undefined) {
      refuse(
        `must be a public address (got ${url.hostname}, ${notPublic}): the gateway delivers only to ` +
          'hosts reachable from the internet; expose a local receiver through a public tunnel or proxy',
      );
    }
  });

/** `webhooks.endpoints.create` body. */
export const webhookEndpointCreateSchema = z.strictObject(
  { url: webhookEndpointURL },
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `only url is accepted (unexpected: ${issue.keys.join(', ')})`
        : 'must be an object { url }',
  },
);

/** `webhooks.endpoints.update` body: exactly `{ enabled: boolean }`. */
export const webhookEndpointUpdateSchema = z.strictObject(
  {
    enabled: z.boolean({
      error:
        'is required: a JSON boolean (true resumes, false pauses); strings such as "false" are not accepted',
    }),
  },
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `only enabled can be changed (unexpected: ${issue.keys.join(', ')}); the URL is immutable`
        : 'must be an object { enabled }',
  },
);

/** `webhooks.capabilities` query. */
export const webhookCapabilitiesSchema = z.looseObject({
  model: z.string({ error: required('a model ID string') }).min(1, 'must not be empty'),
});

/** `webhooks.events.list` query. */
export const webhookEventListSchema = z.looseObject({
  task_id: z.string({ error: required('a task ID string') }).min(1, 'must not be empty'),
});

/**
 * Checks a `webhooks.endpoints.create` request. @throws RequestValidationError naming each broken rule.
 * @example parseWebhookEndpointCreateParams({ url: 'https://hooks.example.com/mediagw' })
 */
export function parseWebhookEndpointCreateParams(params: unknown): WebhookEndpointCreateParams {
  return parseParams(webhookEndpointCreateSchema, params, 'webhooks.endpoints.create');
}

/** Checks a `webhooks.endpoints.update` request. @throws RequestValidationError naming each broken rule. */
export function parseWebhookEndpointUpdateParams(params: unknown): WebhookEndpointUpdateParams {
  return parseParams(webhookEndpointUpdateSchema, params, 'webhooks.endpoints.update');
}

/** Checks a `webhooks.capabilities` query. @throws RequestValidationError naming each broken rule. */
export function parseWebhookCapabilitiesParams(params: unknown): WebhookCapabilitiesParams {
  return parseParams(webhookCapabilitiesSchema, params, 'webhooks.capabilities');
}

/** Checks a `webhooks.events.list` query. @throws RequestValidationError naming each broken rule. */
export function parseWebhookEventListParams(params: unknown): WebhookEventListParams {
  return parseParams(webhookEventListSchema, params, 'webhooks.events.list');
}
