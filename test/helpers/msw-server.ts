import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getResponse, type RequestHandler } from 'msw';
import { afterAll, beforeAll, beforeEach } from 'vitest';

/** A request as it reached the loopback server. */
export interface SeenRequest {
  method: string;
  url: URL;
  headers: Headers;
  body: Buffer;
}

/**
 * Serves msw handlers over a real HTTP server on 127.0.0.1, so the SDK's undici requests go
 * through the wire (msw/node cannot see requests that undici makes itself: msw issue #2165).
 */
export interface MswServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** Every request received, in order. */
  requests: SeenRequest[];
  /** Replaces the handlers. */
  use(...handlers: RequestHandler[]): void;
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function startMswServer(...initial: RequestHandler[]): Promise<MswServer> {
  let handlers = initial;
  const requests: SeenRequest[] = [];
  const server: Server = createServer(async (req, res) => {
    const body = await readBody(req);
    const url = new URL(req.url ?? '/', `http://${req.headers.host}`);
    const headers = new Headers();
    for (const [key, value] of Object.entries(req.headers)) {
      if (value !== undefined) headers.set(key, Array.isArray(value) ? value.join(', ') : value);
    }
    requests.push({ method: req.method ?? 'GET', url, headers, body });
    const request = new Request(url, {
      method: req.method ?? 'GET',
      headers,
      ...(body.length && req.method !== 'GET' && req.method !== 'HEAD' ? { body: new Uint8Array(body) } : {}),
    });
    const response = await getResponse(handlers, request);
    if (!response) {
      res
        .writeHead(599, { 'content-type': 'text/plain' })
        .end(`no msw handler for ${req.method} ${url.pathname}`);
      return;
    }
    const out: Record<string, string> = {};
    response.headers.forEach((value, key) => {
      out[key] = value;
    });
    res.writeHead(response.status, out);
    res.end(Buffer.from(await response.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    use: (...next) => {
      handlers = next;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Starts an msw server before the file's tests and closes it after them, clearing its request
 * log before each test; `set` receives it once started.
 */
export function useMswServer(set: (server: MswServer) => void): void {
  let server: MswServer | undefined;
  beforeAll(async () => {
    server = await startMswServer();
    set(server);
  });
  afterAll(() => server?.close());
  beforeEach(() => {
    if (server) server.requests.length = 0;
  });
}
