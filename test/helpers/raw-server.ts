import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** A loopback HTTP server that counts what it received, for fault and retry tests. */
export interface RawServer {
  url: string;
  /** Requests whose headers arrived, in order. */
  received: Array<{ method: string; path: string; headers: IncomingMessage['headers']; at: number }>;
  close(): Promise<void>;
}

export async function startRawServer(
  handle: (req: IncomingMessage, res: ServerResponse, index: number) => void | Promise<void>,
): Promise<RawServer> {
  const received: RawServer['received'] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const index = received.length;
    received.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, at: Date.now() });
    void handle(req, res, index);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
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
