/** `mediagw-mock`: the same as `mediagw mock`, kept for scripts that use the older name. */
import { exitAfterFlush } from './exit.js';
import { main } from './program.js';

void main(['mock', ...process.argv.slice(2)], 'mediagw-mock').then(exitAfterFlush);
