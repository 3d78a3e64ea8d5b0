// Loads every entry point with `require`, as a CommonJS consumer does, and runs the shared checks.
const { run } = require('./checks.cjs');

run(
  'cjs',
  async (name) => require(name),
  (name) => require.resolve(name),
).catch((error) => {
  console.error(error);
  process.exit(1);
});
