import { MockHttpError } from '../http-error.js';
import type { GatewayState } from './gateway-state.js';
import { newId } from './ids.js';
import type { MockTask } from './tasks.js';

/**
 * Markers in a review batch's asset URLs that decide the review. spec: States — a batch can
 * partly succeed.
 * - `mock:reject`: that material is rejected (`Failed`); the others still become `Active`.
 * - `mock:invalid`: the batch is refused at submission with 400
 *   `{error: {message: 'invalid_asset_material: assets[<i>] ...', type: 'media_library_error'}}`.
 * - `mock:review-error`: the review fails before per-material results exist: the task is
 *   `failed` with a safe `error.message` and no `result`; every material ends `Failed`.
 * - `mock:slow`: the review takes ten times as long.
 */
export const LIBRARY_TRIGGERS = {
  reject: 'mock:reject',
  invalid: 'mock:invalid',
  reviewError: 'mock:review-error',
} as const;

/** A library group held by the mock. */
export interface MockGroup {
  /** Group ID. */
  readonly id: string;
  /** The owning account. */
  readonly account: string;
  /** The group's model. */
  readonly model: string;
  /** Name, at most 255 characters. */
  name: string;
  /** Description, at most 4000 characters. */
  description: string;
  /** Unix time of creation. */
  readonly created_at: number;
  /** Unix time of the last change. */
  updated_at: number;
}

/** A library material held by the mock. `status` is what the last refresh saw. */
export interface MockAsset {
  /** Material ID. */
  readonly id: string;
  /** The owning account. */
  readonly account: string;
  /** `Image`, `Video` or `Audio`. */
  readonly asset_type: string;
  /** The owning group. */
  readonly group_id: string;
  /** The URL submitted for review. */
  readonly source_url: string;
  /** The review task of its batch. */
  readonly review_task_id: string;
  /** What the review will decide once it ends; {@link reviewLibraryAsset} decides it at once. */
  verdict: 'Active' | 'Failed';
  /** Display name. */
  name: string;
  /** `Pending`, `Active` or `Failed`, as last refreshed. */
  status: 'Pending' | 'Active' | 'Failed';
  /** Unix time of creation. */
  readonly created_at: number;
  /** Unix time of the last change. */
  updated_at: number;
}

/** `data` of a `review` task. */
export interface ReviewTaskData {
  /** The group the batch's materials belong to. */
  group_id: string;
  /** The batch's materials, in order. */
  asset_ids: string[];
  /** Set when the review fails before per-material results exist. */
  batch_error?: string | undefined;
}

/** A page of a list, as the spec's list response holds it. */
export interface ListPage<T> {
  /** The records of this page. */
  items: T[];
  /** Records in the whole list. */
  total: number;
  /** This page's number, from 1. */
  page: number;
  /** Records per page. */
  limit: number;
}

/**
 * The media library of every account of one mock gateway. Material statuses move only when
 * something refreshes them (a material's detail, a rename or delete, or a poll of its review
 * task): spec: Media library — "Lists do not poll pending review tasks".
 */
export class LibraryStore {
  /** Every group by ID. */
  readonly groups = new Map<string, MockGroup>();
  /** Every material by ID. */
  readonly assets = new Map<string, MockAsset>();

  constructor(private readonly gateway: GatewayState) {}

  /** The account's group. @throws MockHttpError 404 for an unknown, deleted or foreign group. */
  group(account: string, id: string): MockGroup {
    const group = this.groups.get(id);
    // spec: Media library — another account's resource gives 404.
    if (!group || group.account !== account) throw MockHttpError.notFound(`group ${id}`);
    return group;
  }

  /** The account's material, refreshed. @throws MockHttpError 404 for an unknown, deleted or foreign one. */
  asset(account: string, id: string): MockAsset {
    const asset = this.assets.get(id);
    if (!asset || asset.account !== account) throw MockHttpError.notFound(`asset ${id}`);
    this.refresh(asset);
    return asset;
  }

  /** Creates a group. */
  createGroup(account: string, init: { model: string; name: string; description?: string | undefined }) {
    const now = this.gateway.clock.nowSeconds();
    const group: MockGroup = {
      id: newId('grp_'),
      account,
      model: init.model,
      name: init.name,
      description: init.description ?? '',
      created_at: now,
      updated_at: now,
    };
    this.groups.set(group.id, group);
    return group;
  }

  /** Adds a Pending material to a group. */
  addAsset(init: Omit<MockAsset, 'id' | 'status' | 'created_at' | 'updated_at'>): MockAsset {
    const now = this.gateway.clock.nowSeconds();
    const asset: MockAsset = {
      ...init,
      id: newId('asset_'),
      status: 'Pending',
      created_at: now,
      updated_at: now,
    };
    this.assets.set(asset.id, asset);
    return asset;
  }

