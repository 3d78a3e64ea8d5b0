// Under Bun: loads the entry points with `require` and runs the client checks of bun-checks.cjs.
const { run } = require('./bun-checks.cjs');

run('cjs', async (name) => require(name)).catch((error) => {
  console.error(error);
  process.exit(1);
});
