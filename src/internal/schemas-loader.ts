import * as schemas from '../schemas/index.js';

/** The request schemas and the functions that check requests with them. */
export type Schemas = typeof schemas;

/**
 * The request schemas. The built package replaces this module with one that `require`s them
 * (see `lazySchemas` in tsup.config.ts), so zod and the schemas load when the first request is
 * checked rather than when `mediagw` is imported; the source, which the tests run, imports them.
 */
export const loadSchemas = (): Schemas => schemas;
