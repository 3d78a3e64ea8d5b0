/** The `mediagw` command. See docs/cli.md. */

import { exitAfterFlush, outliveClosedOutput } from './exit.js';
import { main } from './program.js';

outliveClosedOutput();
void main(process.argv.slice(2)).then(exitAfterFlush);
