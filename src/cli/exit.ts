/**
 * Ends the process with `code` once stdout and stderr have been written out. Idle keep-alive
 * connections must not hold a finished command open for seconds.
 */
export function exitAfterFlush(code: number): void {
  // The command has ended: a signal now (a second Ctrl+C) changes nothing, where Node's default
  // would end the process by the signal instead of the command's exit status.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => undefined);
  let pending = 2;
  const done = () => {
    if (--pending === 0) process.exit(code);
  };
  process.stdout.write('', done);
  process.stderr.write('', done);
}

/** What a stream says once its reader is gone: a closed pipe, a closed terminal. */
const READER_GONE = new Set(['EPIPE', 'EIO', 'ERR_STREAM_DESTROYED']);

/**
 * Drops what is written to stdout or stderr once its reader is gone (`| head`, a closed
 * terminal or SSH session), instead of ending the command on an unhandled `EPIPE`: a job run
 * goes on to leave its journal consistent, and a download its file whole or none.
 */
export function outliveClosedOutput(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (!READER_GONE.has(error.code ?? '')) throw error;
    });
  }
}
