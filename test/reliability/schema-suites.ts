/**
 * Every request schema as a property suite: a generator of valid requests, the rules that can be
 * broken, client-side validation alone, and the real client call that sends the request.
 */
import type fc from 'fast-check';
import type { MediaGateway } from '../../src/client.js';
import { imageEditParts } from '../../src/internal/multipart.js';
import { parseEmbeddingCreateParams } from '../../src/schemas/embeddings/index.js';
import { parseMidjourneyGenerateParams } from '../../src/schemas/images/midjourney.js';
import {
  parseImageEditAsyncParams,
  parseImageEditParams,
  parseImageGenerateAsyncParams,
  parseImageGenerateParams,
} from '../../src/schemas/images/requests.js';
import type { ImageEditParams } from '../../src/schemas/images/types.js';
import {
  parseAssetListParams,
  parseAssetSubmitParams,
  parseAssetUpdateParams,
  parseGroupCreateParams,
  parseGroupUpdateParams,
  parseListParams,
} from '../../src/schemas/library/index.js';
import { parseVideoRequest } from '../../src/schemas/video/index.js';
import {
  parseWebhookCapabilitiesParams,
  parseWebhookEndpointCreateParams,
  parseWebhookEndpointUpdateParams,
  parseWebhookEventListParams,
} from '../../src/schemas/webhook-endpoints/index.js';
import { type MockGateway, mockWebhooks, startMockGateway } from '../../src/testing/index.js';
import { testClient } from '../helpers/client.js';
import type { Fixtures } from './arbitraries/common.js';
import { imageEdit, imageEditRules, imageGenerate, imageGenerateRules } from './arbitraries/images.js';
import {
  assetSubmit,
  assetSubmitRules,
  assetUpdate,
  assetUpdateRules,
  capabilitiesQuery,
  embeddingCreate,
  embeddingCreateRules,
  endpointCreate,
  endpointCreateRules,
  endpointUpdate,
  endpointUpdateRules,
  eventListQuery,
  groupCreate,
  groupCreateRules,
  groupUpdate,
  groupUpdateRules,
  listQuery,
  listQueryRules,
  requiredStringRules,
} from './arbitraries/management.js';
import { midjourneyGenerate, midjourneyGenerateRules } from './arbitraries/midjourney.js';
import type { Body, Rule } from './arbitraries/rules.js';
import {
  video25,
  video25PreviewRules,
  video25Rules,
  video25Upgrade,
  video25UpgradeRules,
} from './arbitraries/video-25.js';
import { videoMini, videoMiniRules } from './arbitraries/video-mini.js';
import {
  motionControl,
  motionControlRules,
  videoLegacy,
  videoLegacyRules,
} from './arbitraries/video-other.js';
import { WIRE_SAMPLE } from './property-settings.js';

/** The mock gateway the samples go to, the clients that send them and the IDs they may name. */
export interface Rig {
  gateway: MockGateway;
  /** The client of `acct_1`, which owns the fixtures. */
  client: MediaGateway;
  /** Clients of the other accounts (endpoint registration is limited to 20 per account). */
  others: MediaGateway[];
  fixtures: Fixtures;
}

/** One request schema under test. */
export interface SchemaSuite {
  name: string;
  valid: (fixtures: Fixtures) => fc.Arbitrary<Body>;
  rules: (fixtures: Fixtures) => Rule[];
  /** Client-side validation only: resolves with the parsed request, rejects with RequestValidationError. */
  validate: (input: unknown) => Promise<unknown>;
  /** The real SDK call, over HTTP to the mock. */
  send: (rig: Rig, input: unknown, run: number) => Promise<unknown>;
}

const asParams = <T>(input: unknown) => input as T;

async function validateEdit(input: unknown, async: boolean): Promise<unknown> {
  const parsed = async ? parseImageEditAsyncParams(input) : parseImageEditParams(input);
  // The file checks (mask format, alpha and size) are part of validation too.
  await imageEditParts(parsed as ImageEditParams, async ? 'images.editAsync' : 'images.edit');
  return parsed;
}

