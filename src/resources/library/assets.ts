import { Page, type PageData, PagePromise } from '../../core/pagination.js';
import { TIMEOUTS } from '../../internal/timeouts.js';
import type { RequestOptions } from '../../internal/transport.js';
import { path } from '../../internal/url.js';
import {
  type AssetListParams,
  type AssetSubmitParams,
  type AssetUpdateParams,
  parseAssetListParams,
  parseAssetSubmitParams,
  parseAssetUpdateParams,
} from '../../schemas/library.js';
import { APIResource } from '../resource.js';
import { type Asset, type LibraryEnvelope, type ReviewTask, toReviewTask, unwrap } from './types.js';

const BASE = '/vidmodel2/private-avatar/assets';

/** Library materials: `/v1/vidmodel2/private-avatar/assets`. */
export class Assets extends APIResource {
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
  async submit(params: AssetSubmitParams, options?: RequestOptions): Promise<ReviewTask> {
    const body = parseAssetSubmitParams(params);
    const answer = await this.transport.json<unknown>({
      method: 'POST',
      path: BASE,
      body,
      retry: 'create',
      timeout: TIMEOUTS.default,
      options,
    });
    return toReviewTask(answer);
  }

  /**
   * Lists materials: await it for the first page, or `for await` over every material of every
   * page (each page is fetched when iteration reaches it). `status` is case-sensitive
   * (`Pending`, `Active`, `Failed`). Lists do not refresh pending reviews; `retrieve` does.
   *
   * @throws RequestValidationError (as a rejection) for a `limit` outside 1-100, a `page` below 1 or a mis-cased `status`.
   * @example for await (const asset of client.library.assets.list({ status: 'Active' })) console.log(asset.asset_url);
   */
  list(params: AssetListParams = {}, options?: RequestOptions): PagePromise<Asset> {
    return new PagePromise(async () => {
      // Validated inside the promise, so a refused query rejects like any other failure.
      const query = parseAssetListParams(params);
      const load = async (page: number): Promise<Page<Asset>> => {
        const answer = await this.transport.json<LibraryEnvelope<PageData<Asset>>>({
          method: 'GET',
          path: BASE,
          query: { ...query, page },
          retry: 'safe',
          timeout: TIMEOUTS.default,
          options,
        });
        return new Page(unwrap(answer), load);
      };
      return load(query.page ?? 1);
    });
  }

  /**
   * Reads a material; this refreshes its review status.
   *
   * @throws NotFoundError for an unknown, deleted or another account's material.
   */
  async retrieve(assetId: string, options?: RequestOptions): Promise<Asset> {
    const answer = await this.transport.json<LibraryEnvelope<Asset>>({
      method: 'GET',
      path: `${BASE}${path`/${assetId}`}`,
      retry: 'safe',
      timeout: TIMEOUTS.default,
      options,
    });
    return unwrap(answer);
  }

  /** Renames a material (no new review). @throws ConflictError (409) while it is `Pending`. */
  async update(assetId: string, params: AssetUpdateParams, options?: RequestOptions): Promise<Asset> {
    const body = parseAssetUpdateParams(params);
    const answer = await this.transport.json<LibraryEnvelope<Asset>>({
      method: 'PATCH',
      path: `${BASE}${path`/${assetId}`}`,
      body,
      retry: 'safe',
      timeout: TIMEOUTS.default,
      options,
    });
    return unwrap(answer);
  }

  /** Deletes a material. @throws ConflictError (409) while it is `Pending`. */
  async delete(assetId: string, options?: RequestOptions): Promise<{ id: string; deleted: boolean }> {
    const answer = await this.transport.json<LibraryEnvelope<{ id: string; deleted: boolean }>>({
      method: 'DELETE',
      path: `${BASE}${path`/${assetId}`}`,
      retry: 'safe',
      timeout: TIMEOUTS.default,
      options,
    });
    return unwrap(answer);
  }
}
