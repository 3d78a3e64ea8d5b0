import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const WORKER = fileURLToPath(new URL('./worker.ts', import.meta.url));

/** Messages a worker sends besides its result. */
export type ChildMessage = { type: string; [key: string]: unknown };

/** Options of {@link runInChild}. */
export interface ChildOptions {
  /** Extra environment variables. */
  env?: Record<string, string> | undefined;
  /** The child is killed and the promise rejects after this many ms. @default 120000 */
  timeoutMs?: number | undefined;
  /** Called with every message the worker sends besides its result; `send` answers it. */
  onMessage?: ((message: ChildMessage, send: (message: unknown) => void) => void) | undefined;
}

/**
 * Runs `exportName(args, channel)` of `modulePath` in a fresh Node process (through tsx, with
 * `--expose-gc`) and resolves with what it returns. One process per sample keeps every
 * sample's memory and JIT state independent of the others.
 */
export function runInChild<T>(
  modulePath: string,
  exportName: string,
  args: unknown,
  options: ChildOptions = {},
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const child = fork(WORKER, [modulePath, exportName], {
      execArgv: ['--import', 'tsx', '--expose-gc'],
      env: { ...process.env, ...options.env },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    let settled = false;
    const finish = (error: Error | undefined, value?: T) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (error) {
        if (child.exitCode === null) child.kill('SIGKILL');
        reject(error);
      } else resolve(value as T);
    };
    const timeoutMs = options.timeoutMs ?? 120_000;
    const timer = setTimeout(
      () => finish(new Error(`${exportName} did not finish within ${timeoutMs} ms`)),
      timeoutMs,
    );
    const send = (message: unknown) => {
      if (child.connected) child.send(message as never);
    };
    child.on('message', (raw) => {
      const message = raw as ChildMessage;
      if (message.type === 'result') finish(undefined, message.value as T);
      else if (message.type === 'error') finish(new Error(`${exportName}: ${String(message.stack)}`));
      else options.onMessage?.(message, send);
    });
    child.on('error', (error) => finish(error));
    child.on('exit', (code, signal) => {
      if (!settled) finish(new Error(`${exportName} exited (${signal ?? code}) without a result`));
    });
    child.send({ type: 'start', args });
  });
}
