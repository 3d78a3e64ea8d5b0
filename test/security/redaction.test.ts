// Covers: src/internal/redact.ts
import { inspect } from 'node:util';
import { describe, expect, test } from 'vitest';
import { MediaGateway } from '../../src/client.js';
import type { RequestSpec } from '../../src/internal/request-spec.js';
import { testClient } from '../helpers/client.js';
import { drain, refusedPort, startRawServer } from '../helpers/raw-server.js';
import { rejection } from '../helpers/rejection.js';

const KEY = 'mgw_live_SECRET_4f9a1c2e7b6d5a3f';

function everythingAbout(error: unknown): string {
  const e = error as Error & { cause?: unknown };
  return [
    e.message,
    e.stack,
    String(e),
    JSON.stringify(e),
    inspect(e, { depth: 10, showHidden: true }),
    JSON.stringify(e.cause ?? null),
  ].join('\n');
}

describe('the API key never leaks', () => {
  test('not from an error body that echoes the Authorization header', async () => {
    const server = await startRawServer(async (req, res) => {
      await drain(req);
      res
        .writeHead(401, { 'content-type': 'application/json', 'x-echo': String(req.headers.authorization) })
        .end(
          JSON.stringify({
            code: 'unauthorized',
            message: `bad key ${req.headers.authorization}`,
            data: null,
          }),
        );
    });
    const lines: string[] = [];
    const log = (m: string, d?: unknown) => lines.push(m + JSON.stringify(d ?? {}));
    const client = testClient({
      apiKey: KEY,
      baseURL: server.url,
      logger: { debug: log, info: log, warn: log, error: log },
    });
    const spec: RequestSpec = { method: 'GET', path: '/videos/t', retry: 'safe', timeout: 2000 };
    const error = await rejection(client._transport.json(spec));
    await server.close();
    expect(error.status).toBe(401);
    expect(everythingAbout(error)).not.toContain(KEY);
    expect(JSON.stringify(error.body)).not.toContain(KEY);
    expect(Object.values(error.headers).join()).not.toContain(KEY);
    expect(error.message).toContain('[redacted]');
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.join('\n')).not.toContain(KEY);
  });

  test('not from connection errors or retries logged', async () => {
    const port = await refusedPort();
    const lines: string[] = [];
    const client = testClient({
      apiKey: KEY,
      baseURL: `http://127.0.0.1:${port}`,
      maxRetries: 1,
      logger: { warn: (m) => lines.push(m), debug: (m) => lines.push(m) },
    });
    const error = await rejection(
      client._transport.json({
        method: 'POST',
        path: '/videos/generations',
        body: { prompt: KEY },
        retry: 'billable',
        timeout: 2000,
      }),
    );
    expect(everythingAbout(error)).not.toContain(KEY);
    expect(lines.join('\n')).not.toContain(KEY);
  });

  test('not from inspecting or serialising the client', () => {
    // The client itself is inspected: built as a user builds it.
    const client = new MediaGateway({ apiKey: KEY, baseURL: 'https://gw.example' });
    expect(inspect(client, { depth: 10 })).not.toContain(KEY);
    expect(JSON.stringify(client)).not.toContain(KEY);
  });
});
