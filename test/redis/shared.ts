// Pieces shared by the Redis tests and the child processes they start: no vitest in here.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClient } from 'redis';
import { signWebhook } from '../../src/webhooks/index.js';

export const KEY_ID = 'kid_redis';
export const SECRET = 'whsec_redis_0123456789';
export const SECRETS = { [KEY_ID]: SECRET };

export type TestRedisClient = ReturnType<typeof createClient>;

/**
 * A connected node-redis client that never crashes the process on a connection error (an
 * `'error'` event without a listener would) and gives up reconnecting after `maxRetries`.
 */
export async function connectRedis(url: string): Promise<TestRedisClient> {
  const client = createClient({
    url,
    socket: { connectTimeout: 2_000, reconnectStrategy: (retries: number) => (retries > 200 ? false : 50) },
  });
  client.on('error', () => {});
  await client.connect();
  return client;
}

/** A duplicate connection for SUBSCRIBE, as node-redis requires. */
export async function connectSubscriber(client: TestRedisClient): Promise<TestRedisClient> {
  const subscriber = client.duplicate();
  subscriber.on('error', () => {});
  await subscriber.connect();
  return subscriber;
}

/** Closes a client whether or not its server is still there. */
export function closeRedis(client: TestRedisClient): void {
  if (client.isOpen) client.destroy();
}

/** A terminal task event as the gateway sends it. */
export function taskEvent(
  id: string,
  taskId: string,
  type: 'task.completed' | 'task.failed' = 'task.completed',
) {
  const failed = type === 'task.failed';
  return {
    id,
    type,
    api_version: '2026-10-03',
    created_at: Math.floor(Date.now() / 1000) - 5,
    data: {
      task_id: taskId,
      model: 'vidmodel-2.5',
      kind: 'video',
      status: failed ? 'failed' : 'completed',
      completed_at: Math.floor(Date.now() / 1000) - 6,
      task_url: `https://gw.example/v1/videos/${taskId}`,
      result: failed ? null : { outputs: [] },
      error: failed ? { code: 'generation_failed', message: 'the provider failed' } : null,
    },
  };
}

/** One signed delivery of `event`: a fresh delivery ID and timestamp each call, like a gateway retry. */
export function signedDelivery(event: { id: string }): { body: string; headers: Record<string, string> } {
  const body = JSON.stringify(event);
  const headers = signWebhook({ body, secret: SECRET, keyId: KEY_ID });
  return { body, headers: { ...headers, 'content-type': 'application/json' } };
}

/** Where a tiny task API stands: task ID -> status, and how many times each task was read. */
export interface TaskApi {
  url: string;
  status: Map<string, string>;
  reads: Map<string, number>;
  server: Server;
}

/** Serves `GET /v1/videos/{id}` on 127.0.0.1, counting the reads of each task. */
export async function startTaskApi(): Promise<TaskApi> {
  const status = new Map<string, string>();
  const reads = new Map<string, number>();
  const server = createServer((req, res) => {
    const match = /^\/v1\/videos\/([^/?]+)$/.exec(req.url ?? '');
    const id = match ? decodeURIComponent(match[1]!) : undefined;
    if (req.method !== 'GET' || !id || !status.has(id)) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { type: 'not_found', message: 'no such task' } }));
      return;
    }
    reads.set(id, (reads.get(id) ?? 0) + 1);
    const current = status.get(id)!;
    const error = current === 'failed' ? { code: 'task_failed', message: 'the provider failed' } : null;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ id, object: 'video', model: 'vidmodel-2.5', status: current, error }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, status, reads, server };
}
