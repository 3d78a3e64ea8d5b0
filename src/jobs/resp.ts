/**
 * A small Redis connection for `mediagw jobs run --journal redis://…`: RESP2 over TCP, one
 * command at a time in order, enough for the Redis journal. Programs pass their own node-redis
 * client instead (anything with `sendCommand`).
 */
import { connect, type Socket } from 'node:net';
import type { RedisCommandClient } from '../redis/index.js';
import { JobJournalError } from './journal.js';

type Reply = string | number | null | Reply[] | Error;

/** Parses one reply from `buffer` at `offset`: the reply and the offset after it, or undefined when incomplete. */
function parse(buffer: Buffer, offset: number): [Reply, number] | undefined {
  const end = buffer.indexOf('\r\n', offset);
  if (end < 0) return undefined;
  const type = String.fromCharCode(buffer[offset] as number);
  const line = buffer.toString('utf8', offset + 1, end);
  const next = end + 2;
  if (type === '+') return [line, next];
  if (type === '-') return [new Error(line), next];
  if (type === ':') return [Number(line), next];
  if (type === '$') {
    const length = Number(line);
    if (length < 0) return [null, next];
    if (buffer.length < next + length + 2) return undefined;
    return [buffer.toString('utf8', next, next + length), next + length + 2];
  }
  if (type === '*') {
    const count = Number(line);
    if (count < 0) return [null, next];
    const items: Reply[] = [];
    let at = next;
    for (let i = 0; i < count; i++) {
      const item = parse(buffer, at);
      if (!item) return undefined;
      items.push(item[0]);
      at = item[1];
    }
    return [items, at];
  }
  throw new Error(`unexpected Redis reply type ${JSON.stringify(type)}`);
}

function encode(args: string[]): string {
  return `*${args.length}\r\n${args.map((a) => `$${Buffer.byteLength(a)}\r\n${a}\r\n`).join('')}`;
}

/** A connection to a Redis named by a `redis://[user:password@]host[:port][/db]` URL. */
export class RespConnection implements RedisCommandClient {
  private buffer: Buffer = Buffer.alloc(0);
  private readonly waiting: Array<{ resolve: (r: unknown) => void; reject: (e: unknown) => void }> = [];
  private failure: Error | undefined;

  private constructor(private readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : chunk;
      for (;;) {
        const parsed = parse(this.buffer, 0);
        if (!parsed) break;
        this.buffer = this.buffer.subarray(parsed[1]);
        const waiter = this.waiting.shift();
        if (parsed[0] instanceof Error) waiter?.reject(parsed[0]);
        else waiter?.resolve(parsed[0]);
      }
    });
    const fail = (error: Error) => {
      this.failure ??= error;
      for (const waiter of this.waiting.splice(0)) waiter.reject(error);
    };
    socket.on('error', fail);
    socket.on('close', () => fail(new Error('the connection to Redis closed')));
  }

  /**
   * Connects, authenticates and selects the database the URL names.
   *
   * @throws JobJournalError when the URL is not a `redis://` URL or Redis cannot be reached.
   */
  static async open(url: string): Promise<RespConnection> {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new JobJournalError('the journal is not a valid redis:// URL');
    }
    if (parsed.protocol !== 'redis:') throw new JobJournalError('a Redis journal needs a redis:// URL');
    const socket = connect({ host: parsed.hostname || '127.0.0.1', port: Number(parsed.port || 6379) });
    socket.setNoDelay(true);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', (error) =>
        reject(
          new JobJournalError(`Redis at ${parsed.host} could not be reached: ${error.message}`, {
            cause: error,
          }),
        ),
      );
    });
    // `this`, not the class's name: esbuild renames a class its own body names, and the ES module
    // build would export it as `_RespConnection`.
    const connection = new this(socket);
    const password = decodeURIComponent(parsed.password);
    if (password) {
      const user = decodeURIComponent(parsed.username);
      await connection.sendCommand(user ? ['AUTH', user, password] : ['AUTH', password]);
    }
    const db = parsed.pathname.slice(1);
    if (db) await connection.sendCommand(['SELECT', db]);
    return connection;
  }

  sendCommand(args: string[]): Promise<unknown> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.waiting.push({ resolve, reject });
      this.socket.write(encode(args));
    });
  }

  /** Closes the connection. */
  close(): void {
    this.socket.destroy();
  }
}
