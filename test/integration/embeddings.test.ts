// Covers: the client against the mock gateway: embeddings
import { describe, expect, test } from 'vitest';
import { BadRequestError, PermissionDeniedError, RequestValidationError } from '../../src/index.js';
import { cosineSimilarity } from '../../src/resources/embeddings-response.js';
import { testClient } from '../helpers/client.js';
import { mockGatewayClient } from './mock-client.js';

const { gateway, client, agent } = await mockGatewayClient();

const embeddingRequests = () => gateway.requests.filter((r) => r.path === '/v1/embeddings');
const norm = (v: number[]) => Math.sqrt(v.reduce((s, x) => s + x * x, 0));

describe('embeddings.create against the mock gateway', () => {
  test('a single text gives one 1536-number unit vector for text-embedding-3-small', async () => {
    const response = await client.embeddings.create({ model: 'text-embedding-3-small', input: 'a red fox' });
    expect(response.model).toBe('text-embedding-3-small');
    expect(response.dimensions).toBe(1536);
    expect(response.data).toHaveLength(1);
    expect(response.data[0]?.index).toBe(0);
    expect(response.data[0]?.embedding).toHaveLength(1536);
    expect(norm(response.data[0]!.embedding)).toBeCloseTo(1, 6);
    expect(response.usage).toEqual({ prompt_tokens: 3, total_tokens: 3 });
    expect(embeddingRequests().map((r) => r.body)).toEqual([
      { model: 'text-embedding-3-small', input: 'a red fox' },
    ]);
  });

  test('an array input gives one vector per text, in order; bge-m3 has 1024 dimensions', async () => {
    const input = ['first text', 'second text', 'third'];
    const response = await client.embeddings.create({ model: 'bge-m3', input });
    expect(response.dimensions).toBe(1024);
    expect(response.data.map((d) => d.index)).toEqual([0, 1, 2]);
    expect(response.data.every((d) => d.embedding.length === 1024)).toBe(true);
    // Each vector is that text's vector: embedding it alone gives the same numbers.
    const alone = await client.embeddings.create({ model: 'bge-m3', input: 'second text' });
    expect(alone.data[0]?.embedding).toEqual(response.data[1]?.embedding);
  });

  test('dimensions reduces text-embedding-3-small vectors and is sent as given', async () => {
    const response = await client.embeddings.create({
      model: 'text-embedding-3-small',
      input: 'hello',
      dimensions: 512,
    });
    expect(response.dimensions).toBe(512);
    expect(response.data[0]?.embedding).toHaveLength(512);
    expect(norm(response.data[0]!.embedding)).toBeCloseTo(1, 6);
    expect(embeddingRequests()[0]?.body).toMatchObject({ dimensions: 512 });
  });

  test('encoding_format base64 is decoded into the same numbers (float32 precision)', async () => {
    const floats = await client.embeddings.create({ model: 'bge-m3', input: 'same text' });
    const packed = await client.embeddings.create({
      model: 'bge-m3',
      input: 'same text',
      encoding_format: 'base64',
    });
    expect(embeddingRequests()[1]?.body).toMatchObject({ encoding_format: 'base64' });
    const a = floats.data[0]!.embedding;
    const b = packed.data[0]!.embedding;
    expect(b).toHaveLength(1024);
    expect(b.every((x) => typeof x === 'number')).toBe(true);
    expect(b).toEqual(a.map((x) => Math.fround(x)));
  });

  test('vectors are deterministic, and texts sharing words score higher', async () => {
    const input = ['the quick brown fox', 'a quick brown fox jumps', 'tax law of 1999'];
    const first = await client.embeddings.create({ model: 'text-embedding-3-small', input });
    const second = await client.embeddings.create({ model: 'text-embedding-3-small', input });
    expect(second.data).toEqual(first.data);
    const [fox, foxToo, tax] = first.data.map((d) => d.embedding) as [number[], number[], number[]];
    expect(cosineSimilarity(fox, foxToo)).toBeGreaterThan(cosineSimilarity(fox, tax) + 0.3);
  });

  test.each([
    ['an empty string', { model: 'bge-m3', input: '' }, 'input'],
    ['an empty array', { model: 'bge-m3', input: [] }, 'input'],
    ['an empty text in the array', { model: 'bge-m3', input: ['a', ''] }, 'input[1]'],
    ['dimensions with bge-m3', { model: 'bge-m3', input: 'a', dimensions: 512 }, 'dimensions'],
    ['dimensions over 1536', { model: 'text-embedding-3-small', input: 'a', dimensions: 2048 }, 'dimensions'],
    ['messages', { model: 'bge-m3', input: 'a', messages: [] }, 'messages'],
    ['max_tokens', { model: 'bge-m3', input: 'a', max_tokens: 5 }, 'max_tokens'],
    ['stream', { model: 'bge-m3', input: 'a', stream: false }, 'stream'],
    ['an unknown model', { model: 'text-embedding-ada-002', input: 'a' }, 'model'],
  ])('refuses %s before sending anything', async (_, params, path) => {
    const error = await client.embeddings.create(params as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).issues.map((i) => i.path)).toContain(path);
    expect(gateway.requests).toHaveLength(0);
  });

  test('is retried like a GET: a 503 once, then success, in two requests', async () => {
    const retrying = testClient({ gateway, dispatcher: agent, maxRetries: 2 });
    gateway.inject({
      match: { method: 'POST', path: '/v1/embeddings' },
      fault: { status: 503, headers: { 'Retry-After': '0' } },
    });
    const response = await retrying.embeddings.create({ model: 'bge-m3', input: 'retry me' });
    expect(response.data).toHaveLength(1);
    expect(embeddingRequests().map((r) => r.status)).toEqual([503, 200]);
  });

  test('a text over the 8192-token limit is refused by the gateway with 400', async () => {
    const long = Array.from({ length: 8193 }, (_, i) => `w${i}`).join(' ');
    await expect(client.embeddings.create({ model: 'bge-m3', input: ['short', long] })).rejects.toSatisfy(
      (e: unknown) => e instanceof BadRequestError && /input\[1\].*8192/.test(e.message),
    );
  });

  test('a key restricted to other models gets 403', async () => {
    const restricted = testClient({
      apiKey: gateway.account('acct_1').restrictedKey!,
      baseURL: gateway.url,
      dispatcher: agent,
    });
    await expect(restricted.embeddings.create({ model: 'bge-m3', input: 'a' })).rejects.toBeInstanceOf(
      PermissionDeniedError,
    );
  });

  test('embeddings leave no ledger entry', async () => {
    await client.embeddings.create({ model: 'bge-m3', input: 'free' });
    expect(gateway.ledger.entries).toHaveLength(0);
  });
});

