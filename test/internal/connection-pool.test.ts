// Covers: src/internal/undici.ts
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Agent } from 'undici';
import { afterAll, describe, expect, test } from 'vitest';
import { MediaGateway } from '../../src/client.js';
import { InvalidOptionError } from '../../src/core/options.js';
import { DEFAULT_MAX_CONNECTIONS } from '../../src/internal/request-spec.js';
import { testClient } from '../helpers/client.js';

/**
 * A gateway on 127.0.0.1 that counts the connections it is given and answers each request after
 * a short pause (so that calls overlap), with the most connections it saw open at once.
 */
async function countingGateway() {
  const sockets = new Set<Socket>();
  let opened = 0;
  let mostOpen = 0;
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () =>
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"supported":true}');
      }, 20),
    );
  });
  server.on('connection', (socket: Socket) => {
    opened++;
    sockets.add(socket);
    mostOpen = Math.max(mostOpen, sockets.size);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const gateway = {
    url,
    get opened() {
      return opened;
    },
    get mostOpen() {
      return mostOpen;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  gateways.push(gateway);
  return gateway;
}
const gateways: { close(): Promise<void> }[] = [];
afterAll(() => Promise.all(gateways.map((g) => g.close())));

/** `count` calls at once; every one must succeed. */
async function burst(client: MediaGateway, count: number): Promise<void> {
  const calls = Array.from({ length: count }, () => client.webhooks.capabilities({ model: 'vidmodel-2.5' }));
  const answers = await Promise.all(calls);
  expect(answers).toHaveLength(count);
}

const KEY = 'mgw_test_0123456789abcdef';

describe('the connections a client opens to one origin', () => {
  test('by default at most DEFAULT_MAX_CONNECTIONS (128): a burst of 600 calls queues on the client', async () => {
    const gateway = await countingGateway();
    const client = testClient({ apiKey: KEY, baseURL: gateway.url });
    await burst(client, 600);
    // The documented figure (at most 256).
    expect(DEFAULT_MAX_CONNECTIONS).toBe(128);
    expect(gateway.opened).toBeGreaterThan(1);
    expect(gateway.opened).toBeLessThanOrEqual(DEFAULT_MAX_CONNECTIONS);
  });

  test('maxConnections sets the bound', async () => {
    const gateway = await countingGateway();
    const client = testClient({ apiKey: KEY, baseURL: gateway.url, maxConnections: 4 });
    await burst(client, 100);
    expect(gateway.opened).toBeLessThanOrEqual(4);
    expect(gateway.mostOpen).toBeLessThanOrEqual(4);
  });

  test('clients with the same setting share their connections, withOptions included', async () => {
    const gateway = await countingGateway();
    const client = testClient({ apiKey: KEY, baseURL: gateway.url, maxConnections: 3 });
    const other = testClient({ apiKey: KEY, baseURL: gateway.url, maxConnections: 3 });
    await Promise.all([
      burst(client, 40),
      burst(other, 40),
      burst(client.withOptions({ timeout: 5_000 }), 40),
    ]);
    expect(gateway.opened).toBeLessThanOrEqual(3);
  });

  test('a dispatcher of the caller wins over maxConnections', async () => {
    const gateway = await countingGateway();
    const dispatcher = new Agent({ connections: 2 });
    try {
      const client = testClient({ apiKey: KEY, baseURL: gateway.url, maxConnections: 50, dispatcher });
      await burst(client, 60);
      expect(gateway.opened).toBeLessThanOrEqual(2);
    } finally {
      await dispatcher.close();
    }
  });

  test.each([0, -1, 1.5, Number.NaN, '8'])('maxConnections %s is refused', (value) => {
    expect(
      () => new MediaGateway({ apiKey: KEY, baseURL: 'http://127.0.0.1:1', maxConnections: value as number }),
    ).toThrow(InvalidOptionError);
  });
});
