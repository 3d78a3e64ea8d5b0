import { build } from 'esbuild';
import { gzipSync } from 'node:zlib';
const r = await build({ entryPoints: [process.argv[2] + '/src/webhooks/index.ts'], bundle: true, minify: true, format: 'esm', platform: 'node', target: 'node20', write: false, logLevel: 'silent', metafile: true });
const code = r.outputFiles[0].contents;
console.log('webhooks src', code.byteLength, gzipSync(code, { level: 9 }).byteLength);
const ins = Object.entries(r.metafile.outputs)[0][1].inputs;
console.log(Object.entries(ins).sort((a, b) => b[1].bytesInOutput - a[1].bytesInOutput).map(([k, v]) => v.bytesInOutput + ' ' + k.replace(/.*src\//,'')).join('\n'));
