/** `mediagw-mock`: the same as `mediagw mock`, kept for scripts that use the older name. */
import { exitAfterFlush, outliveClosedOutput } from './exit.js';
import { main } from './program.js';

outliveClosedOutput();
void main(['mock', ...process.argv.slice(2)], 'mediagw-mock').then(exitAfterFlush);
