/** `mediagw library groups …` and `mediagw library assets …`. */
import type { Command } from 'commander';
import type { Asset, Group, Page, ReviewTask } from '../../index.js';
import type { Context } from '../context.js';
import { collect, integer, requestBody } from '../input.js';
import { waitWithProgress } from '../tasks.js';
import { bodyFlags, examples, printTask, type RequestFlags, run, waitFlags } from './shared.js';

interface LibraryFlags extends RequestFlags {
  name?: string;
  description?: string;
  group?: string;
  url?: string[];
  type?: string;
  model?: string;
  status?: string;
  page?: number;
  limit?: number;
  all?: boolean;
}

function printGroup(ctx: Context, group: Group): void {
  ctx.output.result(group, () =>
    ctx.output.fields([
      ['group', group.id],
      ['name', group.name],
      ['description', group.description],
    ]),
  );
}

function printAsset(ctx: Context, asset: Asset): void {
  ctx.output.result(asset, () =>
    ctx.output.fields([
      ['asset', asset.id],
      ['name', asset.name],
      ['type', asset.asset_type],
      ['status', asset.status],
      ['group', asset.group_id],
      ['url', asset.asset_url],
    ]),
  );
}

/** Prints one page (or, with `--all`, every item) as a table or one JSON document. */
async function printList<T>(
  ctx: Context,
  page: Page<T>,
  all: boolean | undefined,
  headers: string[],
  row: (item: T) => unknown[],
): Promise<void> {
  const items = [...page.items];
  // --all: the pages after this one, each requested once (hasNextPage ends the loop).
  for (let next = page; all && next.hasNextPage(); ) {
    ctx.signal.throwIfAborted();
    next = await next.getNextPage();
    items.push(...next.items);
  }
  const out = ctx.output;
  out.result(
    all ? { items, total: page.total } : { items, total: page.total, page: page.page, limit: page.limit },
    () => [
      ...out.table(headers, items.map(row)),
      out.color.dim(
        all || !page.hasNextPage()
          ? `${items.length} of ${page.total}`
          : `${items.length} of ${page.total} (page ${page.page}; --page ${page.page + 1} or --all for more)`,
      ),
    ],
  );
}

function listFlags(command: Command): Command {
  return command
    .option('--page <n>', 'page number, from 1', integer('--page'))
    .option('--limit <n>', 'items per page', integer('--limit'))
    .option('--all', 'every page');
}

