import { build } from 'esbuild';
import { readFileSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
const pkg = JSON.parse(readFileSync('package.json','utf8'));
const deps = Object.keys({ ...pkg.dependencies, ...pkg.peerDependencies });
const external = deps.flatMap((d) => [d, `${d}/*`]);
const r = await build({ entryPoints: ['dist/index.js'], bundle: true, minify: true, format: 'esm', platform: 'node', target: 'node20', external, write: false, logLevel: 'silent' });
const t = r.outputFiles[0].text;
writeFileSync('/tmp/main.min.js', t);
// strip string literals and template parts
const noStr = t.replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`(?:[^`\\]|\\.)*`/g, '""');
console.log('total', t.length, gzipSync(t,{level:9}).length, 'no strings', noStr.length, gzipSync(noStr,{level:9}).length);
