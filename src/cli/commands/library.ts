/** `mediagw library groups …` and `mediagw library assets …`. */
import type { Command } from 'commander';
import type { Asset, Group, MediaGateway, Page, ReviewTask } from '../../index.js';
import type { Context } from '../context.js';
import { collect, integer, requestBody } from '../input.js';
import { waitWithProgress } from '../tasks.js';
import {
  bodyFlags,
  examples,
  inFlight,
  printRecord,
  printTask,
  type RequestFlags,
  refuseIdleWaitFlags,
  run,
  waitFlags,
} from './shared.js';

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
  printRecord(ctx, group, [
    ['group', group.id],
    ['name', group.name],
    ['description', group.description],
  ]);
}

function printAsset(ctx: Context, asset: Asset): void {
  printRecord(ctx, asset, [
    ['asset', asset.id],
    ['name', asset.name],
    ['type', asset.asset_type],
    ['status', asset.status],
    ['group', asset.group_id],
    ['url', asset.asset_url],
  ]);
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

/** What {@link recordCommands} needs of a collection: how to reach, show and change its records. */
interface RecordCommands<T> {
  /** What a record is called in descriptions (`a group`, `a material`). */
  noun: string;
  /** How the `<id>` argument is described (`group ID`). */
  idText: string;
  /** An ID for the examples. */
  id: string;
  collection: (client: MediaGateway) => {
    retrieve(id: string, options: { signal: AbortSignal }): Promise<T>;
    update(id: string, body: never, options: { signal: AbortSignal }): Promise<T>;
    delete(id: string, options: { signal: AbortSignal }): Promise<{ id: string }>;
  };
  print: (ctx: Context, record: T) => void;
  update: {
    description: string;
    flags: (command: Command) => Command;
    fields: (flags: LibraryFlags) => Record<string, unknown>;
    example: string;
  };
  deleteDescription: string;
  deleted: (deleted: { id: string }, id: string) => string;
}

/** `get <id>`, `update <id>` and `delete <id>` of a library collection. */
function recordCommands<T>(parent: Command, spec: RecordCommands<T>): void {
  const path = `mediagw library ${parent.name()}`;
  const { idText } = spec;
  const records = async (ctx: Context) => spec.collection(await ctx.gatewayClient());

  const get = parent.command('get').description(`show a ${spec.noun}`).argument('<id>', idText);
  examples(get, `${path} get ${spec.id}`);
  get.action(
    run(async (ctx, id: string) =>
      spec.print(ctx, await (await records(ctx)).retrieve(id, { signal: ctx.signal })),
    ),
  );

  const update = spec.update.flags(
    bodyFlags(parent.command('update').description(spec.update.description).argument('<id>', idText)),
  );
  examples(update, `${path} update ${spec.id} ${spec.update.example}`);
  update.action(
    run(async (ctx, id: string, flags: LibraryFlags) => {
      const body = await requestBody(flags, spec.update.fields(flags), ctx);
      const collection = await records(ctx);
      inFlight(ctx, `changed ${id}`);
      spec.print(ctx, await collection.update(id, body as never, { signal: ctx.signal }));
    }),
  );

  const remove = parent.command('delete').description(spec.deleteDescription).argument('<id>', idText);
  examples(remove, `${path} delete ${spec.id}`);
  remove.action(
    run(async (ctx, id: string) => {
      const deleted = await (await records(ctx)).delete(id, { signal: ctx.signal });
      ctx.output.result(deleted, () => spec.deleted(deleted, id));
    }),
  );
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
      const client = await ctx.gatewayClient();
      inFlight(ctx, 'created the group (see `mediagw library groups list`)');
      printGroup(ctx, await client.library.groups.create(body as never, { signal: ctx.signal }));
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

  recordCommands(groups, {
    noun: 'group',
    idText: 'group ID',
    id: 'grp_123',
    collection: (client) => client.library.groups,
    print: printGroup,
    update: {
      description: 'rename or describe a group',
      flags: (command) =>
        command.option('--name <name>', 'the new name').option('--description <text>', 'the new description'),
      fields: (flags) => ({ name: flags.name, description: flags.description }),
      example: '--name "summer campaign"',
    },
    deleteDescription: 'delete an empty group',
    deleted: (deleted) => `deleted group ${deleted.id}`,
  });

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
      refuseIdleWaitFlags(flags, flags.wait);
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
      ctx.during({
        message:
          'Stopped while the submission was in flight: the gateway may have created the review task ' +
          '(and its group and materials). Nothing was resubmitted; check `mediagw library assets list` ' +
          'before submitting again.',
      });
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

  recordCommands(assets, {
    noun: 'material',
    idText: 'asset ID',
    id: 'asset_123',
    collection: (client) => client.library.assets,
    print: printAsset,
    update: {
      description: 'rename a material',
      flags: (command) => command.option('--name <name>', 'the new name'),
      fields: (flags) => ({ name: flags.name }),
      example: '--name hero',
    },
    deleteDescription: 'delete a material',
    deleted: (deleted, id) => `deleted asset ${(deleted as { id?: string }).id ?? id}`,
  });
}
