/** `mediagw tasks get|wait <id>`. */
import type { Command } from 'commander';
import type { ImageTask } from '../../index.js';
import { CliError } from '../exit-codes.js';
import { getTask, numberedPath, saveWithProgress, taskRef, waitWithProgress } from '../tasks.js';
import { examples, printTask, run, waitFlags } from './shared.js';

interface TaskFlags {
  kind?: string;
  model?: string;
  output?: string;
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
      printTask(ctx.output, await getTask(client, ref));
    }),
  );

  const wait = waitFlags(
    refFlags(
      tasks
        .command('wait')
        .description('wait for a task to end, with a progress bar; Ctrl+C stops waiting, never the task')
        .argument('<id>', 'task ID'),
    ).option('-o, --output <file>', 'once the task succeeded, save its video or image(s) there'),
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
      const task = await waitWithProgress(client, ctx.output, ref, flags);
      const saved: string[] = [];
      if (flags.output && ref.kind === 'video') {
        await saveWithProgress(ctx.output, await client.videos.downloadContent(ref.id), flags.output);
        saved.push(flags.output);
      } else if (flags.output && ref.kind === 'image') {
        const { images } = task as ImageTask;
        for (const [i, image] of images.entries()) {
          const path = numberedPath(flags.output, i, images.length);
          await saveWithProgress(ctx.output, await client.images.download(image), path);
          saved.push(path);
        }
      } else if (flags.output) {
        throw new CliError('--output saves the result of a video or image task; a review task has no media');
      }
      printTask(ctx.output, task, saved.length ? { saved } : {});
    }),
  );
}
