/** `mediagw videos create`. */
import type { Command } from 'commander';
import { CliError } from '../exit-codes.js';
import { integer, requestBody } from '../input.js';
import type { TaskRef } from '../tasks.js';
import {
  bodyFlags,
  examples,
  followTask,
  type RequestFlags,
  refuseIdleWaitFlags,
  run,
  submitting,
  waitFlags,
} from './shared.js';

interface VideoFlags extends RequestFlags {
  model?: string;
  prompt?: string;
  duration?: number;
  resolution?: string;
  ratio?: string;
  clientReferenceId?: string;
  lastFrame?: string;
}

/** Registers `videos`. */
export function registerVideos(program: Command): void {
  const videos = program.command('videos').description('generate videos');
  const create = waitFlags(
    bodyFlags(videos.command('create').description('submit a video generation task'))
      .option('-m, --model <model>', 'model ID, e.g. vidmodel-2.0-mini or vidmodel-2.5')
      .option('-p, --prompt <text>', 'what to film')
      .option('-d, --duration <seconds>', 'length of the video in seconds', integer('--duration'))
      .option('--resolution <res>', 'e.g. 720p')
      .option('--ratio <ratio>', 'aspect ratio, e.g. 16:9')
      .option('--client-reference-id <ref>', 'your reference, echoed in webhook events')
      .option(
        '-o, --output <file>',
        'wait, then stream the video there with a byte progress bar (implies --wait)',
      )
      .option('--last-frame <file>', 'wait, then save the last frame there (needs return_last_frame: true)'),
    'the video',
  );
  examples(
    create,
    'mediagw videos create -m vidmodel-2.0-mini -p "a red kite over dunes" -d 5 --output kite.mp4',
    'mediagw videos create -f request.json --wait --json',
  );
  create.action(
    run(async (ctx, flags: VideoFlags) => {
      const waits = flags.wait || flags.output || flags.lastFrame;
      refuseIdleWaitFlags(flags, waits);
      const body = await requestBody(
        flags,
        {
          model: flags.model,
          prompt: flags.prompt,
          duration: flags.duration,
          resolution: flags.resolution,
          ratio: flags.ratio,
          client_reference_id: flags.clientReferenceId,
        },
        ctx,
      );
      // Without it the task has no last frame: the video would be billed and the save refused.
      if (flags.lastFrame && body.return_last_frame !== true)
        throw new CliError(
          '--last-frame needs a request that asks for the frame ("return_last_frame": true, in -f or --body); nothing was sent',
        );
      const client = await ctx.gatewayClient();
      submitting(ctx, { '--output': flags.output, '--last-frame': flags.lastFrame });
      const submission = await client.videos.create(body as never, { signal: ctx.signal });
      const ref: TaskRef = { id: submission.task_id, kind: 'video', model: body.model as string | undefined };
      const wait = waits ? flags : undefined;
      await followTask(ctx, client, submission, ref, wait, {
        output: flags.output,
        lastFrame: flags.lastFrame,
      });
    }),
  );
}
