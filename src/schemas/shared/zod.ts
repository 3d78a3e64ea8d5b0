/**
 * zod, as the schemas use it. The built package replaces this module with one that requires
 * zod on first use (see `lazySchemas` in tsup.config.ts).
 */
export { z } from 'zod';
