// Covers: src/schemas/webhook-endpoints/index.ts
import { describe, expect, test } from 'vitest';
import { RequestValidationError } from '../../src/core/errors.js';
import {
  parseWebhookCapabilitiesParams,
  parseWebhookEndpointCreateParams,
  parseWebhookEndpointUpdateParams,
  parseWebhookEventListParams,
} from '../../src/schemas/webhook-endpoints/index.js';

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
    ['IPv4 loopback', 'https://127.0.0.1/in', '127.0.0.1, a loopback address'],
    ['IPv4 loopback written in hex', 'https://0x7f.1/in', '127.0.0.1, a loopback address'],
    ['IPv4 loopback written as one number', 'https://2130706433/in', '127.0.0.1, a loopback address'],
    ['localhost', 'https://localhost/in', 'localhost, a loopback name'],
    ['LOCALHOST with a trailing dot', 'https://LOCALHOST./in', 'a loopback name'],
    ['a *.localhost name', 'https://hooks.localhost/in', 'a loopback name'],
    ['a *.local name', 'https://printer.local/in', 'multicast DNS'],
    ['10/8', 'https://10.0.0.5/in', '10.0.0.5, a private address'],
    ['172.16/12', 'https://172.31.255.1/in', 'a private address'],
    ['192.168/16', 'https://192.168.1.2/in', '192.168.1.2, a private address'],
    ['link-local (cloud metadata)', 'https://169.254.169.254/in', 'a link-local address'],
    ['CGNAT 100.64/10', 'https://100.64.0.1/in', 'carrier-grade NAT'],
    ['0.0.0.0', 'https://0.0.0.0/in', 'unspecified'],
    ['multicast', 'https://224.0.0.1/in', 'multicast'],
    ['IPv6 loopback', 'https://[::1]/in', '[::1], a loopback address'],
    ['IPv6 unspecified', 'https://[::]/in', 'unspecified'],
    ['IPv6 unique local', 'https://[fd12:3456::1]/in', 'unique local'],
    ['IPv6 link-local', 'https://[fe80::1]/in', 'link-local'],
    ['IPv4-mapped loopback', 'https://[::ffff:127.0.0.1]/in', 'a loopback address mapped into IPv6'],
    ['IPv4-mapped private', 'https://[::ffff:10.1.2.3]/in', 'a private address mapped into IPv6'],
    ['on :443 too', 'https://127.0.0.1:443/in', 'must be a public address'],
  ])('refuses a non-public host: %s', (_, url, fragment) => {
    expectRefused(parseWebhookEndpointCreateParams, 'webhooks.endpoints.create', { url }, 'url', fragment);
    expectRefused(
      parseWebhookEndpointCreateParams,
      'webhooks.endpoints.create',
      { url },
      'url',
      'reachable from the internet',
    );
  });

  test.each([
    ['https on the default port', 'https://hooks.example.com/mediagw'],
    ['a public IPv4 literal', 'https://8.8.8.8/in'],
    ['next to the private ranges', 'https://172.32.0.1/in'],
    ['just past CGNAT', 'https://100.128.0.1/in'],
    ['a public IPv6 literal', 'https://[2606:4700::1111]/in'],
    ['an IPv4-mapped public address', 'https://[::ffff:8.8.8.8]/in'],
    ['a name that merely starts with localhost', 'https://localhost.example.com/in'],
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
