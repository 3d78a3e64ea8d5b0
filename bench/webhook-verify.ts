/**
 * (4) Webhook verifications per second of a 2 KB body: `verifyWebhook` (sync, parses the JSON)
 * vs raw `createHmac` + `timingSafeEqual` + `JSON.parse`, stripe's `constructEvent` and
 * standardwebhooks' `verify`; `verifyWebhookAsync` vs raw Web Crypto and stripe's
 * `constructEventAsync` with its Web Crypto provider.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { runInChild } from './lib/child.js';
import { type BenchContext, modulePath, reps } from './lib/context.js';
import { loadWebhooks } from './lib/package.js';
import type { Row } from './lib/results.js';
import { interleave, median, pairedRatio } from './lib/stats.js';

const SYNC = ['mediagw', 'raw', 'stripe', 'standardwebhooks'] as const;
const ASYNC = ['mediagw-async', 'raw-async', 'stripe-async'] as const;
type Variant = (typeof SYNC)[number] | (typeof ASYNC)[number];

/** A `task.completed` event of about 2 KB, as the gateway sends it. */
export function eventBody(): string {
  const outputs = Array.from({ length: 8 }, (_, i) => ({
    output_id: `out_${i}`,
    type: 'image',
    url: `https://media.example.com/v1/media/tok_${'x'.repeat(24)}${i}?sig=${'0123456789abcdef'.repeat(2)}`,
    authentication: 'bearer',
    expires_at: null,
  }));
  return JSON.stringify({
    id: 'evt_01J9ZBENCHMARK0000000000',
    api_version: '2026-10-03',
    created_at: 1_790_000_000,
    type: 'task.completed',
    data: {
      task_id: 'task_01J9ZBENCHMARK000000000',
      model: 'imgmodel-2',
      kind: 'image',
      status: 'completed',
      client_reference_id: 'order-4711',
      completed_at: 1_790_000_000,
      task_url: 'https://api.example.com/v1/tasks/task_01J9ZBENCHMARK000000000?model=imgmodel-2',
      result: { outputs },
      error: null,
    },
  });
}

// Headers a Node server sees besides the signature headers.
const COMMON_HEADERS = {
  host: 'hooks.example.com',
  'user-agent': 'MediaGateway-Webhooks/1.0',
  'content-type': 'application/json',
  accept: '*/*',
  'accept-encoding': 'gzip',
  'x-forwarded-for': '203.0.113.7',
  'x-forwarded-proto': 'https',
  connection: 'close',
};

function hexBytes(hex: string): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

async function variants(): Promise<Record<Variant, () => unknown>> {
  const { signWebhook, verifyWebhook, verifyWebhookAsync } = await loadWebhooks();
  const { default: Stripe } = await import('stripe');
  const { Webhook } = await import('standardwebhooks');
  const text = eventBody();
  const body = Buffer.from(text);
  const secret = `whsec_${randomBytes(24).toString('base64url')}`;
  const secrets = { key_1: secret };
  const signed = signWebhook({ body, secret, keyId: 'key_1' });
  const nodeHeaders: Record<string, string> = { ...COMMON_HEADERS, 'content-length': String(body.length) };
  for (const [name, value] of Object.entries(signed)) nodeHeaders[name.toLowerCase()] = value;
  const fetchHeaders = new Headers(nodeHeaders);

  const raw = () => {
    const match = /^v1=([0-9a-f]{64}),kid=(.+)$/.exec(nodeHeaders['x-service-signature'] ?? '');
    const timestamp = nodeHeaders['x-service-timestamp'] ?? '';
    if (!match || Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) throw new Error('bad header');
    const key = secrets[match[2] as 'key_1'];
    const expected = createHmac('sha256', key).update(`${timestamp}.`).update(body).digest();
    if (!timingSafeEqual(expected, Buffer.from(match[1] as string, 'hex'))) throw new Error('mismatch');
    const event = JSON.parse(body.toString('utf8')) as { id: string };
    if (event.id !== nodeHeaders['x-service-event-id']) throw new Error('id mismatch');
    return event;
  };

  const subtle = globalThis.crypto.subtle;
  const cryptoKey = await subtle.importKey(
    'raw',
    new TextEncoder().encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['verify'],
  );
  const encoder = new TextEncoder();
  const rawAsync = async () => {
    const match = /^v1=([0-9a-f]{64}),kid=(.+)$/.exec(fetchHeaders.get('x-service-signature') ?? '');
    const timestamp = fetchHeaders.get('x-service-timestamp') ?? '';
    if (!match || Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) throw new Error('bad header');
    const payload = encoder.encode(`${timestamp}.${text}`);
    if (!(await subtle.verify('HMAC', cryptoKey, hexBytes(match[1] as string), payload)))
      throw new Error('mismatch');
    const event = JSON.parse(text) as { id: string };
    if (event.id !== fetchHeaders.get('x-service-event-id')) throw new Error('id mismatch');
    return event;
  };

  const stripe = new Stripe('sk_test_bench');
  const stripeSecret = `whsec_${randomBytes(24).toString('hex')}`;
  const stripeHeader = stripe.webhooks.generateTestHeaderString({ payload: text, secret: stripeSecret });
  const subtleProvider = Stripe.createSubtleCryptoProvider();

  const standard = new Webhook(randomBytes(24).toString('base64'));
  const messageId = 'msg_01J9ZBENCHMARK';
  const standardHeaders = {
    'webhook-id': messageId,
    'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
    'webhook-signature': standard.sign(messageId, new Date(), body),
  };

  return {
    mediagw: () => verifyWebhook({ body, headers: nodeHeaders, secrets }),
    raw,
    stripe: () => stripe.webhooks.constructEvent(body, stripeHeader, stripeSecret),
    standardwebhooks: () => standard.verify(body, standardHeaders),
    'mediagw-async': () => verifyWebhookAsync({ body: text, headers: fetchHeaders, secrets }),
    'raw-async': rawAsync,
    'stripe-async': () =>
      stripe.webhooks.constructEventAsync(text, stripeHeader, stripeSecret, undefined, subtleProvider),
  };
}

