/** The `mediagw` command. See docs/cli.md. */

import { exitAfterFlush } from './exit.js';
import { main } from './program.js';

void main(process.argv.slice(2)).then(exitAfterFlush);
