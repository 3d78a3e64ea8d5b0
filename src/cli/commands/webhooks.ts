/**
 * `mediagw webhooks sign|send`: a correctly signed delivery of a realistic event, printed or
 * POSTed to your receiver, with what the gateway would make of the answer.
 */
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { signWebhook, type WebhookSignatureHeaders } from '../../webhooks/index.js';
import type { Context } from '../context.js';
import { CliError, EXIT } from '../exit-codes.js';
import { integer } from '../input.js';
import { environmentProxy } from '../proxy.js';
import { deliveryVerdict, EVENT_KINDS, EVENT_TYPES, sampleEvent } from '../webhook-events.js';
import { examples, run } from './shared.js';

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
    .option('--kid <id>', 'its key ID (default: $MEDIAGW_WEBHOOK_KID or kid_local)')
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

function signed(flags: SignFlags): SignedDelivery {
  const current = flags.secret ?? process.env.MEDIAGW_WEBHOOK_SECRET;
  const kid = flags.kid ?? process.env.MEDIAGW_WEBHOOK_KID ?? 'kid_local';
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
    try {
      body = readFileSync(flags.event, 'utf8');
    } catch (error) {
      throw new CliError(`cannot read ${flags.event}: ${(error as Error).message}`);
    }
  } else {
    body = JSON.stringify(
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
  try {
    return { body, headers: signWebhook({ body, secret, keyId, timestamp }), keyId };
  } catch (error) {
    throw new CliError((error as Error).message);
  }
}

function printHeaders(ctx: Context, headers: WebhookSignatureHeaders): string[] {
  return Object.entries(headers).map(([name, value]) => `${ctx.output.color.dim(`${name}:`)} ${value}`);
}

/**
 * A verification challenge passes only with a 200 whose JSON body echoes the challenge (within
 * 10 s). spec: Events 4.
 */
function challengeVerdict(status: number | undefined, answer: string, challenge: unknown) {
  let echoed: unknown;
  try {
    echoed = (JSON.parse(answer) as { challenge?: unknown }).challenge;
  } catch {
    echoed = undefined;
  }
  const passed = status === 200 && echoed === challenge;
  return {
    acknowledged: passed,
    retried: false,
    pausesEndpoint: false,
    explanation: passed
      ? '200 echoing the challenge: the endpoint would be verified'
      : `verification would fail: it needs a 200 whose JSON body is {"challenge": "${String(challenge)}"}`,
  };
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
      const delivery = signed(flags);
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
      let target: URL;
      try {
        target = new URL(url);
      } catch {
        throw new CliError(`not a URL: ${url}`);
      }
      if (target.protocol !== 'http:' && target.protocol !== 'https:')
        throw new CliError(`not an http(s) URL: ${url}`);
      const delivery = signed(flags);
      // Through HTTPS_PROXY / HTTP_PROXY unless NO_PROXY names the host (fetch takes undici's option).
      const dispatcher = await environmentProxy();
      const started = performance.now();
      let status: number | undefined;
      let error: string | undefined;
      let headersMs: number | undefined;
      let retryAfter: string | undefined;
      let answer = '';
      try {
        // spec: Events 5 and 7 — 10 s in all, redirects not followed.
        const response = await fetch(target, {
          method: 'POST',
          body: delivery.body,
          headers: { 'content-type': 'application/json', 'user-agent': 'mediagw-cli', ...delivery.headers },
          redirect: 'manual',
          signal: AbortSignal.timeout(10_000),
          ...(dispatcher === undefined ? {} : { dispatcher }),
        } as RequestInit);
        headersMs = performance.now() - started;
        status = response.status;
        retryAfter = response.headers.get('retry-after') ?? undefined;
        answer = (await response.text()).slice(0, 2048);
      } catch (cause) {
        const e = cause as Error & { cause?: { code?: string; message?: string } };
        error =
          e.name === 'TimeoutError'
            ? 'no answer within 10 s'
            : (e.cause?.code ?? e.cause?.message ?? e.message);
      }
      const ms = Math.round(performance.now() - started);
      const event = JSON.parse(delivery.body) as {
        id?: string;
        type?: string;
        data?: { challenge?: unknown };
      };
      const verdict =
        event.type === 'webhook.endpoint_verification'
          ? challengeVerdict(status, answer, event.data?.challenge)
          : deliveryVerdict({ status, error, headersMs, retryAfter });
      const out = ctx.output;
      const c = out.color;
      out.result(
        {
          url: target.href,
          event_id: delivery.headers['X-Service-Event-ID'],
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
          `${c.dim('sent')}      ${event.type} ${delivery.headers['X-Service-Event-ID']} (kid ${delivery.keyId}) to ${target.href}`,
          `${c.dim('answer')}    ${status === undefined ? c.red(error ?? 'none') : (status < 300 ? c.green : c.red)(String(status))} in ${ms} ms${answer ? `: ${answer.length > 200 ? `${answer.slice(0, 200)}…` : answer}` : ''}`,
          `${c.dim('gateway')}   ${verdict.acknowledged ? c.green(verdict.explanation) : c.yellow(verdict.explanation)}`,
        ],
      );
      if (!verdict.acknowledged) process.exitCode = EXIT.refused;
    }),
  );
}
