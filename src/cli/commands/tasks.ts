/** `mediagw tasks get|wait <id>`. */
import type { Command } from 'commander';
import { CliError } from '../exit-codes.js';
import { getTask, taskRef } from '../tasks.js';
import { examples, printTask, run, waitFlags, waitSaveAndPrint } from './shared.js';

interface TaskFlags {
  kind?: string;
  model?: string;
  output?: string;
  lastFrame?: string;
  timeout?: number;
  pollInterval?: number;
}

function refFlags(command: Command): Command {
  return command
    .option('--kind <kind>', 'video, image or review (default: from the ID, else video)')
    .option('-m, --model <model>', 'the model the task was submitted with (needed for image tasks)');
}

/** Registers `tasks`. */
export function registerTasks(program: Command): void {
  const tasks = program.command('tasks').description('query and wait for tasks');

  const get = refFlags(tasks.command('get').description('show a task once').argument('<id>', 'task ID'));
  examples(get, 'mediagw tasks get cgt-20261125-abc', 'mediagw tasks get task_abc --model imgmodel-2 --json');
  get.action(
    run(async (ctx, id: string, flags: TaskFlags) => {
      const ref = taskRef(id, flags.kind, flags.model);
      const client = await ctx.gatewayClient();
      printTask(ctx.output, await getTask(client, ref, { signal: ctx.signal }));
    }),
  );

  const wait = waitFlags(
    refFlags(
      tasks
        .command('wait')
        .description('wait for a task to end, with a progress bar; Ctrl+C stops waiting, never the task')
        .argument('<id>', 'task ID'),
    )
      .option('-o, --output <file>', 'once the task succeeded, save its video or image(s) there')
      .option('--last-frame <file>', 'once a video task succeeded, save its last frame there'),
    'the task',
    false,
  );
  examples(
    wait,
    'mediagw tasks wait cgt-20261125-abc --output kite.mp4',
    'mediagw tasks wait task_abc --model imgmodel-2 --timeout 120',
  );
  wait.action(
    run(async (ctx, id: string, flags: TaskFlags) => {
      const ref = taskRef(id, flags.kind, flags.model);
      const client = await ctx.gatewayClient();
      if (flags.lastFrame && ref.kind !== 'video')
        throw new CliError('--last-frame saves the last frame of a video task');
      if (flags.output && ref.kind === 'review')
        throw new CliError('--output saves the result of a video or image task; a review task has no media');
      await waitSaveAndPrint(ctx, client, ref, flags, { output: flags.output, lastFrame: flags.lastFrame });
    }),
  );
}
