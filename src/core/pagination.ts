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
  readonly items: T[];
  /** Records in the whole list. */
  readonly total: number;
  /** This page's number, from 1. */
  readonly page: number;
  /** Records per page. */
  readonly limit: number;

  /**
   * @param data - the `data` of a list answer.
   * @param fetchPage - loads a page by number; {@link Page.getNextPage} calls it.
   */
  constructor(
    data: PageData<T>,
    private readonly fetchPage: (page: number) => Promise<Page<T>>,
  ) {
    this.items = Array.isArray(data.items) ? data.items : [];
    this.total = Number(data.total) || 0;
    this.page = Number(data.page) || 1;
    this.limit = Number(data.limit) || this.items.length;
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
    return this.fetchPage(this.page + 1);
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
 * What `list()` returns: await it for the first {@link Page}, or iterate it with
 * `for await` for every item of every page.
 */
export class PagePromise<T> implements PromiseLike<Page<T>>, AsyncIterable<T> {
  private readonly promise: Promise<Page<T>>;

  /** @param load - loads the first page; called at once. */
  constructor(load: () => Promise<Page<T>>) {
    this.promise = load();
    this.promise.catch(() => undefined); // rejections surface where the caller awaits or iterates
  }

  /** Resolves with the first {@link Page}; rejects with the list request's error. */
  // biome-ignore lint/suspicious/noThenProperty: awaiting a list() call is its purpose.
  then<A = Page<T>, B = never>(
    onFulfilled?: ((page: Page<T>) => A | PromiseLike<A>) | null,
    onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return this.promise.then(onFulfilled, onRejected);
  }

  /** Handles a failure of the first page's request, as `Promise.prototype.catch` does. */
  catch<B = never>(onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null): Promise<Page<T> | B> {
    return this.promise.catch(onRejected);
  }

  /**
   * Every item of every page, fetching each page when iteration reaches it.
   *
   * @throws the list request's errors (a refused query included), from the `for await` loop.
   */
  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    yield* await this.promise;
  }
}
