import { describe, expect, test } from 'vitest';
import { RequestValidationError } from '../../src/core/errors.js';
import {
  parseWebhookCapabilitiesParams,
  parseWebhookEndpointCreateParams,
  parseWebhookEndpointUpdateParams,
  parseWebhookEventListParams,
} from '../../src/schemas/webhook-endpoints.js';

type Parse = (params: unknown) => unknown;

function expectRefused(parse: Parse, operation: string, params: unknown, path: string, fragment: string) {
  try {
    parse(params);
  } catch (error) {
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).message).toContain(`${operation} was not sent`);
    expect((error as RequestValidationError).issues).toEqual([
      { path, message: expect.stringContaining(fragment) },
    ]);
    return;
  }
  throw new Error('expected the request to be refused');
}

describe('webhooks.endpoints.create', () => {
  test.each([
    ['http', 'http://hooks.example.com/in', 'must use https://'],
    ['a relative path', '/hooks/in', 'absolute https:// URL'],
    ['not a URL', 'hooks.example.com', 'absolute https:// URL'],
    ['port 8443', 'https://hooks.example.com:8443/in', 'must use port 443 (got 8443)'],
    ['port 80', 'https://hooks.example.com:80/in', 'must use port 443 (got 80)'],
    ['a user name', 'https://user@hooks.example.com/in', 'must not hold a user name or password'],
    [
      'a user and password',
      'https://user:secret@hooks.example.com/in',
      'must not hold a user name or password',
    ],
    ['a password only', 'https://:secret@hooks.example.com/in', 'must not hold a user name or password'],
    ['wss', 'wss://hooks.example.com/in', 'must use https://'],
  ])('refuses %s', (_, url, fragment) => {
    expectRefused(parseWebhookEndpointCreateParams, 'webhooks.endpoints.create', { url }, 'url', fragment);
  });

  test.each([
    ['no url', {}, 'url', 'is required'],
    ['a numeric url', { url: 443 }, 'url', 'must be an https:// URL'],
    ['an extra field', { url: 'https://h.example.com/', enabled: true }, '', 'only url is accepted'],
  ])('refuses %s', (_, params, path, fragment) => {
    expectRefused(parseWebhookEndpointCreateParams, 'webhooks.endpoints.create', params, path, fragment);
  });

  test.each([
    ['https on the default port', 'https://hooks.example.com/mediagw'],
    ['an explicit :443', 'https://hooks.example.com:443/mediagw'],
    ['a query string', 'https://hooks.example.com/in?source=mediagw'],
    ['upper-case scheme', 'HTTPS://hooks.example.com/in'],
  ])('accepts %s', (_, url) => {
    expect(parseWebhookEndpointCreateParams({ url })).toEqual({ url });
  });
});

describe('webhooks.endpoints.update', () => {
  test.each([
    ['a string "false"', { enabled: 'false' }, 'enabled', 'a JSON boolean'],
    ['1', { enabled: 1 }, 'enabled', 'a JSON boolean'],
    ['no enabled', {}, 'enabled', 'is required'],
    ['a url change', { enabled: true, url: 'https://other.example.com/' }, '', 'the URL is immutable'],
  ])('refuses %s', (_, params, path, fragment) => {
    expectRefused(parseWebhookEndpointUpdateParams, 'webhooks.endpoints.update', params, path, fragment);
  });

  test.each([[{ enabled: true }], [{ enabled: false }]])('accepts %j', (params) => {
    expect(parseWebhookEndpointUpdateParams(params)).toEqual(params);
  });
});

describe('capabilities and events.list queries', () => {
  test.each([
    [
      'capabilities without model',
      parseWebhookCapabilitiesParams,
      'webhooks.capabilities',
      {},
      'model',
      'is required',
    ],
    [
      'capabilities with an empty model',
      parseWebhookCapabilitiesParams,
      'webhooks.capabilities',
      { model: '' },
      'model',
      'must not be empty',
    ],
    [
      'events.list without task_id',
      parseWebhookEventListParams,
      'webhooks.events.list',
      {},
      'task_id',
      'is required',
    ],
    [
      'events.list with an empty task_id',
      parseWebhookEventListParams,
      'webhooks.events.list',
      { task_id: '' },
      'task_id',
      'must not be empty',
    ],
  ] as Array<[string, Parse, string, unknown, string, string]>)(
    'refuses %s',
    (_, parse, operation, params, path, fragment) => {
      expectRefused(parse, operation, params, path, fragment);
    },
  );

  test('valid neighbours pass', () => {
    expect(parseWebhookCapabilitiesParams({ model: 'vidmodel-2.5' })).toEqual({ model: 'vidmodel-2.5' });
    expect(parseWebhookEventListParams({ task_id: 'task_1' })).toEqual({ task_id: 'task_1' });
  });
});
