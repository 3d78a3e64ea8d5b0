/** `mediagw embeddings create` and `mediagw uploads create`. */
import type { Command } from 'commander';
import { type EmbeddingsResponse, fileFromPath } from '../../index.js';
import { collect, integer, requestBody } from '../input.js';
import { bodyFlags, examples, inFlight, printRecord, run } from './shared.js';

interface EmbeddingFlags {
  body?: string;
  file?: string;
  model?: string;
  input?: string[];
  dimensions?: number;
}

/** Registers `embeddings` and `uploads`. */
export function registerEmbeddingsAndUploads(program: Command): void {
  const embeddings = program.command('embeddings').description('turn text into vectors');
  const create = bodyFlags(embeddings.command('create').description('embed one or more texts'))
    .option('-m, --model <model>', 'model ID, e.g. text-embedding-3-small or bge-m3')
    .option('-i, --input <text>', 'a text to embed (repeat for several)', collect)
    .option('--dimensions <n>', 'length of each vector', integer('--dimensions'));
  examples(
    create,
    'mediagw embeddings create -m text-embedding-3-small -i "red kite" -i "paper crane" --json',
  );
  create.action(
    run(async (ctx, flags: EmbeddingFlags) => {
      const input =
        flags.input === undefined ? undefined : flags.input.length === 1 ? flags.input[0] : flags.input;
      const body = await requestBody(flags, { model: flags.model, input, dimensions: flags.dimensions }, ctx);
      const client = await ctx.gatewayClient();
      inFlight(ctx, 'computed the embeddings, and billed them');
      const response: EmbeddingsResponse = await client.embeddings.create(body as never, {
        signal: ctx.signal,
      });
      const out = ctx.output;
      out.result(response, () => [
        ...out.table(
          ['index', 'dimensions', 'first values'],
          response.data.map((e) => [
            e.index,
            Array.isArray(e.embedding) ? e.embedding.length : 'base64',
            Array.isArray(e.embedding)
              ? `${e.embedding
                  .slice(0, 4)
                  .map((v) => v.toFixed(4))
                  .join(', ')}, ...`
              : '',
          ]),
        ),
        out.color.dim(`model ${response.model}; use --json for the full vectors`),
      ]);
    }),
  );

  const uploads = program.command('uploads').description('upload files for use in requests');
  const upload = uploads
    .command('create')
    .description('upload an image; prints the URL to use in requests')
    .argument('<file>', 'the image file');
  examples(
    upload,
    'mediagw uploads create ./photo.png',
    'mediagw uploads create ./photo.png --json | jq -r .url',
  );
  upload.action(
    run(async (ctx, file: string) => {
      const client = await ctx.gatewayClient();
      const image = await fileFromPath(file);
      ctx.during({
        message: `Stopped during the upload of ${file}: the gateway may or may not have stored it. Uploads are not billed: run the command again.`,
      });
      const uploaded = await client.uploads.image(image, { signal: ctx.signal });
      printRecord(ctx, uploaded, [
        ['url', uploaded.url],
        ['filename', uploaded.filename],
        ['type', uploaded.content_type],
        ['bytes', uploaded.bytes],
      ]);
    }),
  );
}