export const SUITES: readonly SchemaSuite[] = [
  {
    name: 'videos.create (vidmodel-2.0-mini)',
    valid: videoMini,
    rules: videoMiniRules,
    validate: async (input) => parseVideoRequest(input),
    send: (rig, input) => rig.client.videos.create(asParams(input)),
  },
  {
    name: 'videos.create (vidmodel-2.5)',
    valid: (fx) => video25(fx, 'ordinary'),
    rules: video25Rules,
    validate: async (input) => parseVideoRequest(input),
    send: (rig, input) => rig.client.videos.create(asParams(input)),
  },
  {
    name: 'videos.create (vidmodel-2.5 preview)',
    valid: (fx) => video25(fx, 'preview'),
    rules: video25PreviewRules,
    validate: async (input) => parseVideoRequest(input),
    send: (rig, input) => rig.client.videos.create(asParams(input)),
  },
  {
    name: 'videos.create (vidmodel-2.5 upgrade)',
    valid: video25Upgrade,
    rules: video25UpgradeRules,
    validate: async (input) => parseVideoRequest(input),
    send: (rig, input) => rig.client.videos.create(asParams(input)),
  },
  {
    name: 'videos.create (motion-v3-motion-control)',
    valid: motionControl,
    rules: motionControlRules,
    validate: async (input) => parseVideoRequest(input),
    send: (rig, input) => rig.client.videos.create(asParams(input)),
  },
  {
    name: 'videos.create (vidmodel-2.0, vidmodel-2.0-fast)',
    valid: videoLegacy,
    rules: videoLegacyRules,
    validate: async (input) => parseVideoRequest(input),
    send: (rig, input) => rig.client.videos.create(asParams(input)),
  },
  {
    name: 'images.generate',
    valid: (fx) => imageGenerate(fx, false),
    rules: (fx) => imageGenerateRules(fx, false),
    validate: async (input) => parseImageGenerateParams(input),
    send: (rig, input) => rig.client.images.generate(asParams(input)),
  },
  {
    name: 'images.generateAsync',
    valid: (fx) => imageGenerate(fx, true),
    rules: (fx) => imageGenerateRules(fx, true),
    validate: async (input) => parseImageGenerateAsyncParams(input),
    send: (rig, input) => rig.client.images.generateAsync(asParams(input)),
  },
  {
    name: 'images.edit',
    valid: (fx) => imageEdit(fx, false),
    rules: (fx) => imageEditRules(fx, false),
    validate: (input) => validateEdit(input, false),
    send: (rig, input) => rig.client.images.edit(asParams(input)),
  },
  {
    name: 'images.editAsync',
    valid: (fx) => imageEdit(fx, true),
    rules: (fx) => imageEditRules(fx, true),
    validate: (input) => validateEdit(input, true),
    send: (rig, input) => rig.client.images.editAsync(asParams(input)),
  },
  {
    name: 'midjourney.generate',
    valid: midjourneyGenerate,
    rules: midjourneyGenerateRules,
    validate: async (input) => parseMidjourneyGenerateParams(input),
    send: (rig, input) => rig.client.midjourney.generate(asParams(input)),
  },
  {
    name: 'embeddings.create',
    valid: embeddingCreate,
    rules: embeddingCreateRules,
    validate: async (input) => parseEmbeddingCreateParams(input),
    send: (rig, input) => rig.client.embeddings.create(asParams(input)),
  },
  {
    name: 'library.groups.create',
    valid: groupCreate,
    rules: groupCreateRules,
    validate: async (input) => parseGroupCreateParams(input),
    send: (rig, input) => rig.client.library.groups.create(asParams(input)),
  },
  {
    name: 'library.groups.update',
    valid: groupUpdate,
    rules: groupUpdateRules,
    validate: async (input) => parseGroupUpdateParams(input),
    send: (rig, input, run) =>
      rig.client.library.groups.update(pick(rig.fixtures.groupIds, run), asParams(input)),
  },
  {
    name: 'library.groups.list',
    valid: (fx) => listQuery(fx, false),
    rules: () => listQueryRules(false),
    validate: async (input) => parseListParams(input),
    send: async (rig, input) => rig.client.library.groups.list(asParams(input)),
  },
  {
    name: 'library.assets.list',
    valid: (fx) => listQuery(fx, true),
    rules: () => listQueryRules(true),
    validate: async (input) => parseAssetListParams(input),
    send: async (rig, input) => rig.client.library.assets.list(asParams(input)),
  },
  {
    name: 'library.assets.submit',
    valid: assetSubmit,
    rules: assetSubmitRules,
    validate: async (input) => parseAssetSubmitParams(input),
    send: (rig, input) => rig.client.library.assets.submit(asParams(input)),
  },
  {
    name: 'library.assets.update',
    valid: assetUpdate,
    rules: assetUpdateRules,
    validate: async (input) => parseAssetUpdateParams(input),
    send: (rig, input, run) =>
      rig.client.library.assets.update(pick(rig.fixtures.assetIds, run), asParams(input)),
  },
  {
    name: 'webhooks.endpoints.create',
    valid: endpointCreate,
    rules: endpointCreateRules,
    validate: async (input) => parseWebhookEndpointCreateParams(input),
    // spec: Limits — 20 endpoints per account: the samples are spread over the other accounts.
    send: (rig, input, run) => pick(rig.others, run).webhooks.endpoints.create(asParams(input)),
  },
  {
    name: 'webhooks.endpoints.update',
    valid: endpointUpdate,
    rules: endpointUpdateRules,
    validate: async (input) => parseWebhookEndpointUpdateParams(input),
    send: (rig, input, run) =>
      rig.client.webhooks.endpoints.update(pick(rig.fixtures.spareEndpointIds, run), asParams(input)),
  },
  {
    name: 'webhooks.capabilities',
    valid: capabilitiesQuery,
    rules: () => requiredStringRules('model'),
    validate: async (input) => parseWebhookCapabilitiesParams(input),
    send: (rig, input) => rig.client.webhooks.capabilities(asParams(input)),
  },
  {
    name: 'webhooks.events.list',
    valid: eventListQuery,
    rules: () => requiredStringRules('task_id'),
    validate: async (input) => parseWebhookEventListParams(input),
    send: (rig, input) => rig.client.webhooks.events.list(asParams(input)),
  },
];

