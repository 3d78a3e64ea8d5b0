import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the server answers to one request. */
export interface LoopbackAnswer {
  /** HTTP status. @default 200 */
  status?: number | undefined;
  /** The body, sent as is with `content-type: application/json`. */
  body: Buffer;
}

/** A keep-alive HTTP server on 127.0.0.1 that reads every request body fully before answering. */
export interface LoopbackServer {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  /** Requests answered so far. */
  requests: number;
  /** Body bytes received by the last request that finished. */
  lastBodyBytes: number;
  /** Closes the server and every open connection. */
  close(): Promise<void>;
}

/**
 * Starts a keep-alive JSON server on 127.0.0.1 (a free port). Every client under test talks to
 * the same server and gets the same bytes, so differences come from the clients alone. The
 * request body is drained (and counted) before the answer is sent.
 */
export async function startLoopbackServer(
  answer: (request: IncomingMessage) => LoopbackAnswer,
): Promise<LoopbackServer> {
  const state = { requests: 0, lastBodyBytes: 0 };
  const server = createServer({ keepAlive: true }, (request, response) => {
    let bytes = 0;
    request.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
    });
    request.on('end', () => {
      const { status = 200, body } = answer(request);
      state.requests++;
      state.lastBodyBytes = bytes;
      response.writeHead(status, {
        'content-type': 'application/json',
        'content-length': body.length,
        'x-service-request-id': `req_${state.requests}`,
      });
      response.end(body);
    });
  });
  server.keepAliveTimeout = 60_000;
  server.headersTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get requests() {
      return state.requests;
    },
    get lastBodyBytes() {
      return state.lastBodyBytes;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
