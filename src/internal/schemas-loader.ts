import * as embeddings from '../schemas/checks/embeddings.js';
import * as images from '../schemas/checks/images.js';
import * as library from '../schemas/checks/library.js';
import * as midjourney from '../schemas/checks/midjourney.js';
import * as video from '../schemas/checks/video.js';
import * as webhookEndpoints from '../schemas/checks/webhook-endpoints.js';
import * as reservation from '../schemas/video/reservation.js';

/**
 * Each resource family's request schemas, behind a function. The built package replaces this
 * module with one that `require`s a family on its first call (see scripts/lazy-schemas.ts), so
 * zod loads with the first request checked and each family's schemas with the first request of
 * that family: a process that only makes images never builds the video schemas. The source,
 * which the tests run, imports them all. One line per family, in the form the build reads:
 * `name: () => name,` for `import * as name`, in the order of the imports.
 */
export const schemaFamilies = {
  embeddings: () => embeddings,
  images: () => images,
  library: () => library,
  midjourney: () => midjourney,
  video: () => video,
  webhookEndpoints: () => webhookEndpoints,
  reservation: () => reservation,
};

/** The family names. */
export type SchemaFamily = keyof typeof schemaFamilies;
