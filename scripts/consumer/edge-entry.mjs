// Bundled by check-consumer.mjs for a browser and an edge (neutral) target, then run with no Node API.
import { createWebhookHandler, verifyWebhookAsync } from 'mediagw/webhooks';

export const handler = createWebhookHandler({
  secrets: globalThis.SECRETS,
  onEvent: (event) => {
    globalThis.HANDLED.push(event.id);
  },
});
export { verifyWebhookAsync };
