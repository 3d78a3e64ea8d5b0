// Covers: the client against the mock gateway: body headers
import { describe, expect, test } from 'vitest';
import { pngImage } from '../../src/testing/index.js';
import { testClient } from '../helpers/client.js';
import { apiRequests } from './images-helpers.js';
import { mockGatewayClient } from './mock-client.js';

const { gateway, client, agent } = await mockGatewayClient();

// The SDK builds every body it sends and alone says what it is: a caller's content-type or
// content-length, per call or as a default header, is ignored.
describe('content-type and content-length of a caller', () => {
  const theirs = { 'Content-Type': 'text/plain' };

  test('a multipart upload keeps its boundary, and the gateway reads the file', async () => {
    const bytes = pngImage({ seed: 3 });
    const uploaded = await client.uploads.image(bytes, { headers: theirs });
    expect(uploaded.bytes).toBe(bytes.length);
    const [sent] = apiRequests(gateway, 'POST', '/v1/uploads/images');
    expect(sent?.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(sent?.parts?.[0]?.size).toBe(bytes.length);
  });

  test('a JSON call goes out as JSON, from a per-call header or a default one', async () => {
    const withDefaults = testClient({ gateway, dispatcher: agent, defaultHeaders: theirs, maxRetries: 2 });
    const input = { model: 'text-embedding-3-small', input: 'a red fox' } as const;
    await client.embeddings.create(input, { headers: theirs });
    await withDefaults.embeddings.create(input);
    const sent = apiRequests(gateway, 'POST', '/v1/embeddings');
    expect(sent).toHaveLength(2);
    for (const request of sent) {
      expect(request.headers['content-type']).toBe('application/json');
      expect(request.body).toEqual(input);
      expect(request.status).toBe(200);
    }
  });

  test('a content-length of the caller does not cut the body short', async () => {
    const input = { model: 'text-embedding-3-small', input: 'a red fox' } as const;
    await client.embeddings.create(input, { headers: { 'Content-Length': '3' } });
    const [sent] = apiRequests(gateway, 'POST', '/v1/embeddings');
    expect(sent?.body).toEqual(input);
  });

  test('a request without a body carries neither header', async () => {
    await client.webhooks.capabilities(
      { model: 'vidmodel-2.5' },
      { headers: { ...theirs, 'content-length': '3' } },
    );
    const [sent] = gateway.requests.filter((r) => r.origin === 'api');
    expect(sent?.method).toBe('GET');
    expect(sent?.headers['content-type']).toBeUndefined();
    expect(sent?.headers['content-length']).toBeUndefined();
  });
});
