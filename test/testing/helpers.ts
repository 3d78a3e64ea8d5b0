import { Agent, request } from 'undici';
import type { MockGateway } from '../../src/testing/index.js';

/** What a test call got back. */
export interface Reply {
  status: number;
  headers: Record<string, string>;
  text: string;
  json: () => unknown;
}

/** Options of {@link call}. */
export interface CallOptions {
  key?: string | undefined;
  /** JSON-encoded unless a string or Buffer. */
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  headersTimeout?: number;
}

/** An undici agent per test file, closed in afterAll so no socket outlives the file. */
export function createAgent(): Agent {
  return new Agent({ keepAliveTimeout: 1_000, connections: 16 });
}

function flatten(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) out[name] = String(value);
  return out;
}

/** Sends one request to `base` (a gateway or media URL) and reads the whole answer. Never follows redirects. */
export async function call(
  agent: Agent,
  base: string,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<Reply> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  let body: string | Buffer | undefined;
  if (options.body !== undefined) {
    if (typeof options.body === 'string' || Buffer.isBuffer(options.body)) body = options.body;
    else {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
  }
  const response = await request(new URL(path, base), {
    method: method as 'GET',
    headers,
    dispatcher: agent,
    ...(body !== undefined ? { body } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.headersTimeout !== undefined ? { headersTimeout: options.headersTimeout } : {}),
  });
  const text = await response.body.text();
  return {
    status: response.statusCode,
    headers: flatten(response.headers),
    text,
    json: () => JSON.parse(text),
  };
}

/** `call` against the gateway's own origin. */
export function api(
  agent: Agent,
  gateway: MockGateway,
  method: string,
  path: string,
  options: CallOptions = {},
) {
  return call(agent, gateway.url, method, path, options);
}