async function opsPerSecond(fn: () => unknown, iterations: number): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < iterations; i++) await fn();
  return iterations / ((performance.now() - started) / 1000);
}

/** Child side: every variant in one process, warmed up, then timed in rotating order. */
export async function webhookWorker(args: {
  rounds: number;
  sync: number;
  async: number;
}): Promise<Record<Variant, number[]>> {
  const all = await variants();
  const sizeOf = (v: Variant) => ((ASYNC as readonly string[]).includes(v) ? args.async : args.sync);
  const names = [...SYNC, ...ASYNC];
  for (const name of names) {
    const event = (await all[name]()) as { id?: string };
    if (event?.id !== 'evt_01J9ZBENCHMARK0000000000') throw new Error(`${name} did not return the event`);
    await opsPerSecond(all[name], sizeOf(name) / 2);
  }
  return interleave(names, args.rounds, (name) => opsPerSecond(all[name], sizeOf(name)));
}

/** Parent side: one child process runs every variant. */
export async function measure(ctx: BenchContext): Promise<Row[]> {
  const rounds = reps(ctx, 15, 3);
  const args = { rounds, sync: 20_000, async: 5_000 };
  const samples = await runInChild<Record<Variant, number[]>>(
    modulePath(import.meta.url),
    'webhookWorker',
    args,
  );
  const m = (v: Variant) => median(samples[v]);
  ctx.log(
    `webhooks: ${SYNC.concat()
      .map((v) => `${v} ${m(v).toFixed(0)}/s`)
      .join(', ')}`,
  );
  ctx.note(
    `(4) webhooks: one process, ${rounds} rounds of ${args.sync} sync / ${args.async} async verifications per variant in rotating order; rates are medians of the rounds, a ratio the median of the rounds' own ratios; body ${Buffer.byteLength(eventBody())} bytes; ` +
      `raw = signature-header parse, timestamp check, HMAC, timingSafeEqual, JSON.parse, event-ID check; raw async keeps one imported CryptoKey.`,
  );
  const row = (
    id: string,
    figure: string,
    mine: Variant,
    limit: Variant,
    peer: Variant,
    peerLabel: string,
  ): Row => ({
    id,
    figure,
    unit: 'verif/s',
    better: 'higher',
    mediagw: m(mine),
    limit: m(limit),
    limitLabel: limit.startsWith('raw-async') ? 'raw Web Crypto' : 'raw HMAC',
    peer: m(peer),
    peerLabel,
    // Each round runs every variant back to back, so a round's own ratio is free of the
    // machine's drift between rounds.
    ratio: pairedRatio(samples[mine], samples[limit]),
    peerRatio: pairedRatio(samples[mine], samples[peer]),
    samples: { mediagw: samples[mine], limit: samples[limit], peer: samples[peer] },
  });
  return [
    row(
      'webhooks.sync',
      '(4) verifyWebhook, 2 KB, sync',
      'mediagw',
      'raw',
      'stripe',
      'stripe constructEvent',
    ),
    row(
      'webhooks.sync.standardwebhooks',
      '(4) verifyWebhook vs standardwebhooks',
      'mediagw',
      'raw',
      'standardwebhooks',
      'standardwebhooks verify',
    ),
    row(
      'webhooks.async',
      '(4) verifyWebhookAsync, 2 KB',
      'mediagw-async',
      'raw-async',
      'stripe-async',
      'stripe constructEventAsync (Web Crypto)',
    ),
  ];
}
