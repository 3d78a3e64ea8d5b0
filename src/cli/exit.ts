/**
 * Ends the process with `code` once stdout and stderr have been written out. Idle keep-alive
 * connections must not hold a finished command open for seconds.
 */
export function exitAfterFlush(code: number): void {
  let pending = 2;
  const done = () => {
    if (--pending === 0) process.exit(code);
  };
  process.stdout.write('', done);
  process.stderr.write('', done);
}
