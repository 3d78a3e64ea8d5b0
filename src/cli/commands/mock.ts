/**
 * `mediagw mock` (also the `mediagw-mock` bin): the mock gateway on 127.0.0.1 until Ctrl+C,
 * with `--forward-to URL` delivering every task event to a local receiver, signed, the way
 * `stripe listen --forward-to` does.
 */
import { createHash } from 'node:crypto';
import type { Command } from 'commander';
import { APIError, MediaGateway } from '../../index.js';
import {
  DEFAULT_RESTRICTED_MODELS,
  type MockAccountInit,
  type MockDeliveryAttempt,
  type MockGateway,
  type MockRateLimitOptions,
  type MockWebhookEvent,
  mockWebhooks,
  startMockGateway,
} from '../../testing/index.js';
import type { Context } from '../context.js';
import { CliError } from '../exit-codes.js';
import { collect, integer, number, receiverURL } from '../input.js';
import { formatDuration, shownURL } from '../output.js';
import { environmentProxy } from '../proxy.js';
import { describeRateLimits, parseFault, parseRateLimits, rateLimitsJson } from './mock-flags.js';
import { examples, KEY_ID_HELP, run, webhookKeyId } from './shared.js';

interface MockFlags {
  port?: number;
  mediaPort?: number;
  speed?: number;
  seed?: string;
  fault?: string[];
  rateLimit?: string[];
  forwardTo?: string;
  webhookSecret?: string;
  webhookKid?: string;
}

/** The HTTPS URL the forwarding endpoint is registered with; the mock routes it to `--forward-to`. */
const FORWARD_URL = 'https://forward.mediagw.example/webhooks';

function port(name: string) {
  const parse = integer(name);
  return (value: string) => {
    const n = parse(value);
    if (n < 0 || n > 65_535) throw new CliError(`${name} must be a port number from 0 to 65535`);
    return n;
  };
}

