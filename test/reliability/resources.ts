import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { buildConnector } from 'undici';

/** Counts of the active resources keeping the event loop alive, by type (`Timeout`, `TCPSocketWrap`...). */
export function activeResources(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const type of process.getActiveResourcesInfo()) counts[type] = (counts[type] ?? 0) + 1;
  return counts;
}

/** Waits (bounded) until `condition()` holds; throws with `what` when it never does. */
export async function until(condition: () => boolean, what: string, limitMs = 30_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await delay(10);
  }
}

/** Counts the connections a server accepts, how many are open now, and the most open at once. */
export function watchConnections(server: Server) {
  const stats = { accepted: 0, open: 0, maxOpen: 0 };
  server.on('connection', (socket) => {
    stats.accepted++;
    stats.open++;
    stats.maxOpen = Math.max(stats.maxOpen, stats.open);
    socket.on('close', () => stats.open--);
  });
  return stats;
}

/**
 * An undici connector that counts the client's sockets: opened in all, open now, most open at
 * once. Counted on the client, where a destroyed socket is closed at once.
 */
export function countingConnector() {
  const stats = { opened: 0, open: 0, maxOpen: 0 };
  const connect = buildConnector({});
  const connector: buildConnector.connector = (options, callback) =>
    connect(options, (error, socket) => {
      if (socket) {
        stats.opened++;
        stats.open++;
        stats.maxOpen = Math.max(stats.maxOpen, stats.open);
        // A socket counts until it is destroyed (its 'close' event comes a tick later).
        const counted = socket as Socket;
        let closed = false;
        const release = () => {
          if (!closed) stats.open--;
          closed = true;
        };
        const destroy = counted.destroy.bind(counted);
        counted.destroy = (error?: Error) => {
          release();
          return destroy(error);
        };
        counted.once('close', release);
      }
      // biome-ignore lint/suspicious/noExplicitAny: undici's callback overloads take (error, null) or (null, socket)
      (callback as any)(error, socket);
    });
  return { stats, connector };
}
