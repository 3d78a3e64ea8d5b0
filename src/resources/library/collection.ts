import type { APIPromise, WithResponse } from '../../core/api-promise.js';
import { unreadableRequest } from '../../core/errors/validation.js';
import { InvalidResponseError } from '../../core/errors.js';
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
   * any other failure, whether the list is awaited or iterated. `operation` names the call in
   * the error of an answer that is not a list page (`library.assets.list`).
   */
  protected pages<T>(
    operation: string,
    parseQuery: () => { page?: number | undefined },
    options?: RequestOptions,
  ): PagePromise<T> {
    return new PagePromise(async () => {
      // The list schemas allow only string and number fields.
      let query: { page?: number | undefined } & Record<string, QueryValue>;
      try {
        query = parseQuery() as typeof query;
      } catch (error) {
        throw unreadableRequest(error);
      }
      const load = async (page: number, previous?: Page<T>): Promise<Page<T>> => {
        const { data, ...answer } = await this.call<unknown>('GET', {
          query: { ...query, page },
          options,
        }).withResponse();
        const where = `${operation} (GET /v1${this.base}, page ${page})`;
        // The page is the one asked for, whatever the answer says it is: a server that echoes
        // `page: 1` to every request must not send the iteration back to page 2 forever.
        const read = { ...readPage<T>(data, where, answer), page };
        if (previous && read.items.length > 0 && sameItems(previous.items, read.items)) {
          throw new InvalidResponseError(
            `${where} answered with the same items as page ${previous.page}: the server ignores the page asked for. Iteration stopped rather than repeat them, so the list may be incomplete; report the request ID to the gateway's operator.`,
            answer.response.status,
            answer.requestId,
          );
        }
        return new Page(read, load, answer);
      };
      return load(query.page ?? 1);
    });
  }
}

/**
 * Checks that a list answer is a page, `{items, total, page, limit}` (spec: Library — "List
 * response"), before it is paged through: a body of another shape would otherwise surface as a
 * TypeError, or as an iteration that never ends.
 * @throws InvalidResponseError naming `where` for anything else.
 */
function readPage<T>(data: unknown, where: string, answer: Omit<WithResponse<unknown>, 'data'>): PageData<T> {
  const page = data as Partial<Record<keyof PageData<T>, unknown>> | null;
  const problem =
    page === null || typeof page !== 'object' || Array.isArray(page)
      ? `its data is ${page === null ? 'null' : Array.isArray(page) ? 'an array' : `a ${typeof page}`}, not an object`
      : !Array.isArray(page.items)
        ? 'its items are not a list'
        : !isCount(page.total)
          ? 'its total is not a whole number of 0 or more'
          : page.limit !== undefined && !isCount(page.limit)
            ? 'its limit is not a whole number of 0 or more'
            : undefined;
  if (problem === undefined) return page as PageData<T>;
  throw new InvalidResponseError(
    `${where} answered ${answer.response.status} with a body that is not a list page (${problem}); expected {items, total, page, limit}. Retry later, or report the request ID to the gateway's operator.`,
    answer.response.status,
    answer.requestId,
  );
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

/** Whether two pages hold the same records. Both were parsed from JSON, so their JSON compares them. */
function sameItems(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && JSON.stringify(a) === JSON.stringify(b);
}
