// Covers: src/testing/routes/index.ts
// Rules where the mock follows the gateway: review tasks send no task events; a JSON body needs a
// JSON content type; library intake holds detected lengths to the spec's limits.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startRig, type WebhookRig } from '../integration/webhooks-setup.js';
import { api, createAgent } from './helpers.js';

let rig: WebhookRig;
const agent = createAgent();

beforeAll(async () => {
  rig = await startRig();
});
afterAll(async () => {
  await rig.close();
  await agent.close();
});

const ASSETS = '/v1/vidmodel2/private-avatar/assets';
const key = () => rig.gateway.apiKey;

describe('spec: Events 1 — library review produces no task events', () => {
  test('a catch-all endpoint gets the video task event, and none for a review batch', async () => {
    rig.webhooks.configure({ catchAllEndpoints: [rig.endpointId] });
    try {
      const review = await api(agent, rig.gateway, 'POST', ASSETS, {
        key: key(),
        body: { asset_type: 'Image', assets: [{ url: 'https://example.com/face.png' }] },
      });
      expect(review.status).toBe(200);
      const reviewId = (review.json() as { data: { id: string } }).data.id;
      const video = rig.gateway.tasks.create({ account: 'acct_1', kind: 'video', model: 'vidmodel-2.5' });
      rig.gateway.tasks.finishNow(reviewId);
      rig.gateway.tasks.finishNow(video.id);
      await rig.webhooks.flush();

      expect(rig.webhooks.events({ taskId: reviewId })).toEqual([]);
      const delivered = rig.webhooks.events({ taskId: video.id });
      expect(delivered.map((e) => e.status)).toEqual(['delivered']);
      expect(rig.receiver.events.map((e) => e.id)).toContain(delivered[0]?.id);
      expect(rig.receiver.requests.filter((r) => r.body.includes(reviewId))).toEqual([]);
    } finally {
      rig.webhooks.configure({ catchAllEndpoints: [] });
    }
  });
});

describe('spec: Endpoints — JSON bodies use Content-Type: application/json', () => {
  const video = { model: 'vidmodel-2.5', prompt: 'a heron in the reeds' };

  test.each([
    ['text/plain', 'Content-Type text/plain'],
    ['application/x-www-form-urlencoded', 'Content-Type application/x-www-form-urlencoded'],
    [undefined, 'no Content-Type'],
  ])('a JSON video request sent as %s is refused with 400 and creates no task', async (type, named) => {
    const tasks = rig.gateway.tasks.list().length;
    const entries = rig.gateway.ledger.entriesOf('acct_1').length;
    const answer = await api(agent, rig.gateway, 'POST', '/v1/videos/generations', {
      key: key(),
      body: JSON.stringify(video),
      headers: type === undefined ? {} : { 'content-type': type },
    });
    expect(answer.status).toBe(400);
    expect(answer.text).toContain(`Content-Type: application/json, not ${named}`);
    expect(rig.gateway.tasks.list()).toHaveLength(tasks);
    expect(rig.gateway.ledger.entriesOf('acct_1')).toHaveLength(entries);
  });

  test('an image generation sent as text/plain is refused too', async () => {
    const answer = await api(agent, rig.gateway, 'POST', '/v1/images/generations', {
      key: key(),
      body: JSON.stringify({ model: 'imgmodel-1', prompt: 'a fern' }),
      headers: { 'content-type': 'text/plain' },
    });
    expect(answer.status).toBe(400);
    expect(answer.text).toContain('not Content-Type text/plain');
  });

  test.each(['application/json', 'application/json; charset=utf-8', 'Application/JSON'])(
    'the same request sent as %s creates a task',
    async (type) => {
      const answer = await api(agent, rig.gateway, 'POST', '/v1/videos/generations', {
        key: key(),
        body: JSON.stringify(video),
        headers: { 'content-type': type },
      });
      expect(answer.status).toBe(200);
      expect(answer.text).toContain(rig.gateway.tasks.list().at(-1)?.id);
    },
  );
});

describe('spec: Media library — intake lengths (mock_seconds in the URL)', () => {
  const url = (seconds: number, ext: string) => `https://example.com/clip.${ext}?mock_seconds=${seconds}`;
  const submit = (assetType: string, seconds: number, model?: string) =>
    api(agent, rig.gateway, 'POST', ASSETS, {
      key: key(),
      body: {
        asset_type: assetType,
        assets: [{ url: url(seconds, assetType === 'Video' ? 'mp4' : 'mp3') }],
        ...(model ? { model } : {}),
      },
    });

  test.each([
    ['a 15 s video under the default model', 'Video', 15, undefined],
    ['a 30 s video under vidmodel-2.5', 'Video', 30, 'vidmodel-2.5'],
    ['a 15 s video under vidmodel-2.0-mini', 'Video', 15, 'vidmodel-2.0-mini'],
    ['a 2 s audio clip', 'Audio', 2, undefined],
    ['a 15 s audio clip under vidmodel-2.5', 'Audio', 15, 'vidmodel-2.5'],
  ])('accepts %s', async (_name, type, seconds, model) => {
    const answer = await submit(type, seconds, model);
    expect(answer.status).toBe(200);
    expect((answer.json() as { data: { status: string } }).data.status).toBe('processing');
  });

  test.each([
    [
      'a 20 s video under the default model',
      'Video',
      20,
      undefined,
      'vidmodel-2.0 takes video sources of at most 15 s',
    ],
    ['a 16 s video under vidmodel-2.0-mini', 'Video', 16, 'vidmodel-2.0-mini', 'at most 15 s'],
    [
      'a 31 s video under vidmodel-2.5',
      'Video',
      31,
      'vidmodel-2.5',
      'vidmodel-2.5 takes video sources of at most 30 s',
    ],
    ['a 1 s audio clip', 'Audio', 1, undefined, 'clips of 2-15 s'],
    ['a 20 s audio clip under vidmodel-2.5', 'Audio', 20, 'vidmodel-2.5', 'clips of 2-15 s'],
  ])(
    'refuses %s with 400 naming the material, and creates nothing',
    async (_name, type, seconds, model, rule) => {
      const tasks = rig.gateway.tasks.list().length;
      const answer = await submit(type, seconds, model);
      expect(answer.status).toBe(400);
      const error = (answer.json() as { error: { message: string; type: string } }).error;
      expect(error.type).toBe('media_library_error');
      expect(error.message).toContain('invalid_asset_material: assets[0]');
      expect(error.message).toContain(rule);
      expect(rig.gateway.tasks.list()).toHaveLength(tasks);
    },
  );
});
