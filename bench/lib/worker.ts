/**
 * Entry of a bench child process (see `runInChild`): waits for its arguments, runs one
 * exported function of a measurement module, sends back the result and exits.
 */
import { pathToFileURL } from 'node:url';

/** What a worker function gets besides its arguments: messages to and from the parent. */
export interface WorkerChannel {
  /** Sends a message to the parent. */
  send(message: { type: string; [key: string]: unknown }): void;
  /** Calls `listener` with every later message from the parent. */
  onMessage(listener: (message: { type: string; [key: string]: unknown }) => void): void;
}

const [modulePath, exportName] = process.argv.slice(2);

function reply(message: unknown): Promise<void> {
  return new Promise((resolve) => process.send?.(message, undefined, {}, () => resolve()));
}

process.once('message', async (start: { args: unknown }) => {
  try {
    if (!modulePath || !exportName) throw new Error('usage: worker.ts <module> <export>');
    const module = (await import(pathToFileURL(modulePath).href)) as Record<string, unknown>;
    const fn = module[exportName];
    if (typeof fn !== 'function') throw new Error(`${modulePath} exports no function ${exportName}`);
    const channel: WorkerChannel = {
      send: (message) => process.send?.(message),
      onMessage: (listener) => process.on('message', listener),
    };
    const value: unknown = await fn(start.args, channel);
    await reply({ type: 'result', value });
    process.exit(0);
  } catch (error) {
    await reply({ type: 'error', stack: error instanceof Error ? error.stack : String(error) });
    process.exit(1);
  }
});
