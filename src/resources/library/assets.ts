import type { APIPromise } from '../../core/api-promise.js';
import type { PagePromise } from '../../core/pagination.js';
import type { RequestOptions } from '../../internal/request-spec.js';
import {
  parseAssetListParams,
  parseAssetSubmitParams,
  parseAssetUpdateParams,
} from '../../internal/schemas.js';
import { checkPathId } from '../../internal/url.js';
import type { AssetListParams, AssetSubmitParams, AssetUpdateParams } from '../../schemas/library/index.js';
import { LibraryCollection } from './collection.js';
import { type Asset, type ReviewTask, toReviewTask } from './types.js';

const BASE = '/vidmodel2/private-avatar/assets';
/** A record's path, for the message of a refused ID. */
const ROUTE = `/v1${BASE}/{assetId}`;

/** Library materials: `/v1/vidmodel2/private-avatar/assets`. */
export class Assets extends LibraryCollection {
  protected readonly base = BASE;

  /**
   * Submits a review batch (1-20 materials of one type). Returns the review task
   * (`processing`, progress 0); wait for it with `library.reviewTasks.waitForTask`. Creates
   * state: retried only on 429 or a refused connection.
   *
   * @throws RequestValidationError for any batch rule (size, type, URL, name, group and group_id together).
   * @throws MediaLibraryError with `assetIndex` when the gateway refuses one material.
   * @throws NotFoundError when `group_id` is not a group of this account.
   * @example
   * const review = await client.library.assets.submit({ asset_type: 'Image', assets: [{ url: 'https://example.com/face.png' }] });
   * const done = await client.library.reviewTasks.waitForTask(review.id);
   * console.log(done.usable_assets); // ['asset://...']
   */
  submit(params: AssetSubmitParams, options?: RequestOptions): APIPromise<ReviewTask> {
    return this.call<unknown>('POST', () => ({
      body: parseAssetSubmitParams(params),
      retry: 'create',
      options,
    }))._thenUnwrap(toReviewTask);
  }

  /**
   * Lists materials: await it for the first page, or `for await` over every material of every
   * page (each page is fetched when iteration reaches it). `status` is case-sensitive
   * (`Pending`, `Active`, `Failed`). Lists do not refresh pending reviews; `retrieve` does.
   *
   * @throws RequestValidationError (as a rejection) for a `limit` outside 1-100, a `page` below 1 or a mis-cased `status`.
   * @throws InvalidResponseError when an answer is not a list page, or repeats the page before it
   *   (a server that ignores `page`): iteration stops there instead of looping.
   * @example for await (const asset of client.library.assets.list({ status: 'Active' })) console.log(asset.asset_url);
   */
  list(params: AssetListParams = {}, options?: RequestOptions): PagePromise<Asset> {
    return this.pages('library.assets.list', () => parseAssetListParams(params), options);
  }

  /**
   * Reads a material; this refreshes its review status.
   *
   * @throws NotFoundError for an unknown, deleted or another account's material.
   * @example
   * const asset = await client.library.assets.retrieve('asset_123');
   * if (asset.status === 'Active') console.log(assetReference(asset));
   */
  retrieve(assetId: string, options?: RequestOptions): APIPromise<Asset> {
    return this.call<Asset>('GET', () => ({ id: checkPathId(ROUTE, 'assetId', assetId), options }));
  }

  /**
   * Renames a material (`PATCH`, JSON `name`); there is no new review.
   *
   * @throws RequestValidationError for a missing name or one over 255 characters.
   * @throws ConflictError (409) while it is `Pending`.
   * @throws NotFoundError for an unknown, deleted or another account's material.
   */
  update(assetId: string, params: AssetUpdateParams, options?: RequestOptions): APIPromise<Asset> {
    return this.call<Asset>('PATCH', () => ({
      id: checkPathId(ROUTE, 'assetId', assetId),
      body: parseAssetUpdateParams(params),
      options,
    }));
  }

  /**
   * Deletes a material; the gateway answers `{ id, deleted: true }`.
   *
   * @throws ConflictError (409) while it is `Pending`.
   * @throws NotFoundError for an unknown, deleted or another account's material.
   */
  delete(
    assetId: string,
    options?: RequestOptions,
  ): APIPromise<{
    /** The deleted material's ID. */
    id: string;
    /** `true`. */
    deleted: boolean;
  }> {
    return this.call<{ id: string; deleted: boolean }>('DELETE', () => ({
      id: checkPathId(ROUTE, 'assetId', assetId),
      options,
    }));
  }
}