function pick<T>(list: readonly T[], run: number): T {
  const item = list[run % list.length];
  if (item === undefined) throw new Error('no fixture to pick from');
  return item;
}

/**
 * Starts the mock (manual clock) with its accounts and creates what valid requests may name:
 * verified endpoints, groups, `Active` materials, succeeded previews.
 */
export async function startRig(): Promise<Rig> {
  // spec: Limits — 20 webhook endpoints per account: enough other accounts for the endpoint samples.
  const others = Array.from({ length: Math.max(1, Math.ceil(WIRE_SAMPLE / 20)) }, (_, i) => `acct_${i + 2}`);
  const gateway = await startMockGateway({
    clock: 'manual',
    accounts: ['acct_1', ...others].map((id) => ({ id })),
  });
  const clientOf = (id: string) => testClient({ apiKey: gateway.account(id).apiKey, baseURL: gateway.url });
  const client = clientOf('acct_1');
  const webhooks = mockWebhooks(gateway);
  const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((name) => {
    const { endpoint } = webhooks.createEndpoint('acct_1', `https://hooks.example.com/${name}`);
    // These suites test request validation; the challenge flow has tests of its own.
    endpoint.verified = true;
    return endpoint.id;
  }) as [string, string, string, string];
  const groupIds = await Promise.all(
    ['cast', 'props'].map(async (name) => (await client.library.groups.create({ name })).id),
  );
  const review = await client.library.assets.submit({
    asset_type: 'Image',
    group_id: groupIds[0],
    assets: [
      { url: 'https://media.example.com/face-1.png' },
      { url: 'https://media.example.com/face-2.png' },
    ],
  });
  const previews = await Promise.all(
    [1, 2].map(() => client.videos.create({ model: 'vidmodel-2.5', prompt: 'a lighthouse', draft: true })),
  );
  await gateway.clock.advance(60_000);
  const done = await client.library.reviewTasks.retrieve(review.id);
  const assetIds = done.usable_assets.map((ref) => ref.slice('asset://'.length));
  const previewIds = previews.map((p) => p.task_id);
  for (const id of previewIds) {
    const task = await client.videos.retrieve(id);
    if (task.status !== 'completed') throw new Error(`preview ${id} is ${task.status}`);
  }
  if (assetIds.length !== 2) throw new Error(`expected 2 Active materials, got ${assetIds.length}`);
  return {
    gateway,
    client,
    others: others.map(clientOf),
    fixtures: {
      endpointIds: [a, b],
      spareEndpointIds: [c, d],
      groupIds,
      assetIds,
      previewIds,
      taskIds: [...previewIds, review.id],
    },
  };
}
