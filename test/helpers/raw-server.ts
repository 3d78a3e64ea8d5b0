import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';

/** A loopback HTTP server that counts what it received, for fault and retry tests. */
export interface RawServer {
  url: string;
  /** Requests whose headers arrived, in order. */
  received: Array<{ method: string; path: string; headers: IncomingMessage['headers']; at: number }>;
  close(): Promise<void>;
}

/** A certificate and its key, PEM, for a server speaking HTTPS (see `selfSignedCertificate`). */
export interface TlsIdentity {
  cert: string;
  key: string;
}

export async function startRawServer(
  handle: (req: IncomingMessage, res: ServerResponse, index: number) => void | Promise<void>,
  options: { tls?: TlsIdentity } = {},
): Promise<RawServer> {
  const received: RawServer['received'] = [];
  const sockets = new Set<Socket>();
  const listener = (req: IncomingMessage, res: ServerResponse) => {
    const index = received.length;
    received.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, at: Date.now() });
    void handle(req, res, index);
  };
  const server = options.tls ? createTlsServer(options.tls, listener) : createServer(listener);
  // A TLS server's sockets are counted as they connect, before the handshake.
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Reads a request body fully. */
export async function drain(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A port on 127.0.0.1 where nothing listens (connections are refused). */
export async function refusedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
