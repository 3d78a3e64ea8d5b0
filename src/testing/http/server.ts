import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** A listening loopback HTTP server that can be closed without leaving a handle behind. */
export interface LoopbackServer {
  /** The node:http server. */
  readonly server: Server;
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  /** The port it listens on. */
  readonly port: number;
  /** Stops listening, destroys every open connection, and resolves once the server is closed. */
  close(): Promise<void>;
}

/**
 * Starts an HTTP server on 127.0.0.1 only (never on every interface), on `port` (0: a free one).
 * Connections are kept alive between requests; every socket is tracked so `close()` can end them.
 *
 * @throws Error when the port cannot be bound.
 */
export async function listenOnLoopback(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
  port = 0,
): Promise<LoopbackServer> {
  const sockets = new Set<Socket>();
  const server = createServer({ keepAlive: true }, handler);
  server.keepAliveTimeout = 5_000;
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  let closed: Promise<void> | undefined;
  return {
    server,
    url: `http://127.0.0.1:${address.port}`,
    port: address.port,
    close() {
      closed ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
        server.closeAllConnections();
      });
      return closed;
    },
  };
}
