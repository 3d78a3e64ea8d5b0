import {
  assetListQuerySchema,
  assetUpdateSchema,
  groupCreateSchema,
  groupUpdateSchema,
  listQuerySchema,
} from '../../schemas/library/index.js';
import { MockHttpError } from '../http-error.js';
import type { GatewayState } from '../state/gateway-state.js';
import { assetJSON, groupJSON, libraryStore, pageOf, readQuery } from '../state/library-store.js';
import type { RouteRegistry } from '../types.js';
import {
  checkLibraryModel,
  DEFAULT_GROUP_MODEL,
  registerReviewRenderer,
  submitReviewBatch,
} from './library-review.js';

const GROUPS = '/v1/vidmodel2/private-avatar/groups';
const ASSETS = '/v1/vidmodel2/private-avatar/assets';

/**
 * Registers the media library (spec: Media library) under `/v1/vidmodel2/private-avatar`:
 * groups and materials scoped to the caller's account (another account's answer 404), review
 * batches whose materials move `Pending` -> `Active`/`Failed` on the clock, and the `review`
 * renderer of `GET /v1/tasks/:id`. Triggers: see `LIBRARY_TRIGGERS`.
 */
export function registerLibraryRoutes(router: RouteRegistry, gateway: GatewayState): void {
  const store = libraryStore(gateway);
  registerReviewRenderer(gateway);

  router.add('POST', GROUPS, async (ctx) => {
    const body = ctx.validate(groupCreateSchema);
    const model = body.model ?? DEFAULT_GROUP_MODEL;
    checkLibraryModel(ctx, model);
    const group = store.createGroup(ctx.account.id, {
      model,
      name: body.name,
      description: body.description,
    });
    await ctx.json(200, { code: 200, data: groupJSON(group) });
  });

  router.add(
    'GET',
    GROUPS,
    async (ctx) => {
      const query = ctx.validate(listQuerySchema, readQuery(ctx.query, ['page', 'limit']));
      const mine = [...store.groups.values()].filter((g) => g.account === ctx.account.id);
      await ctx.json(200, { code: 200, data: pageOf(mine.map(groupJSON), query) });
    },
    { body: 'none' },
  );

  router.add(
    'GET',
    `${GROUPS}/:id`,
    async (ctx) => {
      await ctx.json(200, { code: 200, data: groupJSON(store.group(ctx.account.id, ctx.params.id)) });
    },
    { body: 'none' },
  );

  router.add('PATCH', `${GROUPS}/:id`, async (ctx) => {
    const group = store.group(ctx.account.id, ctx.params.id);
    const body = ctx.validate(groupUpdateSchema);
    if (body.name !== undefined) group.name = body.name;
    if (body.description !== undefined) group.description = body.description;
    group.updated_at = gateway.clock.nowSeconds();
    await ctx.json(200, { code: 200, data: groupJSON(group) });
  });

  router.add(
    'DELETE',
    `${GROUPS}/:id`,
    async (ctx) => {
      const group = store.group(ctx.account.id, ctx.params.id);
      // spec: Errors — deleting a non-empty group answers 409.
      if (store.groupHoldsAssets(group.id)) {
        throw MockHttpError.spec(
          409,
          'group_not_empty',
          `group ${group.id} still holds materials; delete them first`,
        );
      }
      store.groups.delete(group.id);
      await ctx.json(200, { code: 200, data: { id: group.id } });
    },
    { body: 'none' },
  );

  router.add('POST', ASSETS, (ctx) => submitReviewBatch(gateway, ctx));

  router.add(
    'GET',
    ASSETS,
    async (ctx) => {
      const account = ctx.account.id;
      const query = ctx.validate(assetListQuerySchema, readQuery(ctx.query, ['page', 'limit']));
      if (query.group_id !== undefined) store.group(account, query.group_id);
      // spec: Media library — lists do not poll pending review tasks: statuses are as last refreshed.
      const mine = [...store.assets.values()].filter(
        (a) =>
          a.account === account &&
          (query.group_id === undefined || a.group_id === query.group_id) &&
          (query.status === undefined || a.status === query.status),
      );
      await ctx.json(200, { code: 200, data: pageOf(mine.map(assetJSON), query) });
    },
    { body: 'none' },
  );

  router.add(
    'GET',
    `${ASSETS}/:id`,
    async (ctx) => {
      // spec: Media library — the detail refreshes the review status.
      await ctx.json(200, { code: 200, data: assetJSON(store.asset(ctx.account.id, ctx.params.id)) });
    },
    { body: 'none' },
  );

  router.add('PATCH', `${ASSETS}/:id`, async (ctx) => {
    const asset = store.asset(ctx.account.id, ctx.params.id);
    const body = ctx.validate(assetUpdateSchema);
    if (asset.status === 'Pending') throw pending(asset.id, 'renamed');
    asset.name = body.name;
    asset.updated_at = gateway.clock.nowSeconds();
    await ctx.json(200, { code: 200, data: assetJSON(asset) });
  });

  router.add(
    'DELETE',
    `${ASSETS}/:id`,
    async (ctx) => {
      const asset = store.asset(ctx.account.id, ctx.params.id);
      if (asset.status === 'Pending') throw pending(asset.id, 'deleted');
      store.assets.delete(asset.id);
      await ctx.json(200, { code: 200, data: { id: asset.id, deleted: true } });
    },
    { body: 'none' },
  );
}

// spec: States — pending materials cannot be renamed or deleted (HTTP 409).
function pending(id: string, what: string): MockHttpError {
  return MockHttpError.spec(
    409,
    'asset_pending',
    `asset ${id} is Pending review and cannot be ${what}; wait for its review task`,
  );
}
