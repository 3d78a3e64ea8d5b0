/** One page of a list, as the gateway returns it: `{code:200, data:{items, total, page, limit}}`. */
export interface PageData<T> {
  items: T[];
  total: number;
  page: number;
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
  readonly items: T[];
  readonly total: number;
  readonly page: number;
  readonly limit: number;

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

  /** Fetches the following page. @throws MediaGatewayError-family errors of the request */
  getNextPage(): Promise<Page<T>> {
    return this.fetchPage(this.page + 1);
  }

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

  constructor(load: () => Promise<Page<T>>) {
    this.promise = load();
    this.promise.catch(() => undefined); // rejections surface where the caller awaits or iterates
  }

  // biome-ignore lint/suspicious/noThenProperty: awaiting a list() call is its purpose.
  then<A = Page<T>, B = never>(
    onFulfilled?: ((page: Page<T>) => A | PromiseLike<A>) | null,
    onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return this.promise.then(onFulfilled, onRejected);
  }

  catch<B = never>(onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null): Promise<Page<T> | B> {
    return this.promise.catch(onRejected);
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    yield* await this.promise;
  }
}
