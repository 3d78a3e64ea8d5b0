/**
 * `mediagw validate FILE…` and `mediagw estimate FILE`: the SDK's own checks and reservation
 * estimate, offline. No key, no network: usable in any CI.
 */
import type { Command } from 'commander';
import {
  EMBEDDING_MODELS,
  estimateReservation,
  IMAGE_MODELS,
  operationForModel,
  REQUEST_OPERATIONS,
  type RequestOperation,
  type ReservationHints,
  VIDEO_MODELS,
  validateRequest,
} from '../../index.js';
import { CliError, EXIT } from '../exit-codes.js';
import { collect, number, readJsonFile } from '../input.js';
import { examples, run } from './shared.js';

interface ValidateFlags {
  as?: string;
}

interface EstimateFlags {
  videoDuration?: string[];
  referenceVideoSeconds?: number;
  previewDuration?: number;
  price?: string[];
}

/** Every model a request kind can be read from. */
const KNOWN_MODELS: readonly string[] = [...VIDEO_MODELS, ...IMAGE_MODELS, ...EMBEDDING_MODELS];

function operationOf(body: unknown, as: string | undefined, file: string): RequestOperation {
  if (as !== undefined) return as as RequestOperation;
  const operation = operationForModel(body);
  if (operation) return operation;
  const model = (body as { model?: unknown } | null)?.model;
  if (typeof model === 'string')
    throw new CliError(
      `${file}: unknown model ${model} (known: ${KNOWN_MODELS.join(', ')}); or pass --as (${REQUEST_OPERATIONS.join(', ')})`,
    );
  throw new CliError(
    `${file}: its model does not say which request it is; pass --as (${REQUEST_OPERATIONS.join(', ')})`,
  );
}

function prices(values: string[] | undefined): Record<string, number> | undefined {
  if (!values) return undefined;
  const out: Record<string, number> = {};
  for (const value of values) {
    const [tier, price] = value.split('=');
    const n = Number(price);
    if (!tier || price === undefined || !Number.isFinite(n))
      throw new CliError(`--price takes TIER=PRICE, e.g. 720P-input=0.12; got ${value}`);
    out[tier] = n;
  }
  return out;
}

/** The SDK's notes name its hint options; on the command line they are flags. */
function flagNames(note: string): string {
  return note
    .replace('pass hints.videoDurations', 'pass --video-duration')
    .replace('pass hints.previewDuration', 'pass --preview-duration')
    .replace('hints.videoDurations', '--video-duration')
    .replace('hints.prices', '--price');
}

/** Registers `validate` and `estimate`. */
export function registerValidate(program: Command): void {
  const validate = program
    .command('validate')
    .description(
      "check request files against the gateway's rules, offline (no key, no network); exit 1 if any breaks one",
    )
    .argument('<files...>', 'JSON request files')
    .option(
      '--as <operation>',
      `which request the files are: ${REQUEST_OPERATIONS.join(', ')} (default: from the model)`,
    );
  examples(validate, 'mediagw validate request.json', 'mediagw validate requests/*.json --json');
  validate.action(
    run(async (ctx, files: string[], flags: ValidateFlags) => {
      const out = ctx.output;
      if (flags.as !== undefined && !(REQUEST_OPERATIONS as readonly string[]).includes(flags.as))
        throw new CliError(`--as must be one of ${REQUEST_OPERATIONS.join(', ')}; got ${flags.as}`);
      let invalid = 0;
      // Every file is checked and reported, whatever the ones before it held.
      for (const file of files) {
        let operation: RequestOperation;
        let issues: ReturnType<typeof validateRequest>;
        try {
          const body = await readJsonFile(file, ctx.signal);
          operation = operationOf(body, flags.as, file);
          issues = validateRequest(operation, body);
        } catch (error) {
          // Stopped by a signal: the run ends with its status and message, not a bad file.
          if (!(error instanceof CliError) || ctx.signal.aborted) throw error;
          invalid++;
          // For people, on stderr as any error; with --json, one document per file all the same.
          const message = error.message.includes(file) ? error.message : `${file}: ${error.message}`;
          if (out.json) out.result({ file, operation: null, valid: false, issues: [], message });
          else out.error(message);
          continue;
        }
        if (issues.length) invalid++;
        out.result({ file, operation, valid: issues.length === 0, issues }, () =>
          issues.length === 0
            ? `${out.color.green('✓')} ${file} (${operation})`
            : [
                `${out.color.red('✗')} ${file} (${operation}): ${issues.length} broken rule${issues.length > 1 ? 's' : ''}`,
                ...issues.map((i) => `    ${out.color.bold(i.path || '(request)')}: ${i.message}`),
              ],
        );
      }
      if (invalid) process.exitCode = EXIT.usage;
    }),
  );

  const estimate = program
    .command('estimate')
    .description('the seconds and tier a video request reserves, by the billing rules, offline')
    .argument('<file>', 'a JSON videos.create request')
    .option('--video-duration <seconds>', 'length of each video_urls entry, in order (repeat)', collect)
    .option(
      '--reference-video-seconds <s>',
      'motion control: length of the reference video',
      number('--reference-video-seconds'),
    )
    .option(
      '--preview-duration <s>',
      "upgrades: the preview's duration (-1 counts as 30)",
      number('--preview-duration'),
    )
    .option(
      '--price <tier=price>',
      'price per second of a tier, e.g. 720P-input=0.12 (repeat); adds the cost',
      collect,
    );
  examples(
    estimate,
    'mediagw estimate request.json',
    'mediagw estimate request.json --video-duration 3.2 --price 720P-input=0.1 --json',
  );
  estimate.action(
    run(async (ctx, file: string, flags: EstimateFlags) => {
      const body = await readJsonFile(file, ctx.signal);
      const hints: ReservationHints = {};
      if (flags.videoDuration)
        hints.videoDurations = flags.videoDuration.map((v) => number('--video-duration')(v));
      if (flags.referenceVideoSeconds !== undefined)
        hints.referenceVideoSeconds = flags.referenceVideoSeconds;
      if (flags.previewDuration !== undefined) hints.previewDuration = flags.previewDuration;
      const priced = prices(flags.price);
      if (priced) hints.prices = priced;
      const result = estimateReservation(body as never, hints);
      const out = ctx.output;
      out.result(result, () => [
        ...out.fields([
          ['model', result.model],
          ['reserves', `${result.seconds} s at tier ${result.tier}`],
          ['generated', `${result.billableSeconds.generated} s`],
          ['reference video', `${result.billableSeconds.referenceVideo} s`],
          ['cost', result.cost],
        ]),
        ...result.notes.map((n) => out.color.dim(`note: ${flagNames(n)}`)),
      ]);
    }),
  );
}
