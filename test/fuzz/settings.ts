/**
 * Run counts and seed of the fuzz suite. In `npm test` it runs a modest, fixed sample; `npm run
 * fuzz` runs a large one. Either can be changed:
 *
 *   FUZZ_RUNS=100000 FUZZ_SEED=7 npm run fuzz
 *   FUZZ_SEED=<seed from a failure> npx vitest run test/fuzz/decoders.test.ts
 */
import { PROPERTY_SEED } from '../reliability/property-settings.js';

/** `npm run fuzz` sets this to `fuzz`; the plain test run does not. */
const LONG_RUN = process.env.npm_lifecycle_event === 'fuzz';

/** Generated inputs per property. @default 200 in `npm test`, 20000 under `npm run fuzz` */
export const FUZZ_RUNS = Number(process.env.FUZZ_RUNS ?? (LONG_RUN ? 20_000 : 200));

/** Input shapes whose cost is checked for linear growth. @default 8 in `npm test`, 64 under `npm run fuzz` */
export const FUZZ_SHAPES = Number(process.env.FUZZ_SHAPES ?? (LONG_RUN ? 64 : 8));

/** The seed every property starts from, so a failure is reproducible. */
export const FUZZ_SEED = Number(process.env.FUZZ_SEED ?? PROPERTY_SEED);

/** fast-check parameters for a property of this suite. */
export const fuzz = (numRuns = FUZZ_RUNS) => ({ seed: FUZZ_SEED, numRuns });
