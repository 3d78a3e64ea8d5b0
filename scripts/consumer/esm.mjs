// Loads every entry point with `import`, as an ES module consumer does, and runs the shared checks.
import { fileURLToPath } from 'node:url';
import { run } from './checks.cjs';

await run(
  'esm',
  (name) => import(name),
  (name) => fileURLToPath(import.meta.resolve(name)),
);
