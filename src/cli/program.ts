/**
 * The `mediagw` program: global flags, the commands, and how a failure becomes a message and
 * an exit status. Every command talks to the gateway through the public client only.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Command, CommanderError } from 'commander';
import { APIError, RequestValidationError, TaskFailedError, VERSION } from '../index.js';
import { registerEmbeddingsAndUploads } from './commands/embeddings.js';
import { registerImages } from './commands/images.js';
import { registerJobs } from './commands/jobs.js';
import { registerLibrary } from './commands/library.js';
import { registerMock } from './commands/mock.js';
import { activeContext, examples } from './commands/shared.js';
import { registerTasks } from './commands/tasks.js';
import { registerValidate } from './commands/validate.js';
import { registerVideos } from './commands/videos.js';
import { registerWebhooks } from './commands/webhooks.js';
import { Context } from './context.js';
import { CliError, EXIT, errorType, exitCodeFor } from './exit-codes.js';
import { integer } from './input.js';
import { Interrupt } from './interrupt.js';

const EXIT_HELP = `
Exit status:
  0    success
  1    usage error, or a request the SDK refused before sending it (validation)
  2    the gateway refused the request or could not be reached
  3    the task failed
  4    a wait's deadline passed (the task goes on)
  5    a submission was sent but its outcome is unknown: check before resubmitting
  130  interrupted (Ctrl+C, SIGINT): what was in flight stops, no partial file is left, the
       task goes on, and the command that finishes the job is printed when there is one
  143  stopped by SIGTERM, as for 130

Environment:
  MEDIAGW_API_KEY    API key (the key is never printed, not even with --verbose)
  MEDIAGW_BASE_URL   gateway base URL, e.g. https://api.example.com
  NO_COLOR           plain output on a terminal too
`;

/** Builds the program; `name` is how it was invoked (`mediagw`, or `mediagw-mock` for the alias). */
export function buildProgram(name = 'mediagw'): Command {
  const program = new Command(name)
    .description('The Media Generation Gateway from the terminal, built on the mediagw SDK.')
    .version(VERSION, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help for a command')
    .option('--api-key <key>', 'API key (default: $MEDIAGW_API_KEY); never printed')
    .option('--base-url <url>', 'gateway base URL (default: $MEDIAGW_BASE_URL)')
    .option('--mock', 'run against a mock gateway started inside this command: no key, no network')
    .option('--json', 'print exactly one JSON document per result on stdout')
    // picocolors reads --no-color from argv itself; declared here so the parser accepts it.
    .option('--no-color', 'plain output on a terminal too (also NO_COLOR=1)')
    .option('-v, --verbose', 'print each request and answer on stderr (never the key)')
    .option(
      '--max-retries <n>',
      'retries of requests that are safe to retry (default: 2)',
      integer('--max-retries'),
    )
    .showSuggestionAfterError()
    .exitOverride();
  examples(
    program,
    'mediagw --mock images generate -m imgmodel-2 -p "a paper crane" --output crane.png',
    'mediagw videos create -m vidmodel-2.0-mini -p "a red kite" -d 5 --output kite.mp4',
    'mediagw validate request.json',
  );
  program.addHelpText('after', EXIT_HELP);
  registerImages(program);
  registerVideos(program);
  registerEmbeddingsAndUploads(program);
  registerLibrary(program);
  registerTasks(program);
  registerJobs(program);
  registerValidate(program);
  registerWebhooks(program);
  registerMock(program);
  for (const command of allCommands(program)) command.exitOverride();
  return program;
}

function allCommands(command: Command): Command[] {
  return command.commands.flatMap((c) => [c, ...allCommands(c)]);
}

/** Writes the error for people (stderr) or as one JSON document (stdout, with `--json`). */
function report(ctx: Context, error: unknown, code: number): void {
  const out = ctx.output;
  const message = error instanceof Error ? error.message : String(error);
  // A CliError that tells more of an SDK error (a task's ID and how to resume) reports its type.
  const source = error instanceof CliError && error.cause !== undefined ? error.cause : error;
  if (out.json) {
    const doc: Record<string, unknown> = { type: errorType(source), message, exit_code: code };
    if (error instanceof CliError) {
      for (const [k, v] of Object.entries(error.details))
        doc[k.replace(/[A-Z]/g, (m) => `_${m.toLowerCase()}`)] = v;
    }
    if (error instanceof RequestValidationError) doc.issues = error.issues;
    if (source instanceof APIError)
      Object.assign(doc, { status: source.status, code: source.code, request_id: source.requestId });
    if (error instanceof TaskFailedError)
      Object.assign(doc, { task_id: error.taskId, code: error.code, task: error.task });
    out.stdout.write(`${JSON.stringify({ error: doc })}\n`);
    return;
  }
  if (error instanceof RequestValidationError) {
    out.error(`${error.message.split(':')[0]}:`);
    for (const issue of error.issues)
      out.info(`    ${out.errColor.bold(issue.path || '(request)')}: ${issue.message}`);
    return;
  }
  if (code === EXIT.interrupted || code === EXIT.terminated) {
    out.info(message);
    return;
  }
  out.error(message);
  if (error instanceof TaskFailedError)
    out.info(`  task ${error.taskId} ended failed; nothing was resubmitted.`);
  if (source instanceof APIError && source.requestId) out.info(`  request ID: ${source.requestId}`);
}

/**
 * Whether `--json` is among the flags (before a `--`), read before anything is parsed: a flag
 * that fails to parse ahead of it must still get its one JSON document.
 */
function wantsJson(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).includes('--json');
}

