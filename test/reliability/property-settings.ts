/**
 * Run counts and seed of the property tests. Reproduce a failure with the seed (and path) that
 * fast-check prints: `FC_SEED=<seed> npx vitest run test/reliability/properties-schemas.test.ts`.
 */

/** Runs per property. @default 1000 */
export const PROPERTY_RUNS = Number(process.env.FC_RUNS ?? 1_000);

/** `CI` as vitest reads it: set to anything but `false`. */
const IN_CI = Boolean(process.env.CI && process.env.CI !== 'false');

/**
 * Valid requests per schema sent over HTTP to the mock gateway: in CI at least 1,000 per schema
 * must reach it; locally a sample keeps the run short. @default 1000 in CI, 50 elsewhere
 */
export const WIRE_SAMPLE = Number(process.env.FC_WIRE_SAMPLE ?? (IN_CI ? 1_000 : 50));

/** The seed every property starts from, so a CI run is reproducible. */
export const PROPERTY_SEED = Number(process.env.FC_SEED ?? 20_261_003);
