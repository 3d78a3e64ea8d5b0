/**
 * `mediagw webhooks sign|send`: a correctly signed delivery of a realistic event, printed or
 * POSTed to your receiver, with what the gateway would make of the answer.
 */
import type { Command } from 'commander';
import {
  deliveryVerdict,
  postWebhookDelivery,
  verificationVerdict,
  type WebhookPostOutcome,
  webhookDeliveryBody,
} from '../../testing/index.js';
import { signWebhook, type WebhookSignatureHeaders } from '../../webhooks/index.js';
import type { Context } from '../context.js';
import { CliError, EXIT } from '../exit-codes.js';
import { integer, readTextFile, receiverURL } from '../input.js';
import { shownURL } from '../output.js';
import { environmentProxy } from '../proxy.js';
import { EVENT_KINDS, EVENT_TYPES, sampleEvent } from '../webhook-events.js';
import { examples, KEY_ID_HELP, run, webhookKeyId } from './shared.js';

interface SignFlags {
  secret?: string;
  kid?: string;
  previousSecret?: string;
  previousKid?: string;
  usePrevious?: boolean;
  skew?: number;
  type?: string;
  kind?: string;
  model?: string;
  taskId?: string;
  clientReferenceId?: string;
  event?: string;
}

function signingFlags(command: Command): Command {
  return command
    .option('--secret <secret>', 'the signing secret (default: $MEDIAGW_WEBHOOK_SECRET); never printed')
    .option('--kid <id>', `its key ID (${KEY_ID_HELP})`)
    .option('--previous-secret <secret>', 'the secret before the last rotation')
    .option('--previous-kid <id>', 'its key ID (default: kid_previous)')
    .option('--use-previous', 'sign with the previous secret, as during a rotation')
    .option(
      '--skew <seconds>',
      'shift the signed timestamp (e.g. -400 for one past the 300 s tolerance)',
      integer('--skew'),
    )
    .option('--type <type>', `event type: ${EVENT_TYPES.join(', ')} (default: task.completed)`)
    .option('--kind <kind>', `task kind: ${EVENT_KINDS.join(', ')} (default: video)`)
    .option('-m, --model <model>', 'model named in the event')
    .option('--task-id <id>', 'task ID named in the event')
    .option('--client-reference-id <ref>', 'client_reference_id echoed in the event')
    .option('--event <file>', 'send this JSON body instead of a generated event (its id is the event ID)');
}

interface SignedDelivery {
  body: string;
  headers: WebhookSignatureHeaders;
  keyId: string;
}

async function signed(flags: SignFlags, signal: AbortSignal): Promise<SignedDelivery> {
  const current = flags.secret ?? process.env.MEDIAGW_WEBHOOK_SECRET;
  const kid = webhookKeyId(flags.kid);
  const secret = flags.usePrevious ? flags.previousSecret : current;
  const keyId = flags.usePrevious ? (flags.previousKid ?? 'kid_previous') : kid;
  if (!secret)
    throw new CliError(
      flags.usePrevious
        ? '--use-previous needs --previous-secret'
        : 'no signing secret: pass --secret or set MEDIAGW_WEBHOOK_SECRET',
    );
  let body: string;
  if (flags.event) {
    // With the run's signal: a FIFO nobody writes to, or a terminal, is left at Ctrl+C.
    body = await readTextFile(flags.event, { signal });
    let id: unknown;
    try {
      id = (JSON.parse(body) as { id?: unknown } | null)?.id;
    } catch {
      throw new CliError(`--event ${flags.event} is not JSON: give the event's body as the gateway sends it`);
    }
    if (typeof id !== 'string' || !id)
      throw new CliError(`--event ${flags.event} has no "id": the event's id is its event ID, a string`);
  } else {
    body = webhookDeliveryBody(
      sampleEvent({
        type: flags.type,
        kind: flags.kind,
        model: flags.model,
        taskId: flags.taskId,
        clientReferenceId: flags.clientReferenceId,
        baseUrl: process.env.MEDIAGW_BASE_URL,
      }),
    );
  }
  const timestamp = Math.floor(Date.now() / 1000) + (flags.skew ?? 0);
  if (!(timestamp >= 0 && timestamp < 1e11))
    throw new CliError(`--skew ${flags.skew} takes the timestamp out of Unix seconds: give a smaller shift`);
  try {
    return { body, headers: signWebhook({ body, secret, keyId, timestamp }), keyId };
  } catch (error) {
    throw new CliError((error as Error).message);
  }
}

function printHeaders(ctx: Context, headers: WebhookSignatureHeaders): string[] {
  return Object.entries(headers).map(([name, value]) => `${ctx.output.color.dim(`${name}:`)} ${value}`);
}

/** What `webhooks send` says of the answer to a verification challenge. spec: Events 4. */
function challengeVerdict(answer: DeliveryAnswer, challenge: unknown) {
  const { verified, reason } = verificationVerdict(answer, String(challenge));
  return {
    acknowledged: verified,
    retried: false,
    pausesEndpoint: false,
    explanation: verified
      ? '200 echoing the challenge: the endpoint would be verified'
      : `verification would fail (${reason}): it needs a 200 whose JSON body is {"challenge": "${String(challenge)}"}`,
  };
}

/** Limits of {@link postDelivery}, for tests that shorten them. */
export interface DeliveryLimits {
  /** The whole request, answer body included. @default the gateway's 10 s (`postWebhookDelivery`'s default) */
  totalMs?: number | undefined;
  /** Most bytes of the answer kept, to show; the rest is read and dropped. @default 2048 */
  keptBytes: number;
}