/** How long a command stopped by a signal may take to tidy up (abort, remove a temporary file). */
const TIDY_UP_MS = 5_000;

/**
 * Runs the program with `argv` (without the node and script paths) and resolves with the exit
 * status. Never throws. SIGINT, SIGTERM and SIGHUP are handled for the whole run: the first one
 * aborts what is in flight and ends the command with 130, 143 or 129 and one message; a second one ends it
 * without waiting for it to tidy up.
 */
export async function main(argv: string[], name = 'mediagw'): Promise<number> {
  const json = wantsJson(argv);
  const program = buildProgram(name);
  const interrupt = new Interrupt();
  Context.runInterrupt = interrupt;
  const unlisten = interrupt.listen();
  try {
    const settled = program.parseAsync(argv, { from: 'user' }).then(
      () => ({ error: undefined, failed: false }),
      (error: unknown) => ({ error, failed: true }),
    );
    let outcome = await Promise.race([settled, interrupt.arrived().then(() => undefined)]);
    if (!outcome && interrupt.commandHandlesSignals) outcome = await settled;
    if (!outcome) {
      // Let the command abort and tidy up (a download removes its temporary file), bounded.
      const tidied = new AbortController();
      outcome = await Promise.race([
        settled,
        interrupt.arrivedAgain().then(() => undefined),
        sleep(TIDY_UP_MS, undefined, { signal: tidied.signal }).catch(() => undefined),
      ]);
      tidied.abort();
    }
    if (interrupt.signalled && !interrupt.commandHandlesSignals && (!outcome || outcome.failed))
      return fail(program, json, interrupt.error());
    if (outcome?.failed) return fail(program, json, outcome.error);
    return typeof process.exitCode === 'number' ? process.exitCode : EXIT.ok;
  } finally {
    unlisten();
  }
}

/** Prints a failure (one JSON document with `--json`) and returns its exit status. */
function fail(program: Command, json: boolean, error: unknown): number {
  if (error instanceof CommanderError) {
    // Help and --version end with code 0; parse errors have been printed by commander, and
    // scripts that asked for --json get them as a document too.
    if (error.exitCode === 0) return EXIT.ok;
    if (json) {
      const message = error.message.replace(/^error: /, '');
      process.stdout.write(
        `${JSON.stringify({ error: { type: 'UsageError', message, exit_code: EXIT.usage } })}\n`,
      );
    }
    return EXIT.usage;
  }
  const ctx = activeContext ?? new Context({ ...program.opts(), ...(json ? { json: true } : {}) });
  const code = exitCodeFor(error);
  report(ctx, error, code);
  if (
    code === EXIT.usage &&
    !(error instanceof CliError) &&
    !(error instanceof RequestValidationError) &&
    ctx.output.verbose
  )
    ctx.output.debug(String((error as Error)?.stack ?? error));
  return code;
}
