import { createServer, request as httpRequest, type IncomingMessage } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';

/** A forward proxy on 127.0.0.1, and what went through it. */
export interface ProxyServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** Requests in absolute form (`GET http://host/path`), by their URL. */
  forwarded: string[];
  /** `CONNECT host:port` tunnels opened. */
  tunnels: string[];
  /** The `proxy-authorization` header of each request or tunnel, when sent. */
  authorizations: string[];
  close(): Promise<void>;
}

/**
 * A forward HTTP proxy on 127.0.0.1 that counts what it carries: requests in absolute form are
 * sent on to their origin, `CONNECT` opens a tunnel (only to 127.0.0.1, so a test can reach
 * nothing else through it).
 */
export async function startProxyServer(): Promise<ProxyServer> {
  const sockets = new Set<Socket>();
  const proxy: Omit<ProxyServer, 'url' | 'close'> = { forwarded: [], tunnels: [], authorizations: [] };
  const noteAuth = (req: IncomingMessage) => {
    const auth = req.headers['proxy-authorization'];
    if (typeof auth === 'string') proxy.authorizations.push(auth);
  };
  const server = createServer((req, res) => {
    noteAuth(req);
    const target = new URL(req.url ?? '');
    proxy.forwarded.push(target.href);
    const headers = { ...req.headers };
    delete headers['proxy-authorization'];
    delete headers['proxy-connection'];
    const upstream = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname + target.search,
        method: req.method,
        headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    noteAuth(req);
    proxy.tunnels.push(req.url ?? '');
    const [host, port] = (req.url ?? '').split(':');
    if (host !== '127.0.0.1') return client.end('HTTP/1.1 403 Forbidden\r\n\r\n');
    const upstream = connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    ...proxy,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
