import type { APIPromise } from '../../core/api-promise.js';
import { Page, type PageData, PagePromise } from '../../core/pagination.js';
import type { RequestOptions, RequestSpec } from '../../internal/request-spec.js';
import type { RetryClass } from '../../internal/retry-policy.js';
import { TIMEOUTS } from '../../internal/timeouts.js';
import { path, type QueryValue } from '../../internal/url.js';
import { APIResource } from '../resource.js';
import { type LibraryEnvelope, unwrap } from './types.js';

/** What a library call sends: the record's ID (or none for the collection), a body, a query. */
interface LibraryCall {
  id?: string | undefined;
  body?: unknown;
  query?: Record<string, QueryValue> | undefined;
  retry?: RetryClass | undefined;
  options?: RequestOptions | undefined;
}

/**
 * The plumbing shared by library groups and assets: every answer comes wrapped as
 * `{code, data}`, records live at `<base>/<id>`, and lists are paged with `page` and `limit`.
 */
export abstract class LibraryCollection extends APIResource {
  /** The collection's path below `/v1`. */
  protected abstract readonly base: string;

  /**
   * Sends one call and unwraps its `data`. A function in place of the call is run first, so
   * a body refused while being checked rejects the call.
   */
  protected call<T>(
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    call: LibraryCall | (() => LibraryCall) = {},
  ): APIPromise<T> {
    const spec = (c: LibraryCall): RequestSpec => ({
      method,
      path: c.id === undefined ? this.base : `${this.base}${path`/${c.id}`}`,
      body: c.body,
      query: c.query,
      retry: c.retry ?? 'safe',
      timeout: TIMEOUTS.default,
      options: c.options,
    });
    return this.transport
      .json<LibraryEnvelope<T>>(typeof call === 'function' ? () => spec(call()) : spec(call))
      ._thenUnwrap(unwrap<T>);
  }

  /**
   * A lazily paged list. `parseQuery` runs inside the promise, so a refused query rejects like
   * any other failure, whether the list is awaited or iterated.
   */
  protected pages<T>(
    parseQuery: () => { page?: number | undefined },
    options?: RequestOptions,
  ): PagePromise<T> {
    return new PagePromise(async () => {
      // The list schemas allow only string and number fields.
      const query = parseQuery() as { page?: number | undefined } & Record<string, QueryValue>;
      const load = async (page: number): Promise<Page<T>> => {
        const { data, ...answer } = await this.call<PageData<T>>('GET', {
          query: { ...query, page },
          options,
        }).withResponse();
        return new Page(data, load, answer);
      };
      return load(query.page ?? 1);
    });
  }
}
