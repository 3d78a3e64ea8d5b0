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
import type { RequestContext, RouteParams, RouteRegistry } from '../types.js';
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
  // A read or a delete: no request body, and the answer `{code: 200, data}`.
  const answer = <P extends string>(
    method: 'GET' | 'DELETE',
    pattern: P,
    data: (ctx: RequestContext<RouteParams<P>>) => unknown,
  ) =>
    router.add(method, pattern, async (ctx) => ctx.json(200, { code: 200, data: data(ctx) }), {
      body: 'none',
    });

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

  answer('GET', GROUPS, (ctx) => {
    const query = ctx.validate(listQuerySchema, readQuery(ctx.query, ['page', 'limit']));
    const mine = [...store.groups.values()].filter((g) => g.account === ctx.account.id);
    return pageOf(mine.map(groupJSON), query);
  });

  answer('GET', `${GROUPS}/:id`, (ctx) => groupJSON(store.group(ctx.account.id, ctx.params.id)));

  router.add('PATCH', `${GROUPS}/:id`, async (ctx) => {
    const group = store.group(ctx.account.id, ctx.params.id);
    const body = ctx.validate(groupUpdateSchema);
    if (body.name !== undefined) group.name = body.name;
    if (body.description !== undefined) group.description = body.description;
    group.updated_at = gateway.clock.nowSeconds();
    await ctx.json(200, { code: 200, data: groupJSON(group) });
  });

  answer('DELETE', `${GROUPS}/:id`, (ctx) => {
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
    return { id: group.id };
  });

  router.add('POST', ASSETS, (ctx) => submitReviewBatch(gateway, ctx));

  answer('GET', ASSETS, (ctx) => {
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
    return pageOf(mine.map(assetJSON), query);
  });

  answer('GET', `${ASSETS}/:id`, (ctx) =>
    // spec: Media library — the detail refreshes the review status.
    assetJSON(store.asset(ctx.account.id, ctx.params.id)),
  );

  router.add('PATCH', `${ASSETS}/:id`, async (ctx) => {
    const asset = store.asset(ctx.account.id, ctx.params.id);
    const body = ctx.validate(assetUpdateSchema);
    if (asset.status === 'Pending') throw pending(asset.id, 'renamed');
    asset.name = body.name;
    asset.updated_at = gateway.clock.nowSeconds();
    await ctx.json(200, { code: 200, data: assetJSON(asset) });
  });

  answer('DELETE', `${ASSETS}/:id`, (ctx) => {
    const asset = store.asset(ctx.account.id, ctx.params.id);
    if (asset.status === 'Pending') throw pending(asset.id, 'deleted');
    store.assets.delete(asset.id);
    return { id: asset.id, deleted: true };
  });
}

// spec: States — pending materials cannot be renamed or deleted (HTTP 409).
function pending(id: string, what: string): MockHttpError {
  return MockHttpError.spec(
    409,
    'asset_pending',
    `asset ${id} is Pending review and cannot be ${what}; wait for its review task`,
  );
}
