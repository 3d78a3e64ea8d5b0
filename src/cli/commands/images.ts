/** `mediagw images generate|edit`. */
import type { Command } from 'commander';
import { fileFromPath, type ImageData } from '../../index.js';
import type { Context } from '../context.js';
import { CliError } from '../exit-codes.js';
import { checkArgument, collect, integer, requestBody } from '../input.js';
import { saveImages, type TaskRef } from '../tasks.js';
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

interface ImageFlags extends RequestFlags {
  model?: string;
  prompt?: string;
  size?: string;
  n?: number;
  async?: boolean;
  image?: string[];
  mask?: string;
  clientReferenceId?: string;
}

function commonFlags(command: Command): Command {
  bodyFlags(command)
    .option('-m, --model <model>', 'model ID, e.g. imgmodel-2')
    .option('-p, --prompt <text>', 'what to draw')
    .option('--size <WxH>', 'pixel size, e.g. 1024x1024')
    .option('-n, --n <count>', 'how many images', integer('--n'))
    .option(
      '--client-reference-id <ref>',
      'your reference, echoed in webhook events (with --wait or --async)',
    )
    .option('--async', 'submit as a task and print its ID without waiting')
    .option('-o, --output <file>', 'save the image(s) there (several: name-1.png, name-2.png, ...)');
  return waitFlags(command, 'the image task');
}

async function fieldsOf(flags: ImageFlags, ctx: Context): Promise<Record<string, unknown>> {
  if (flags.async && flags.output && !flags.wait)
    throw new CliError('--output needs the images: add --wait, or drop --async');
  refuseIdleWaitFlags(flags, flags.wait);
  return requestBody(flags, { model: flags.model, prompt: flags.prompt, size: flags.size, n: flags.n }, ctx);
}

/** Prints a synchronous answer: the image URLs (or that bytes came inline) and the files saved. */
function printImages(ctx: Context, data: ImageData[], saved: string[], response: unknown): void {
  const out = ctx.output;
  out.result({ ...(response as object), ...(saved.length ? { saved } : {}) }, () => [
    ...data.map((d, i) => `${out.color.dim(`image ${i + 1}`)}  ${d.url ?? '(inline base64)'}`),
    ...saved.map((p) => `${out.color.dim('saved')}    ${p}`),
  ]);
}

/**
 * Sends an image request: the synchronous route (printing and saving its images) unless the
 * flags ask for a task, then the route's task, waited for with `--wait`.
 */
async function submit(
  ctx: Context,
  flags: ImageFlags,
  body: Record<string, unknown>,
  route: 'generate' | 'edit',
): Promise<void> {
  if (flags.clientReferenceId) {
    checkArgument(flags.clientReferenceId, '--client-reference-id');
    body.client_reference_id = flags.clientReferenceId;
  }
  const client = await ctx.gatewayClient();
  if (!flags.wait && !flags.async) {
    delete body.client_reference_id;
    submitting(ctx, { '--output': flags.output });
    const response = await client.images[route](body as never, { signal: ctx.signal });
    printImages(ctx, response.data, await saveImages(ctx, client, response.data, flags.output, {}), response);
    return;
  }
  submitting(ctx, { '--output': flags.output });
  const submission = await client.images[`${route}Async`](body as never, { signal: ctx.signal });
  const ref: TaskRef = { id: submission.task_id, kind: 'image', model: String(body.model) };
  await followTask(ctx, client, submission, ref, flags.wait ? flags : undefined, { output: flags.output });
}

/** Registers `images`. */
export function registerImages(program: Command): void {
  const images = program.command('images').description('generate and edit images');

  const generate = commonFlags(images.command('generate').description('generate images from a prompt'));
  examples(
    generate,
    'mediagw images generate -m imgmodel-2 -p "a paper crane" --output crane.png',
    'mediagw images generate -f request.json --wait --json',
  );
  generate.action(
    run(async (ctx, flags: ImageFlags) => {
      await submit(ctx, flags, await fieldsOf(flags, ctx), 'generate');
    }),
  );

  const edit = commonFlags(
    images
      .command('edit')
      .description('edit images: one or more source files and a prompt')
      .requiredOption('-i, --image <file>', 'a source image (repeat for several, in order)', collect)
      .option('--mask <file>', 'a mask image'),
  );
  examples(edit, 'mediagw images edit -m imgmodel-2 -i photo.png -p "make it snow" --output snowy.png');
  edit.action(
    run(async (ctx, flags: ImageFlags) => {
      const body = await fieldsOf(flags, ctx);
      const files = await Promise.all((flags.image ?? []).map((p) => fileFromPath(p)));
      body.image = files.length === 1 ? files[0] : files;
      if (flags.mask) body.mask = await fileFromPath(flags.mask);
      await submit(ctx, flags, body, 'edit');
    }),
  );
}
