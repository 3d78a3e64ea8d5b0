// Covers: the client against the mock gateway: request IDs
import { describe, expect, test } from 'vitest';
import { pngImage } from '../../src/testing/index.js';
import { apiRequests } from './images-helpers.js';
import { mockGatewayClient } from './mock-client.js';

const { gateway, client } = await mockGatewayClient();

interface Row {
  name: string;
  method: string;
  path: string | RegExp;
  run: () => Promise<{ _requestId?: string | undefined }>;
}

const ROWS: Row[] = [
  {
    name: 'images.generateAsync (TaskSubmission)',
    method: 'POST',
    path: '/v1/images/generations/async',
    run: () => client.images.generateAsync({ model: 'imgmodel-2', prompt: 'a fox' }),
  },
  {
    name: 'images.editAsync (TaskSubmission)',
    method: 'POST',
    path: '/v1/images/edits/async',
    run: () => client.images.editAsync({ model: 'imgmodel-2', prompt: 'add snow', image: pngImage() }),
  },
  {
    name: 'videos.create (TaskSubmission)',
    method: 'POST',
    path: '/v1/videos/generations',
    run: () => client.videos.create({ model: 'vidmodel-2.5', prompt: 'a lantern' }),
  },
  {
    // The submission answers first with its own ID: the task must carry the query's, not that one.
    name: 'images.getTask (ImageTask)',
    method: 'GET',
    path: /^\/v1\/tasks\//,
    run: async () => {
      const { task_id } = await client.images.generateAsync({ model: 'imgmodel-2', prompt: 'an owl' });
      return client.images.getTask(task_id, { model: 'imgmodel-2' });
    },
  },
  {
    name: 'embeddings.create (EmbeddingsResponse)',
    method: 'POST',
    path: '/v1/embeddings',
    run: () => client.embeddings.create({ model: 'bge-m3', input: 'a red fox' }),
  },
];

describe('_requestId: the X-Service-Request-Id of the answer, kept out of the data', () => {
  test.each(ROWS)('$name', async ({ method, path, run }) => {
    const result = await run();
    const answered = apiRequests(gateway, method, path);
    expect(answered).toHaveLength(1);
    const id = answered[0]!.id;
    // The mock's IDs are req_<n>; a bare undefined on both sides must not pass.
    expect(id).toMatch(/^req_\d+$/);
    expect(result._requestId).toBe(id);
    // Other requests of the row got other IDs: the result's is this answer's, not a neighbour's.
    for (const other of gateway.requests) if (other !== answered[0]) expect(other.id).not.toBe(id);

    expect(Object.getOwnPropertyDescriptor(result, '_requestId')?.enumerable).toBe(false);
    expect(Object.keys(result)).not.toContain('_requestId');
    expect({ ...result }).not.toHaveProperty('_requestId');
    const json = JSON.stringify(result);
    expect(json).not.toContain('_requestId');
    expect(json).not.toContain(`"${id}"`);
  });
});
