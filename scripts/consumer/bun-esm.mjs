// Under Bun: loads the entry points with `import` and runs the client checks of bun-checks.cjs.
import { run } from './bun-checks.cjs';

await run('esm', (name) => import(name));
