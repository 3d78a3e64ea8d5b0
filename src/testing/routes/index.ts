import type { GatewayState } from '../state/gateway-state.js';
import type { RouteRegistry } from '../types.js';
import { registerEmbeddingRoutes } from './embeddings.js';
import { registerImageRoutes } from './images.js';
import { registerLibraryRoutes } from './library.js';
import { registerTaskRoutes } from './tasks.js';
import { registerVideoRoutes } from './videos.js';
import { registerWebhookRoutes } from './webhooks.js';

/** Registers a resource's routes on the gateway's router. */
export type RegisterRoutes = (router: RouteRegistry, gateway: GatewayState) => void;

/**
 * The resource route sets of the mock gateway, registered at start in this order. To add a
 * resource, write `src/testing/routes/<resource>.ts` exporting a `registerXxxRoutes` and list it
 * here:
 *
 * ```ts
 * import { registerVideoRoutes } from './videos.js';
 * const RESOURCES: RegisterRoutes[] = [registerVideoRoutes];
 * ```
 */
const RESOURCES: RegisterRoutes[] = [
  registerTaskRoutes,
  registerImageRoutes,
  registerVideoRoutes,
  registerEmbeddingRoutes,
  registerLibraryRoutes,
  registerWebhookRoutes,
];

/** Registers every resource's routes. */
export function registerRoutes(router: RouteRegistry, gateway: GatewayState): void {
  for (const register of RESOURCES) register(router, gateway);
}