/** The gateway's limits, which are `postWebhookDelivery`'s own; 2 KB of the answer shown. */
export const DELIVERY_LIMITS: Readonly<DeliveryLimits> = { keptBytes: 2048 };

/** What a receiver answered a delivery: the sender's outcome, and the part of it shown. */
export interface DeliveryAnswer extends WebhookPostOutcome {
  /** The start of the answer's body, at most `keptBytes`, to show. */
  answer: string;
}

/**
 * POSTs a signed delivery and reads the answer as the gateway does, with the mock gateway's own
 * sender (`postWebhookDelivery`): headers within 8 s, and the request, answer body included,
 * within `limits.totalMs` (10 s); a body still coming then (dripping, or endless) is no answer,
 * whatever the status. The body is read to its end: memory stays bounded however much the
 * receiver sends. Through `HTTPS_PROXY` / `HTTP_PROXY` unless `NO_PROXY` names the host.
 *
 * @throws the reason of `stop` when it stops the request (Ctrl+C).
 */
export async function postDelivery(
  target: URL,
  delivery: { body: string; headers: WebhookSignatureHeaders },
  limits: Readonly<DeliveryLimits> = DELIVERY_LIMITS,
  stop?: AbortSignal,
): Promise<DeliveryAnswer> {
  const dispatcher = await environmentProxy();
  const outcome = await postWebhookDelivery(
    target,
    delivery.body,
    { ...delivery.headers },
    { timeoutMs: limits.totalMs, signal: stop, dispatcher, userAgent: 'mediagw-cli' },
  );
  if (stop?.aborted) throw stop.reason;
  return { ...outcome, answer: Buffer.from(outcome.text).subarray(0, limits.keptBytes).toString('utf8') };
}

/** Registers `webhooks`. */
export function registerWebhooks(program: Command): void {
  const webhooks = program
    .command('webhooks')
    .description('test your webhook receiver with signed deliveries');

  const sign = signingFlags(
    webhooks.command('sign').description('print a signed delivery: its headers and body'),
  );
  examples(
    sign,
    'mediagw webhooks sign --secret whsec_test --type task.failed --kind image',
    'mediagw webhooks sign --secret "$SECRET" --json | jq .headers',
  );
  sign.action(
    run(async (ctx, flags: SignFlags) => {
      const delivery = await signed(flags, ctx.signal);
      ctx.output.result({ headers: delivery.headers, body: delivery.body }, () => [
        ...printHeaders(ctx, delivery.headers),
        '',
        delivery.body,
      ]);
    }),
  );

  const send = signingFlags(
    webhooks
      .command('send')
      .description(
        'POST a signed delivery to your receiver, then say what it answered and whether the gateway would retry; exit 2 unless it was acknowledged',
      )
      .argument('<url>', "your receiver's URL, e.g. http://127.0.0.1:3000/webhooks"),
  );
  examples(
    send,
    'mediagw webhooks send http://127.0.0.1:3000/webhooks --secret whsec_test',
    'mediagw webhooks send http://127.0.0.1:3000/webhooks --secret whsec_new --previous-secret whsec_old --use-previous',
    'mediagw webhooks send http://127.0.0.1:3000/webhooks --secret whsec_test --skew -400   # must be refused',
  );
  send.action(
    run(async (ctx, url: string, flags: SignFlags) => {
      const target = receiverURL('the URL', url);
      const shown = shownURL(target);
      const delivery = await signed(flags, ctx.signal);
      const eventId = delivery.headers['X-Service-Event-ID'];
      ctx.during({
        message:
          `Stopped while waiting for ${shown} to answer event ${eventId}: the receiver may ` +
          'have taken the delivery; a second delivery of the same event must be answered as a duplicate.',
      });
      const answered = await postDelivery(target, delivery, DELIVERY_LIMITS, ctx.signal);
      const { status, error, answer, ms } = answered;
      const event = JSON.parse(delivery.body) as {
        id?: string;
        type?: string;
        data?: { challenge?: unknown };
      };
      const verdict =
        event.type === 'webhook.endpoint_verification'
          ? challengeVerdict(answered, event.data?.challenge)
          : deliveryVerdict(answered);
      const out = ctx.output;
      const c = out.color;
      out.result(
        {
          url: shown,
          event_id: eventId,
          event_type: event.type,
          delivery_id: delivery.headers['X-Service-Delivery-ID'],
          kid: delivery.keyId,
          timestamp: Number(delivery.headers['X-Service-Timestamp']),
          status: status ?? null,
          error: error ?? null,
          duration_ms: ms,
          answer,
          acknowledged: verdict.acknowledged,
          retried: verdict.retried,
          pauses_endpoint: verdict.pausesEndpoint,
          explanation: verdict.explanation,
        },
        () => [
          `${c.dim('sent')}      ${event.type} ${eventId} (kid ${delivery.keyId}) to ${shown}`,
          `${c.dim('answer')}    ${status === undefined ? c.red(error ?? 'none') : (status < 300 && !error ? c.green : c.red)(`${status}${error ? ` (${error})` : ''}`)} in ${ms} ms${answer ? `: ${answer.length > 200 ? `${answer.slice(0, 200)}…` : answer}` : ''}`,
          `${c.dim('gateway')}   ${verdict.acknowledged ? c.green(verdict.explanation) : c.yellow(verdict.explanation)}`,
        ],
      );
      if (!verdict.acknowledged) process.exitCode = EXIT.refused;
    }),
  );
}
