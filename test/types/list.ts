// Consumer type test: what `list()` returns, as a user's code types it. scripts/check-consumer.mjs
// type-checks this file against the packed package's declarations under every moduleResolution
// (node, node16, nodenext, bundler; .mts and .cts where the mode tells them apart), with
// `strict` and `skipLibCheck: false`; `npm run typecheck` checks it against the sources. Each
// `@ts-expect-error` must stay an error: an unused one fails the check. Never run.
import type { Asset, Group, MediaGateway, Page, PagePromise } from 'mediagw';

export async function lists(client: MediaGateway): Promise<number> {
  // A real Promise of the first page: assignable, chainable, and usable with Promise.all.
  const assets: Promise<Page<Asset>> = client.library.assets.list({ status: 'Active' });
  const groups: PagePromise<Group> = client.library.groups.list({ limit: 10 });
  const total: Promise<number> = groups.then((page) => page.total);
  const settled: Promise<Page<Group>> = groups.finally(() => undefined);
  const recovered: Promise<Page<Group> | undefined> = groups.catch(() => undefined);
  const [first, second]: [Page<Asset>, Page<Group>] = await Promise.all([assets, groups]);
  const next: Page<Asset> = await first.getNextPage();

  // Async-iterable over every item of every page, and collectable.
  const ids: string[] = [];
  for await (const asset of client.library.assets.list()) ids.push(asset.id);
  const some: Asset[] = await client.library.assets.list().toArray({ limit: 5 });
  const every: Group[] = await client.library.groups.list().toArray();

  // @ts-expect-error it resolves with a Page, not with an array of items
  const wrong: Promise<Group[]> = client.library.groups.list();
  // @ts-expect-error toArray's limit is a number
  await client.library.assets.list().toArray({ limit: '5' });
  // @ts-expect-error the status filter is case-sensitive
  client.library.assets.list({ status: 'active' });

  await Promise.all([total, settled, recovered, wrong]);
  return ids.length + some.length + every.length + second.items.length + next.items.length;
}