  /** Whether the group still holds materials (of any status). */
  groupHoldsAssets(groupId: string): boolean {
    for (const asset of this.assets.values()) if (asset.group_id === groupId) return true;
    return false;
  }

  /** Gives a Pending material its verdict when its review task has ended. */
  refresh(asset: MockAsset): void {
    if (asset.status !== 'Pending') return;
    const task = this.gateway.tasks.get(asset.review_task_id);
    if (!task || !this.gateway.tasks.state(task).terminal) return;
    asset.status = asset.verdict;
    asset.updated_at = this.gateway.clock.nowSeconds();
  }

  /** The materials of a review task that still exist, refreshed. */
  assetsOf(task: MockTask<unknown>): MockAsset[] {
    const data = task.data as ReviewTaskData;
    const found: MockAsset[] = [];
    for (const id of data.asset_ids) {
      const asset = this.assets.get(id);
      if (!asset) continue;
      this.refresh(asset);
      found.push(asset);
    }
    return found;
  }
}

/** How {@link reviewLibraryAsset} decides a material's review. */
export type LibraryReviewDecision = 'approve' | 'reject';

/**
 * Decides a library material's review now, whatever its review task and URL markers say:
 * `approve` makes it `Active`, `reject` makes it `Failed`. Its review task, if still running,
 * reports the same verdict when it ends.
 *
 * @throws Error for an unknown material ID.
 * @example
 * reviewLibraryAsset(gateway, assetId, 'reject');
 * await client.library.assets.retrieve(assetId); // status: 'Failed'
 */
export function reviewLibraryAsset(
  gateway: GatewayState,
  assetId: string,
  decision: LibraryReviewDecision,
): MockAsset {
  const asset = libraryStore(gateway).assets.get(assetId);
  if (!asset) throw new Error(`unknown library material ${assetId}`);
  asset.verdict = decision === 'approve' ? 'Active' : 'Failed';
  asset.status = asset.verdict;
  asset.updated_at = gateway.clock.nowSeconds();
  return asset;
}

/** The library store of a gateway. */
export function libraryStore(gateway: GatewayState): LibraryStore {
  return gateway.store('library', () => new LibraryStore(gateway));
}

/** A group as the gateway answers it. */
export function groupJSON(group: MockGroup) {
  const { account: _account, ...wire } = group;
  return wire;
}

/** A material as the gateway answers it: `id`, `asset_id`, `asset_url` (`asset://<id>`), and the rest. */
export function assetJSON(asset: MockAsset) {
  return {
    id: asset.id,
    asset_id: asset.id,
    asset_url: `asset://${asset.id}`,
    name: asset.name,
    asset_type: asset.asset_type,
    group_id: asset.group_id,
    status: asset.status,
    source_url: asset.source_url,
    created_at: asset.created_at,
    updated_at: asset.updated_at,
  };
}

/** One page of `items`. spec: Media library — `page` defaults to 1, `limit` to 20. */
export function pageOf<T>(
  items: readonly T[],
  query: { page?: number | undefined; limit?: number | undefined },
) {
  const page = query.page ?? 1;
  const limit = query.limit ?? 20;
  const start = (page - 1) * limit;
  const result: ListPage<T> = { items: items.slice(start, start + limit), total: items.length, page, limit };
  return result;
}

/**
 * Reads numeric query parameters as numbers (anything unreadable becomes `NaN`, which the
 * schemas refuse) and the others as strings.
 */
export function readQuery(query: URLSearchParams, numeric: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of query) {
    out[key] = numeric.includes(key) ? (value.trim() === '' ? Number.NaN : Number(value)) : value;
  }
  return out;
}

/**
 * Checks an `asset://<asset_id>` reference a generation request uses, for the video routes:
 * the material must belong to the caller's account and be `Active` (it is refreshed first).
 * Returns the material, or `undefined` when `ref` is not an `asset://` reference.
 *
 * spec: Errors — an unknown, deleted or foreign material answers 404; a material not ready, 409.
 * spec: States — only `Active` materials may be referenced.
 * @throws MockHttpError 404 or 409.
 * @example checkAssetReference(gateway, ctx.account.id, 'asset://asset_3f9c...');
 */
export function checkAssetReference(
  gateway: GatewayState,
  account: string,
  ref: unknown,
): MockAsset | undefined {
  if (typeof ref !== 'string' || !ref.startsWith('asset://')) return undefined;
  const asset = libraryStore(gateway).asset(account, ref.slice('asset://'.length));
  if (asset.status !== 'Active') {
    throw MockHttpError.spec(
      409,
      'asset_not_ready',
      `${ref} is ${asset.status}; only Active materials may be referenced`,
    );
  }
  return asset;
}
