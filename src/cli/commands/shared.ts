/**
 * Pieces the request commands share: the body and wait flags, help examples, and how a
 * submitted task is printed, waited for and saved.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Command } from 'commander';
import { type MediaGateway, type TaskSubmission, withExtraFields } from '../../index.js';
import { Context } from '../context.js';
import { CliError } from '../exit-codes.js';
import { type BodyOptions, integer, number } from '../input.js';
import type { Output } from '../output.js';
import {
  type AnyTask,
  type Saves,
  saveTaskMedia,
  type TaskRef,
  taskIdOf,
  taskStatus,
  type WaitFlags,
  waitCommandParts,
  waitWithProgress,
} from '../tasks.js';

/** Adds `--body` and `--file`. */
export function bodyFlags(command: Command): Command {
  return command
    .option('--body <json>', 'the request as JSON; flags override its fields')
    .option(
      '-f, --file <path>',
      'a JSON file holding the request (- for stdin); --body and flags override it',
    );
}

/** The longest delay a timer takes, as the SDK's durations: 2^31 - 1 ms, about 24.8 days. */
const MAX_TIMER_MS = 2_147_483_647;

/**
 * Adds `--wait`, `--timeout` and `--poll-interval`, checked as the flags are read: a request
 * command must refuse a wait it could not run before it submits (and bills) the request.
 */
export function waitFlags(command: Command, what = 'the task', withWait = true): Command {
  if (withWait) command.option('-w, --wait', `wait for ${what} to end, with a progress bar on stderr`);
  return command
    .option(
      '--timeout <seconds>',
      'deadline of the wait, in seconds (default: 600)',
      number('--timeout', 0.001, MAX_TIMER_MS / 1000),
    )
    .option(
      '--poll-interval <ms>',
      "milliseconds between queries while waiting (default: the spec's figure for the task kind)",
      integer('--poll-interval', 1, MAX_TIMER_MS),
    );
}

/**
 * Refuses `--timeout` and `--poll-interval` on a run that will not wait, before anything is
 * sent: they shape a wait, and would be ignored in silence.
 *
 * @throws CliError naming the flag.
 */
export function refuseIdleWaitFlags(flags: WaitFlags, waits: unknown): void {
  if (waits) return;
  const flag =
    flags.timeout !== undefined
      ? '--timeout'
      : flags.pollInterval !== undefined
        ? '--poll-interval'
        : undefined;
  if (flag)
    throw new CliError(`${flag} shapes a wait, and this run does not wait: add --wait, or drop ${flag}`);
}

/** Adds an `Example:` section to the command's help. */
export function examples(command: Command, ...lines: string[]): Command {
  return command.addHelpText(
    'after',
    `\nExample${lines.length > 1 ? 's' : ''}:\n${lines.map((l) => `  $ ${l}`).join('\n')}\n`,
  );
}

/** Options every request command has: the body and the wait flags. */
export type RequestFlags = BodyOptions & WaitFlags & { wait?: boolean; output?: string };

/**
 * Runs a command's body with its context, and always closes what the run started. Errors go
 * to the program, which prints them and picks the exit status.
 */
export function run<A extends unknown[]>(
  fn: (ctx: Context, ...args: A) => Promise<void>,
): (...args: [...A, Command]) => Promise<void> {
  return async (...args) => {
    const command = args[args.length - 1] as Command;
    const ctx = Context.of(command);
    activeContext = ctx;
    try {
      await fn(ctx, ...(args.slice(0, -1) as A));
    } finally {
      await ctx.close();
    }
  };
}

/** The context of the command being run, for the error report. */
export let activeContext: Context | undefined;

/**
 * Prints a submission that is not waited for, with the command that waits for it (none under
 * `--mock`, whose gateway ends with this command).
 */
export function printSubmission(ctx: Context, submission: TaskSubmission, ref: TaskRef): void {
  const out = ctx.output;
  const wait = ctx.finishCommand(waitCommandParts(ref));
  out.result({ task_id: submission.task_id, status: submission.status }, () => [
    `submitted task ${out.color.cyan(submission.task_id)} (${submission.status})`,
    wait
      ? `wait for it: ${wait}`
      : 'the mock gateway of --mock stops with this command, and the task with it',
  ]);
}

/**
 * What follows a task's submission: without `wait`, the submission is printed with the command
 * that waits for it; with it, the task ID is said at once (a stop during the wait cannot lose it),
 * then the task is waited for, what `saves` names is saved, and the task is printed.
 */
export async function followTask(
  ctx: Context,
  client: MediaGateway,
  submission: TaskSubmission,
  ref: TaskRef,
  wait: WaitFlags | undefined,
  saves: Saves,
): Promise<void> {
  if (!wait) return printSubmission(ctx, submission, ref);
  ctx.output.info(`submitted task ${ctx.output.errColor.cyan(ref.id)}`);
  await waitSaveAndPrint(ctx, client, ref, wait, saves);
}

