// Completes package-lock.json with the platform builds of optional native packages (Biome,
// Rollup) that the registry this project installs from does not serve for the pinned
// versions. npm leaves them out of the lock, and `npm ci` then refuses the lock as out of
// sync. Each added entry is optional and names its os/cpu/libc, so npm skips it on every
// other platform and installs the matching build where it exists.
// Run after any change to dependencies: `npm install && node scripts/complete-lockfile.mjs`.
import { readFileSync, writeFileSync } from 'node:fs';

const file = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(file, 'utf8'));
const platform =
  /(android|darwin|freebsd|openbsd|openharmony|win32|linux|sunos|aix|netbsd)-(arm64|x64|arm|ia32|loong64|ppc64|riscv64|s390x|mips64el)(?:-(gnu|gnueabihf|musl|musleabihf|msvc))?/;
let added = 0;
for (const meta of Object.values(lock.packages)) {
  for (const [name, range] of Object.entries(meta.optionalDependencies ?? {})) {
    const key = `node_modules/${name}`;
    if (lock.packages[key]) continue;
    const entry = { version: String(range).replace(/^[\^~=]/, ''), optional: true };
    const match = platform.exec(name);
    if (match) {
      entry.os = [match[1]];
      entry.cpu = [match[2]];
      if (match[3]?.startsWith('musl')) entry.libc = ['musl'];
      else if (match[1] === 'linux' && match[3]?.startsWith('gnu')) entry.libc = ['glibc'];
    }
    lock.packages[key] = entry;
    added++;
  }
}
writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`complete-lockfile: added ${added} optional platform entries`);
