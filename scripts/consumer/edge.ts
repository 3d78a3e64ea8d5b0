// An edge-runtime consumer of `mediagw/webhooks`: DOM and ES libraries only, no @types/node.
import {
  createWebhookHandler,
  type HandledWebhookEvent,
  verifyWebhookAsync,
  type WebhookEvent,
  type WebhookSecrets,
} from 'mediagw/webhooks';

const secrets: WebhookSecrets = { kid_1: 'whsec_1' };

export default {
  fetch: createWebhookHandler({ secrets, onEvent: (event: HandledWebhookEvent) => console.log(event.id) }),
};

export async function verify(request: Request): Promise<WebhookEvent> {
  return verifyWebhookAsync({ body: await request.arrayBuffer(), headers: request.headers, secrets });
}