describe('embeddings.createBatched against the mock gateway', () => {
  const texts = Array.from({ length: 23 }, (_, i) => `document number ${i}`);

  test('splits into batches, keeps input order and matches single calls', async () => {
    const response = await client.embeddings.createBatched(
      texts,
      { model: 'bge-m3' },
      { batchSize: 5, concurrency: 2 },
    );
    const sent = embeddingRequests().map((r) => (r.body as { input: string[] }).input);
    expect(sent).toHaveLength(5);
    expect(sent.map((batch) => batch.length).sort()).toEqual([3, 5, 5, 5, 5]);
    expect(sent.flat().sort()).toEqual([...texts].sort());
    expect(response.data.map((d) => d.index)).toEqual(texts.map((_, i) => i));
    expect(response.dimensions).toBe(1024);
    const single = await client.embeddings.create({ model: 'bge-m3', input: texts[17]! });
    expect(response.data[17]?.embedding).toEqual(single.data[0]?.embedding);
    expect(response.usage?.total_tokens).toBe(texts.length * 3);
  });

  test('sends nothing when one text is invalid or the options are not positive integers', async () => {
    await expect(client.embeddings.createBatched(['ok', ''], { model: 'bge-m3' })).rejects.toBeInstanceOf(
      RequestValidationError,
    );
    await expect(
      client.embeddings.createBatched(['ok'], { model: 'bge-m3' }, { batchSize: 0 }),
    ).rejects.toBeInstanceOf(RequestValidationError);
    await expect(
      client.embeddings.createBatched(['ok'], { model: 'bge-m3' }, { concurrency: 1.5 }),
    ).rejects.toBeInstanceOf(RequestValidationError);
    expect(gateway.requests).toHaveLength(0);
  });

  test('stops sending batches after one fails', async () => {
    gateway.inject({ match: { method: 'POST', path: '/v1/embeddings' }, fault: { status: 400 } });
    await expect(
      client.embeddings.createBatched(texts, { model: 'bge-m3' }, { batchSize: 5, concurrency: 1 }),
    ).rejects.toBeInstanceOf(BadRequestError);
    expect(embeddingRequests()).toHaveLength(1);
  });
});