/** A random source from a seed (mulberry32), so a seeded run repeats its retry jitter. */
function seeded(seed: string): () => number {
  let state = createHash('sha256').update(seed).digest().readUInt32LE(0);
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const derived = (seed: string, what: string, prefix: string) =>
  `${prefix}${createHash('sha256').update(`${seed}:${what}`).digest('hex').slice(0, 32)}`;

function accountsFor(flags: MockFlags, apiKey: string | undefined): MockAccountInit[] | undefined {
  if (flags.seed === undefined && apiKey === undefined) return undefined;
  const key = (what: string) =>
    flags.seed === undefined ? undefined : derived(flags.seed, what, 'mgw_test_');
  return [
    {
      id: 'acct_1',
      apiKey: apiKey ?? key('acct_1'),
      restrictedKey: key('acct_1/restricted'),
      restrictedModels: DEFAULT_RESTRICTED_MODELS,
    },
    { id: 'acct_2', apiKey: key('acct_2') },
  ];
}

/** What the start-up banner and its `--json` document show. */
interface Started {
  gateway: MockGateway;
  speed: number;
  keyFromUser: boolean;
  rateLimits: MockRateLimitOptions | undefined;
}

function banner(ctx: Context, { gateway, speed, keyFromUser, rateLimits }: Started): string[] {
  const c = ctx.output.color;
  const lines = [
    c.bold('mediagw mock gateway'),
    `  base URL:     ${c.cyan(gateway.url)}`,
    `  dashboard:    ${c.cyan(gateway.dashboardUrl)}`,
    `  media origin: ${gateway.mediaUrl}`,
    `  speed:        ${speed}x`,
  ];
  if (rateLimits) lines.push(`  rate limits:  ${describeRateLimits(rateLimits)}`);
  for (const [i, account] of gateway.accounts.entries()) {
    // A key the user chose may be a real one: it is never printed.
    const shown = i === 0 && keyFromUser ? '(the one given by --api-key or MEDIAGW_API_KEY)' : account.apiKey;
    lines.push(`  ${account.id} key: ${shown}`);
    if (account.restrictedKey)
      lines.push(
        `  ${account.id} restricted key (${account.restrictedModels?.join(', ')}): ${account.restrictedKey}`,
      );
  }
  lines.push(
    `  try: MEDIAGW_BASE_URL=${gateway.url} MEDIAGW_API_KEY=${keyFromUser ? '<your key>' : gateway.apiKey} mediagw images generate -m imgmodel-2 -p "a paper crane"`,
  );
  return lines;
}

/** Where `--forward-to` sends events, and how they are signed, for the `--json` start-up document. */
interface Forwarding {
  url: string;
  key_id: string;
  /** The secret the mock made up; `null` for one the user gave, which is never printed. */
  signing_secret: string | null;
}

/** The `--json` start-up document: what the banner says, for scripts; a key the user chose is null. */
function startedJson({ gateway, speed, keyFromUser, rateLimits }: Started, forwarding: Forwarding | null) {
  return {
    forwarding,
    gateway: {
      url: gateway.url,
      dashboard_url: gateway.dashboardUrl,
      media_url: gateway.mediaUrl,
      speed,
      rate_limits: rateLimitsJson(rateLimits),
      accounts: gateway.accounts.map((account, i) => ({
        id: account.id,
        api_key: i === 0 && keyFromUser ? null : account.apiKey,
        restricted_key: account.restrictedKey ?? null,
      })),
    },
  };
}

function describeAttempt(
  ctx: Context,
  attempt: MockDeliveryAttempt,
  event: MockWebhookEvent,
  speed: number,
  resumeCommand: (event: MockWebhookEvent) => string,
): string {
  const c = ctx.output.color;
  const time = new Date().toISOString().slice(11, 19);
  const answer =
    attempt.statusCode === undefined
      ? c.red(attempt.error ?? 'no answer')
      : (attempt.outcome === 'delivered' ? c.green : c.red)(String(attempt.statusCode));
  const took =
    attempt.finishedAt === undefined
      ? ''
      : ` in ${Math.max(0, Math.round((attempt.finishedAt - attempt.startedAt) / speed))} ms`;
  let next: string;
  if (event.status === 'delivered') next = 'delivered';
  else if (event.status === 'retrying' && event.nextAttemptAt !== undefined) {
    const wait = event.nextAttemptAt - attempt.startedAt;
    next = `retry in ${formatDuration(wait)} mock time (${formatDuration(wait / speed)} real)`;
  } else if (event.status === 'paused')
    next = `endpoint paused (410): no more deliveries until it is enabled again, and then its paused events go on: ${resumeCommand(event)}`;
  else next = event.status;
  const tasks = event.taskIds.length === 1 ? event.taskIds[0] : `${event.taskIds.length} tasks`;
  return `${c.dim(time)} ${event.type} ${c.cyan(event.id)} (${tasks}) attempt ${attempt.attempt}${attempt.duplicate ? ' (duplicate)' : ''} → ${answer}${took}: ${next}`;
}

/**
 * Registers the forwarding endpoint of every account, verifies each with its account's key (so
 * a request of any account may name it), and prints each delivery until the returned function is called.
 */
async function forward(
  ctx: Context,
  started: Started,
  flags: MockFlags,
  announce: (forwarding: Forwarding) => void,
): Promise<() => void> {
  const { gateway, speed } = started;
  const target = flags.forwardTo ?? '';
  const shown = shownURL(receiverURL('--forward-to', target));
  const webhooks = mockWebhooks(gateway);
  webhooks.route(FORWARD_URL, target);
  // The receiver checks timestamps against its own (real) clock, while the mock's runs
  // --speed times faster: sign with real time, or every delivery would soon be refused.
  webhooks.configure({ signingClock: 'wall' });
  // The receiver through HTTPS_PROXY / HTTP_PROXY, unless NO_PROXY names its host, as curl would.
  const dispatcher = await environmentProxy();
  if (dispatcher !== undefined) webhooks.configure({ dispatcher });
  if (flags.seed !== undefined) webhooks.configure({ random: seeded(flags.seed) });
  const secret =
    flags.webhookSecret ??
    process.env.MEDIAGW_WEBHOOK_SECRET ??
    (flags.seed === undefined ? undefined : derived(flags.seed, 'webhook', 'whsec_'));
  const kid = webhookKeyId(flags.webhookKid);
  const ids: string[] = [];
  const registered: { account: string; client: MediaGateway; id: string }[] = [];
  // One pair for every account's endpoint, so that the receiver verifies the events of each:
  // the secret the receiver already holds, else the one the first endpoint was created with.
  let pair: { secret: string; keyId: string } | undefined = secret ? { secret, keyId: kid } : undefined;
  for (const account of gateway.accounts) {
    const client = new MediaGateway({ baseURL: gateway.url, apiKey: account.apiKey, maxRetries: 0 });
    const created = await client.webhooks.endpoints.create({ url: FORWARD_URL });
    const record = webhooks.endpoints.get(created.endpoint.id);
    if (record) {
      pair ??= { secret: record.secret, keyId: kid };
      record.secret = pair.secret;
      record.keyId = pair.keyId;
    }
    ids.push(created.endpoint.id);
    registered.push({ account: account.id, client, id: created.endpoint.id });
  }
  webhooks.configure({ catchAllEndpoints: ids });
  // spec: Webhook endpoint states — a 410 pauses the endpoint; PATCH enabled:true resumes it.
  // A key the user chose may be a real one: it is named, never printed.
  const resumeCommand = (event: MockWebhookEvent) => {
    const index = gateway.accounts.findIndex((a) => a.id === event.account);
    const key = index === 0 && started.keyFromUser ? '$MEDIAGW_API_KEY' : gateway.accounts[index]?.apiKey;
    return (
      `curl -X PATCH ${gateway.url}/v1/webhook-endpoints/${event.endpointId} -H "authorization: Bearer ${key}" ` +
      `-H 'content-type: application/json' -d '{"enabled":true}'`
    );
  };
  // Told before any delivery can be printed, so that a script reads the pair first.
  announce({ url: shown, key_id: kid, signing_secret: secret ? null : (pair?.secret ?? null) });
  const unlisten = webhooks.on('delivery', (attempt, event) =>
    ctx.output.result(
      {
        event_id: event.id,
        type: event.type,
        task_ids: event.taskIds,
        attempt: attempt.attempt,
        delivery_id: attempt.id,
        status: attempt.statusCode ?? null,
        error: attempt.error ?? null,
        event_status: event.status,
        next_attempt_at:
          event.nextAttemptAt === undefined ? null : new Date(event.nextAttemptAt).toISOString(),
      },
      () => describeAttempt(ctx, attempt, event, speed, resumeCommand),
    ),
  );
  const out = ctx.output;
  out.say(`  forwarding:   every task event to ${shown}, signed with kid ${kid}`);
  if (!secret)
    out.say(
      `  signing secret: ${pair?.secret} (pass --webhook-secret or MEDIAGW_WEBHOOK_SECRET to choose one)`,
    );
  else out.say('  signing secret: the one given by --webhook-secret or MEDIAGW_WEBHOOK_SECRET');
  let verified = true;
  for (const { account, client, id } of registered) {
    try {
      await client.webhooks.endpoints.verify(id);
    } catch (error) {
      const why = error instanceof APIError ? error.message : String(error);
      verified = false;
      out.warn(`${shown} did not pass verification for ${account} (${why}); events are forwarded anyway`);
    }
  }
  if (verified) out.say(`  verified:     ${shown} echoed the challenge`);
  return unlisten;
}

/** Registers `mock`. */
export function registerMock(program: Command): void {
  const mock = program
    .command('mock')
    .description("run the mock gateway on 127.0.0.1 until Ctrl+C; --api-key sets the first account's key")
    .option('--port <n>', 'port of the gateway (default: a free port)', port('--port'))
    .option('--media-port <n>', 'port of the media origin (default: a free port)', port('--media-port'))
    .option(
      '--speed <s>',
      'mock seconds per real second: tasks and webhook retries run this much faster (default: 1)',
      number('--speed'),
    )
    .option(
      '--seed <text>',
      'derive the keys, the forwarding secret and the retry jitter from this, so runs repeat',
    )
    .option(
      '--fault <spec>',
      'inject a fault: STATUS|hang|reset|delay=MS[:PATH][xTIMES], or FaultInit JSON (repeat)',
      collect,
    )
    .option(
      '--rate-limit <spec>',
      'answer 429 with Retry-After past a limit: [key-model=]N/s[,burst=B] per key and model, or ip=N/s[,burst=B] per IP on creation and upload routes (repeat, once per scope)',
      collect,
    )
    .option(
      '--forward-to <url>',
      "deliver every task event, signed, to this local receiver (retries on the spec's schedule, sped up by --speed)",
    )
    .option(
      '--webhook-secret <secret>',
      'sign forwarded events with this secret (default: $MEDIAGW_WEBHOOK_SECRET, else a new one, printed)',
    )
    .option('--webhook-kid <id>', `key ID of the signing secret (${KEY_ID_HELP})`);
  examples(
    mock,
    'mediagw mock --port 4010 --speed 10',
    'mediagw mock --forward-to http://127.0.0.1:3000/webhooks --webhook-secret whsec_test --speed 60',
    'mediagw mock --fault 503:/v1/videos/generations --seed demo',
    'mediagw mock --rate-limit 2/s --rate-limit ip=20/s,burst=40',
  );
  mock.action(
    run(async (ctx, flags: MockFlags) => {
      const speed = flags.speed ?? 1;
      if (!(speed > 0)) throw new CliError('--speed must be a positive number');
      const faults = (flags.fault ?? []).map(parseFault);
      const rateLimits = parseRateLimits(flags.rateLimit);
      const apiKey = ctx.globals.apiKey ?? process.env.MEDIAGW_API_KEY;
      const accounts = accountsFor(flags, apiKey);
      const gateway = await startMockGateway({
        port: flags.port,
        mediaPort: flags.mediaPort,
        speed,
        ...(accounts ? { accounts } : {}),
        ...(rateLimits ? { rateLimits } : {}),
      });
      try {
        for (const fault of faults) gateway.inject(fault);
        const started: Started = { gateway, speed, keyFromUser: apiKey !== undefined, rateLimits };
        ctx.output.say(banner(ctx, started).join('\n'));
        if (faults.length) ctx.output.say(`  faults:       ${flags.fault?.join(', ')}`);
        // With --json: one document describing the gateway (and the forwarding, its made-up
        // secret included) before any delivery's; the banner goes to stderr.
        const announce = (forwarding: Forwarding | null) => {
          if (ctx.output.json) ctx.output.result(startedJson(started, forwarding));
        };
        let unlisten: (() => void) | undefined;
        if (flags.forwardTo) unlisten = await forward(ctx, started, flags, announce);
        else announce(null);
        ctx.output.say('Press Ctrl+C to stop.');
        // A signal is how this command ends: it closes the gateway and exits 0.
        ctx.interrupt.commandHandlesSignals = true;
        const signal = await ctx.interrupt.arrived();
        // A delivery cut short by the close is not retried: its line would promise a retry.
        unlisten?.();
        ctx.output.say(`${signal}: closing the mock gateway`);
      } finally {
        await gateway.close();
      }
    }),
  );
}