/** Waits for a task, saves what `saves` names once it succeeded, and prints the task. */
export async function waitSaveAndPrint(
  ctx: Context,
  client: MediaGateway,
  ref: TaskRef,
  wait: WaitFlags,
  saves: Saves,
): Promise<void> {
  const task = await waitWithProgress(ctx, client, ref, wait, saves);
  const saved = await saveTaskMedia(ctx, client, ref, task, saves);
  printTask(ctx.output, task, saved.length ? { saved } : {});
}

/** Prints a record: as JSON, or as `rows` of labelled fields for people. */
export function printRecord(ctx: Context, record: unknown, rows: Array<[string, unknown]>): void {
  ctx.output.result(record, () => ctx.output.fields(rows));
}

/**
 * Marks a billable submission in flight: a signal now may leave a task created (and billed)
 * whose ID the command never saw, so its message says to check before submitting again. The
 * files the command is to save are checked first (see {@link checkOutputs}).
 */
/**
 * Says, before a request that changes something is sent, what a signal then leaves: the gateway
 * may have done `what` (e.g. "created the group"), and nothing is sent again.
 */
export function inFlight(ctx: Context, what: string): void {
  ctx.during({
    message: `Stopped while the request was in flight: the gateway may have ${what}. Nothing was sent again; check before sending it again.`,
  });
}

export function submitting(ctx: Context, outputs: Record<string, string | undefined> = {}): void {
  checkOutputs(outputs);
  ctx.during({
    message:
      'Stopped while the submission was in flight: the gateway may have created the task, and billed it. ' +
      'Nothing was resubmitted; check your tasks before submitting again.',
  });
}

/**
 * Checks, before a billable request is sent, that the files it is to save can be written
 * there: their folders exist, and none of them is a folder. Else the task would be billed and
 * its media not saved.
 * @throws CliError naming the flag, before anything is sent.
 */
function checkOutputs(paths: Record<string, string | undefined>): void {
  for (const [flag, path] of Object.entries(paths)) {
    if (path === undefined) continue;
    const refuse = (why: string) => new CliError(`${flag} ${path}${why} (nothing was sent)`);
    // A path through a file (`notes.txt/k.mp4`) is ENOTDIR from some Node versions' stat, and
    // missing from others': both are told as what they are.
    const stat = (at: string) => {
      try {
        return statSync(at, { throwIfNoEntry: false });
      } catch {
        throw refuse(': a part of the path is a file, not a folder');
      }
    };
    // `out/` names a folder whether or not it exists.
    if (/[\\/]$/.test(path) || stat(path)?.isDirectory())
      throw refuse(' is a folder: give the path of a file');
    const folder = dirname(resolve(path));
    const parent = stat(folder);
    if (!parent) throw refuse(`: the folder ${folder} does not exist; create it first`);
    if (!parent.isDirectory()) throw refuse(': a part of the path is a file, not a folder');
    try {
      accessSync(folder, constants.W_OK);
    } catch {
      throw refuse(`: the folder ${folder} may not be written to`);
    }
  }
}

/**
 * Prints a task as queried: its fields for people, or the task as JSON. `extra` is added to
 * both; `human` only to the lines for people.
 */
export function printTask(
  out: Output,
  task: AnyTask,
  extra: Record<string, unknown> = {},
  human: Record<string, unknown> = {},
): void {
  const { status, percent } = taskStatus(task);
  const t = withExtraFields(task);
  const images = (task as { images?: Array<{ url: string }> }).images;
  const paint = /fail|error/i.test(status)
    ? out.color.red
    : /complet|succe/i.test(status)
      ? out.color.green
      : out.color.yellow;
  out.result({ ...t, ...extra }, () =>
    out.fields([
      ['task', taskIdOf(task)],
      ['status', paint(status)],
      ['progress', percent === undefined ? undefined : `${percent}%`],
      ['model', t.model],
      ['url', t.url],
      ['images', images?.map((i) => i.url).join('\n')],
      ['error', t.error ? JSON.stringify(t.error) : undefined],
      ['actual_time', t.actual_time === undefined ? undefined : `${t.actual_time} s`],
      ...Object.entries({ ...extra, ...human }).map(([k, v]): [string, unknown] => [
        k,
        Array.isArray(v) ? v.join(', ') : v,
      ]),
    ]),
  );
}

/** The client of the run. */
export function clientOf(ctx: Context): Promise<MediaGateway> {
  return ctx.gatewayClient();
}

/** What the signing-key flags of `webhooks`, `mock --forward-to` and `jobs --events-port` default to. */
const KEY_ID_DEFAULT = 'kid_local';

/**
 * A webhook signing key's ID: the flag, else `MEDIAGW_WEBHOOK_KEY_ID` (the name the docs give
 * receivers), else `MEDIAGW_WEBHOOK_KID` (its older name), else `kid_local`.
 */
export function webhookKeyId(flag: string | undefined): string {
  const { MEDIAGW_WEBHOOK_KEY_ID: keyId, MEDIAGW_WEBHOOK_KID: kid } = process.env;
  return flag ?? (keyId || kid || KEY_ID_DEFAULT);
}

/** The help text of a key-ID flag. */
export const KEY_ID_HELP = `default: $MEDIAGW_WEBHOOK_KEY_ID or ${KEY_ID_DEFAULT}`;
