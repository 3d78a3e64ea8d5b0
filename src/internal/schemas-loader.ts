import * as embeddings from '../schemas/embeddings.js';
import * as images from '../schemas/images.js';
import * as library from '../schemas/library.js';
import * as midjourney from '../schemas/midjourney.js';
import * as reservation from '../schemas/reservation.js';
import * as video from '../schemas/video.js';
import * as webhookEndpoints from '../schemas/webhook-endpoints.js';

/**
 * Each resource family's request schemas, behind a function. The built package replaces this
 * module with one that `require`s a family on its first call (see scripts/lazy-schemas.ts), so
 * zod loads with the first request checked and each family's schemas with the first request of
 * that family: a process that only makes images never builds the video schemas. The source,
 * which the tests run, imports them all. One line per family, in the form the build reads:
 * `name: () => name,` for `import * as name`.
 */
export const schemaFamilies = {
  embeddings: () => embeddings,
  images: () => images,
  library: () => library,
  midjourney: () => midjourney,
  reservation: () => reservation,
  video: () => video,
  webhookEndpoints: () => webhookEndpoints,
};

/** The family names. */
export type SchemaFamily = keyof typeof schemaFamilies;
