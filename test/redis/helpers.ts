// Finds or starts the Redis the tests run against, and starts child processes.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** A redis-server process these tests started and may stop. */
export interface RedisServer {
  url: string;
  port: number;
  /** Stops the process (SIGTERM, then SIGKILL after 3 s) and waits for it to exit. */
  kill(): Promise<void>;
  /** Starts it again on the same port, after `kill()`. */
  start(): Promise<void>;
  /** Kills it for good and removes its directory. */
  stop(): Promise<void>;
}

/** Whether Redis is required: set by scripts/redis-for-tests.sh and in CI, where skipping is a failure. */
export const redisRequired = process.env.MEDIAGW_TEST_REDIS_REQUIRED === '1' || Boolean(process.env.CI);

export const hasRedisServerBinary = (): boolean =>
  spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;

/** A free TCP port on 127.0.0.1 (the server binding it next could lose a race; starts retry). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** Resolves true when a Redis answers PING on the port (an auth error counts as an answer). */
function ping(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.on('error', () => done(false));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (data) => done(/^(\+PONG|-NOAUTH)/.test(data.toString())));
  });
}

async function waitUntil(check: () => Promise<boolean> | boolean, what: string, tries = 100): Promise<void> {
  for (let i = 0; i < tries; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

function spawnRedis(port: number, dir: string): ChildProcess {
  // Loopback only, no RDB snapshots, no append-only file: nothing outlives the test.
  const args = ['--bind', '127.0.0.1', '--port', String(port), '--save', '', '--appendonly', 'no'];
  return spawn('redis-server', [...args, '--dir', dir, '--loglevel', 'warning'], { stdio: 'ignore' });
}

/** Starts a private redis-server on a free loopback port. Needs the `redis-server` binary. */
export async function startRedisServer(): Promise<RedisServer> {
  const dir = mkdtempSync(join(tmpdir(), 'mediagw-redis-'));
  let child: ChildProcess | undefined;
  let port = 0;
  const launch = async () => {
    const current = spawnRedis(port, dir);
    child = current;
    await waitUntil(async () => current.exitCode !== null || (await ping(port)), `redis-server on ${port}`);
    if (current.exitCode !== null) throw new Error(`redis-server exited on port ${port}`);
  };
  for (let tries = 0; ; tries++) {
    port = await freePort();
    try {
      await launch();
      break;
    } catch (error) {
      child?.kill('SIGKILL');
      if (tries >= 2) throw error;
    }
  }
  const kill = async () => {
    const current = child;
    if (!current || current.exitCode !== null || current.signalCode !== null) return;
    const exited = new Promise((resolve) => current.once('exit', resolve));
    current.kill('SIGTERM');
    const timer = setTimeout(() => current.kill('SIGKILL'), 3_000);
    await exited;
    clearTimeout(timer);
  };
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    kill,
    start: launch,
    async stop() {
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A TCP proxy to a port on 127.0.0.1, for a connection that a test cuts while others go on. */
export interface TcpProxy {
  url: string;
  /** Destroys every connection through the proxy and refuses new ones until `restore()`. */
  cut(): void;
  /** Lets new connections through again. */
  restore(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(port: number): Promise<TcpProxy> {
  let down = false;
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    if (down) return client.destroy();
    const upstream = connect({ host: '127.0.0.1', port });
    for (const [from, to] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      sockets.add(from);
      from.pipe(to);
      from.on('error', () => to.destroy());
      from.on('close', () => {
        sockets.delete(from);
        to.destroy();
      });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const cut = () => {
    down = true;
    for (const socket of sockets) socket.destroy();
  };
  return {
    url: `redis://127.0.0.1:${(server.address() as { port: number }).port}`,
    cut,
    restore() {
      down = false;
    },
    close() {
      cut();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** What the tests run against, or why they cannot run. */
export type TestRedis = { url: string; stop(): Promise<void> } | { skip: string };

/**
 * The Redis of the test run: `MEDIAGW_TEST_REDIS_URL` (set by scripts/redis-for-tests.sh), or
 * a private redis-server when the binary is installed. Without either the tests are skipped
 * with a printed reason, except where Redis is required: there this throws.
 */
export async function testRedis(): Promise<TestRedis> {
  const given = process.env.MEDIAGW_TEST_REDIS_URL;
  if (given) {
    const { hostname, port } = new URL(given);
    if (await ping(Number(port || 6379), hostname)) return { url: given, stop: async () => {} };
    if (redisRequired) throw new Error(`MEDIAGW_TEST_REDIS_URL=${given} does not answer PING`);
  }
  if (hasRedisServerBinary()) return startRedisServer();
  const reason =
    'no Redis: set MEDIAGW_TEST_REDIS_URL or install redis-server (scripts/redis-for-tests.sh does both)';
  if (redisRequired) throw new Error(reason);
  console.warn(`mediagw/redis tests skipped: ${reason}`);
  return { skip: reason };
}

/** A key prefix of its own for each test file, so files sharing one Redis never meet. */
export const uniquePrefix = () => `mediagw-test:${randomUUID()}:`;

/** A child process running a TypeScript fixture through tsx, with its stdout lines. */
export interface Child {
  process: ChildProcess;
  /** Resolves with the first stdout line that `match` accepts. */
  line(match: (line: string) => boolean): Promise<string>;
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
  stderr(): string;
}

export function startChild(fixture: string, env: Record<string, string>): Child {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'test/redis/fixtures', fixture)], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const listeners = new Set<() => void>();
  let buffer = '';
  let errors = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    buffer += chunk;
    const parts = buffer.split('\n');
    buffer = parts.pop() ?? '';
    lines.push(...parts);
    for (const listener of listeners) listener();
  });
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    errors += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    process: child,
    exited,
    stderr: () => errors,
    line(match) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = lines.find(match);
          if (found === undefined) return;
          listeners.delete(check);
          resolve(found);
        };
        listeners.add(check);
        check();
        exited.then((code) => {
          if (listeners.delete(check)) reject(new Error(`${fixture} exited (${code}): ${errors}`));
        });
      });
    },
  };
}

/** Ends a child: closes its stdin (it exits on that), then kills it if it lingers. */
export async function stopChild(child: Child): Promise<void> {
  if (child.process.exitCode !== null || child.process.signalCode !== null) return;
  child.process.stdin?.end();
  const timer = setTimeout(() => child.process.kill('SIGKILL'), 3_000);
  await child.exited;
  clearTimeout(timer);
}

export { waitUntil };

/**
 * The most of `times` (ms) within one second, over the spans of one second that start at one of
 * them between `from` and `to` (all of them by default).
 */
export function peakPerSecond(times: readonly number[], from = -Infinity, to = Infinity): number {
  const sorted = [...times].sort((x, y) => x - y);
  let peak = 0;
  for (const [i, start] of sorted.entries()) {
    if (start < from || start > to) continue;
    let count = 0;
    for (let j = i; j < sorted.length && (sorted[j] as number) - start < 1_000; j++) count++;
    peak = Math.max(peak, count);
  }
  return peak;
}
