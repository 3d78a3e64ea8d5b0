import type { WithResponse } from './api-promise.js';
import { count } from './options.js';

/** The answer each page came from, for {@link PagePromise.withResponse}. */
const answers = new WeakMap<object, Omit<WithResponse<unknown>, 'data'>>();

/** One page of a list, as the gateway returns it: `{code:200, data:{items, total, page, limit}}`. */
export interface PageData<T> {
  /** The records of this page. */
  items: T[];
  /** Records in the whole list. */
  total: number;
  /** This page's number, from 1. */
  page: number;
  /** Records per page (1-100; the gateway's default is 20). */
  limit: number;
}

/**
 * A page of results that is also async-iterable over every item of every page, fetching each
 * following page only when iteration reaches it.
 *
 * @example
 * for await (const asset of client.library.assets.list({ status: 'Active' })) console.log(asset.asset_url);
 */
export class Page<T> implements AsyncIterable<T> {
  /** The records of this page (empty when the answer held none). */
  declare readonly items: T[];
  /** Records in the whole list. */
  declare readonly total: number;
  /** This page's number, from 1. */
  declare readonly page: number;
  /** Records per page. */
  declare readonly limit: number;
  /** Loads another page of the same listing. */
  declare private readonly fetchPage: (page: number, previous: Page<T>) => Promise<Page<T>>;

  /**
   * @param data - the `data` of a list answer.
   * @param fetchPage - loads a page by number; {@link Page.getNextPage} calls it with this page
   *   as `previous`, so that it can refuse an answer that repeats this page.
   */
  constructor(
    data: PageData<T>,
    fetchPage: (page: number, previous: Page<T>) => Promise<Page<T>>,
    answer?: Omit<WithResponse<unknown>, 'data'>,
  ) {
    if (answer) answers.set(this, answer);
    this.items = Array.isArray(data.items) ? data.items : [];
    this.total = Number(data.total) || 0;
    this.page = Number(data.page) || 1;
    this.limit = Number(data.limit) || this.items.length;
    this.fetchPage = fetchPage;
  }

  /** Whether a following page holds more items. */
  hasNextPage(): boolean {
    return this.items.length > 0 && this.page * this.limit < this.total;
  }

  /**
   * Fetches the following page. Check {@link Page.hasNextPage} first: past the end the
   * gateway answers an empty page.
   *
   * @throws the list request's errors (an APIError subclass, APIConnectionError, ...).
   */
  getNextPage(): Promise<Page<T>> {
    return this.fetchPage(this.page + 1, this);
  }

  /**
   * Every item of this page and of each following page, fetching a page only when iteration
   * reaches it.
   *
   * @throws the list request's errors, from the `for await` loop.
   */
  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    let current: Page<T> = this;
    for (;;) {
      yield* current.items;
      if (!current.hasNextPage()) return;
      current = await current.getNextPage();
    }
  }
}

/**
 * What `list()` returns: a real `Promise` of the first {@link Page} (so `.finally()`,
 * `Promise.all` and a `Promise<Page<T>>` annotation all work), that is also async-iterable over
 * every item of every page and can collect items with {@link PagePromise.toArray}.
 *
 * The first page is requested once, lazily: when the promise is first awaited (or `.then`,
 * `.catch` or `.finally` is called), iterated or asked for `toArray()`, never at construction.
 * A list that is built and never used sends nothing. Every later use shares that one request;
 * `.then()` and its kin return plain `Promise`s (`Symbol.species` is `Promise`), so chaining
 * never requests the page again.
 *
 * @example
 * const page: Promise<Page<Asset>> = client.library.assets.list();
 * for await (const asset of client.library.assets.list({ status: 'Active' })) console.log(asset.id);
 * const first50 = await client.library.assets.list().toArray({ limit: 50 });
 */
export class PagePromise<T> extends Promise<Page<T>> implements AsyncIterable<T> {
  /** Chained promises (`then`, `catch`, `finally`) are plain Promises that hold no request. */
  static override get [Symbol.species](): PromiseConstructor {
    return Promise;
  }

  /** Requests the first page and settles this promise with it; undefined once started. */
  #start: (() => void) | undefined;

  /**
   * @param load - loads the first page; called once, on first use (see the class comment). A
   *   throw or rejection from it rejects this promise.
   */
  constructor(load: () => Promise<Page<T>>) {
    let settle!: (page: Page<T> | PromiseLike<Page<T>>) => void;
    let fail!: (reason: unknown) => void;
    super((resolve, reject) => {
      settle = resolve;
      fail = reject;
    });
    this.#start = () => {
      try {
        settle(load());
      } catch (error) {
        fail(error);
      }
    };
  }

  /** Starts the first page's request unless it has started. */
  #begin(): void {
    const start = this.#start;
    this.#start = undefined;
    start?.();
  }

  /**
   * Resolves with the first {@link Page}; rejects with the list request's error. The first call
   * (from `await`, `.catch` or `.finally` too) starts the request.
   */
  // biome-ignore lint/suspicious/noThenProperty: awaiting a list() call is its purpose.
  override then<A = Page<T>, B = never>(
    onFulfilled?: ((page: Page<T>) => A | PromiseLike<A>) | null,
    onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    this.#begin();
    return super.then(onFulfilled, onRejected);
  }

  /**
   * The first page with the answer it came from: `{ data, response, requestId }`, as
   * `withResponse()` of any other call gives (`response.status`, `response.headers`).
   *
   * @throws the list request's errors, as a rejection.
   * @example const { data: page, response } = await client.library.groups.list().withResponse();
   */
  withResponse(): Promise<WithResponse<Page<T>>> {
    return this.then((page) => {
      const answer = answers.get(page);
      if (!answer) throw new TypeError('This page was not read from an answer.');
      return { data: page, ...answer };
    });
  }

  /** The first page's answer as a `Response`, as `asResponse()` of any other call gives it. */
  asResponse(): Promise<Response> {
    return this.withResponse().then((answer) => answer.response);
  }

  /**
   * Every item of every page, fetching each page when iteration reaches it. Leaving the loop
   * early (`break`, `return`, a throw) requests no further page.
   *
   * @throws the list request's errors (a refused query included), from the `for await` loop.
   */
  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    yield* await this;
  }

  /**
   * Collects items across pages into an array: up to `options.limit` of them (a whole number
   * of 1 or more), or every item of every page when it is left out. Stops requesting pages as
   * soon as it has `limit` items. This `limit` counts items in all; the `limit` of `list()`
   * itself is the page size.
   *
   * @throws InvalidOptionError (as a rejection, before any request) when `limit` is not a whole number of 1 or more.
   * @throws the list request's errors, as a rejection.
   * @example const newest = await client.library.assets.list({ limit: 100 }).toArray({ limit: 250 });
   */
  async toArray(options: { limit?: number | undefined } = {}): Promise<T[]> {
    // Its one option, named as the call is written: the rule alone, with no table around it.
    const limit = count(1, Number.POSITIVE_INFINITY)('toArray({ limit })', options.limit);
    const items: T[] = [];
    for await (const item of this) {
      items.push(item);
      if (items.length >= limit) break;
    }
    return items;
  }
}