/** Registers `library`. */
export function registerLibrary(program: Command): void {
  const library = program.command('library').description('the private media library: groups and assets');
  const groups = library.command('groups').description('groups of materials');
  const assets = library.command('assets').description('materials (images, videos, audio) and their review');

  const groupCreate = bodyFlags(groups.command('create').description('create a group'))
    .option('--name <name>', 'the group name')
    .option('--description <text>', 'a description');
  examples(groupCreate, 'mediagw library groups create --name "spring campaign"');
  groupCreate.action(
    run(async (ctx, flags: LibraryFlags) => {
      const body = await requestBody(flags, { name: flags.name, description: flags.description }, ctx);
      printGroup(
        ctx,
        await (await ctx.gatewayClient()).library.groups.create(body as never, { signal: ctx.signal }),
      );
    }),
  );

  const groupList = listFlags(groups.command('list').description('list groups'));
  examples(groupList, 'mediagw library groups list --all --json');
  groupList.action(
    run(async (ctx, flags: LibraryFlags) => {
      const client = await ctx.gatewayClient();
      const page = await client.library.groups.list(
        await requestBody({}, { page: flags.page, limit: flags.limit }),
        { signal: ctx.signal },
      );
      await printList(ctx, page, flags.all, ['id', 'name', 'description'], (g) => [
        g.id,
        g.name,
        g.description,
      ]);
    }),
  );

  const groupGet = groups.command('get').description('show a group').argument('<id>', 'group ID');
  examples(groupGet, 'mediagw library groups get grp_123');
  groupGet.action(
    run(async (ctx, id: string) =>
      printGroup(ctx, await (await ctx.gatewayClient()).library.groups.retrieve(id, { signal: ctx.signal })),
    ),
  );

  const groupUpdate = bodyFlags(
    groups.command('update').description('rename or describe a group').argument('<id>', 'group ID'),
  )
    .option('--name <name>', 'the new name')
    .option('--description <text>', 'the new description');
  examples(groupUpdate, 'mediagw library groups update grp_123 --name "summer campaign"');
  groupUpdate.action(
    run(async (ctx, id: string, flags: LibraryFlags) => {
      const body = await requestBody(flags, { name: flags.name, description: flags.description }, ctx);
      printGroup(
        ctx,
        await (await ctx.gatewayClient()).library.groups.update(id, body as never, { signal: ctx.signal }),
      );
    }),
  );

  const groupDelete = groups
    .command('delete')
    .description('delete an empty group')
    .argument('<id>', 'group ID');
  examples(groupDelete, 'mediagw library groups delete grp_123');
  groupDelete.action(
    run(async (ctx, id: string) => {
      const deleted = await (await ctx.gatewayClient()).library.groups.delete(id, { signal: ctx.signal });
      ctx.output.result(deleted, () => `deleted group ${deleted.id}`);
    }),
  );

  const submit = waitFlags(
    bodyFlags(assets.command('submit').description('submit materials for review'))
      .option('--url <url>', 'a material URL (repeat for several, up to 20)', collect)
      .option('--group <id>', 'an existing group (else a new one is created)')
      .option('--type <type>', 'Image, Video or Audio (one type per batch)')
      .option('-m, --model <model>', 'review model, e.g. vidmodel-2.5'),
    'the review',
  );
  examples(
    submit,
    'mediagw library assets submit --type Image --url https://example.com/a.png --wait',
    'mediagw library assets submit -f assets.json --json',
  );
  submit.action(
    run(async (ctx, flags: LibraryFlags) => {
      const body = await requestBody(
        flags,
        {
          assets: flags.url?.map((url) => ({ url })),
          group_id: flags.group,
          asset_type: flags.type,
          model: flags.model,
        },
        ctx,
      );
      const client = await ctx.gatewayClient();
      let task: ReviewTask = await client.library.assets.submit(body as never, { signal: ctx.signal });
      if (flags.wait) {
        ctx.output.info(`submitted review task ${ctx.output.errColor.cyan(task.id)}`);
        task = (await waitWithProgress(ctx, client, { id: task.id, kind: 'review' }, flags)) as ReviewTask;
      }
      printTask(ctx.output, task, {}, { group: task.group_id, usable_assets: task.usable_assets });
    }),
  );

  const assetList = listFlags(assets.command('list').description('list materials'))
    .option('--group <id>', 'only this group')
    .option('--status <status>', 'Pending, Active or Failed');
  examples(assetList, 'mediagw library assets list --group grp_123 --status Active');
  assetList.action(
    run(async (ctx, flags: LibraryFlags) => {
      const client = await ctx.gatewayClient();
      const params = await requestBody(
        {},
        { page: flags.page, limit: flags.limit, group_id: flags.group, status: flags.status },
      );
      const page = await client.library.assets.list(params as never, { signal: ctx.signal });
      await printList(ctx, page, flags.all, ['id', 'type', 'status', 'group', 'name'], (a) => [
        a.id,
        a.asset_type,
        a.status,
        a.group_id,
        a.name,
      ]);
    }),
  );

  const assetGet = assets.command('get').description('show a material').argument('<id>', 'asset ID');
  examples(assetGet, 'mediagw library assets get asset_123');
  assetGet.action(
    run(async (ctx, id: string) =>
      printAsset(ctx, await (await ctx.gatewayClient()).library.assets.retrieve(id, { signal: ctx.signal })),
    ),
  );

  const assetUpdate = bodyFlags(
    assets.command('update').description('rename a material').argument('<id>', 'asset ID'),
  ).option('--name <name>', 'the new name');
  examples(assetUpdate, 'mediagw library assets update asset_123 --name hero');
  assetUpdate.action(
    run(async (ctx, id: string, flags: LibraryFlags) => {
      const body = await requestBody(flags, { name: flags.name }, ctx);
      printAsset(
        ctx,
        await (await ctx.gatewayClient()).library.assets.update(id, body as never, { signal: ctx.signal }),
      );
    }),
  );

  const assetDelete = assets.command('delete').description('delete a material').argument('<id>', 'asset ID');
  examples(assetDelete, 'mediagw library assets delete asset_123');
  assetDelete.action(
    run(async (ctx, id: string) => {
      const deleted = await (await ctx.gatewayClient()).library.assets.delete(id, { signal: ctx.signal });
      ctx.output.result(deleted, () => `deleted asset ${(deleted as { id?: string }).id ?? id}`);
    }),
  );
}
