// A TypeScript consumer of the published declarations. Type-checked as ESM (.mts) and CommonJS
// (.cts) with moduleResolution node16, and as .ts with moduleResolution bundler; never run.
import {
  AuthenticationError,
  type EmbeddingsResponse,
  MediaGateway,
  MediaGatewayError,
  type RequestOptions,
  type VideoCreateParams,
} from 'mediagw';
import { type MockGateway, startMockGateway } from 'mediagw/testing';
import {
  createNodeWebhookHandler,
  createWebhookHandler,
  type HandledWebhookEvent,
  verifyWebhookAsync,
  type WebhookEvent,
  WebhookVerificationError,
} from 'mediagw/webhooks';

export async function embed(texts: string[], options?: RequestOptions): Promise<number[][]> {
  const gateway: MockGateway = await startMockGateway({ clock: 'manual' });
  try {
    const client = new MediaGateway({ apiKey: gateway.apiKey, baseURL: gateway.url, maxRetries: 0 });
    const answer: EmbeddingsResponse = await client.embeddings.create(
      { model: 'bge-m3', input: texts },
      options,
    );
    // @ts-expect-error the model is one of EMBEDDING_MODELS
    await client.embeddings.create({ model: 'no-such-model', input: 'x' });
    return answer.data.map((item) => item.embedding);
  } catch (error) {
    if (error instanceof AuthenticationError) throw new Error(`status ${error.status}`);
    if (error instanceof MediaGatewayError) throw error;
    throw error;
  } finally {
    await gateway.close();
  }
}

export const video: VideoCreateParams = { model: 'vidmodel-2.0-mini', prompt: 'a red kite over a beach' };

export async function taskOf(request: Request): Promise<string> {
  try {
    const event: WebhookEvent = await verifyWebhookAsync({
      body: await request.text(),
      headers: request.headers,
      secrets: { kid_1: 'whsec_1' },
    });
    return event.type === 'task.completed' ? event.data.task_id : event.type;
  } catch (error) {
    if (error instanceof WebhookVerificationError) return error.reason;
    throw error;
  }
}

export const POST: (request: Request) => Promise<Response> = createWebhookHandler({
  secrets: [{ keyId: 'kid_1', secret: 'whsec_1' }],
  onEvent: async (event: HandledWebhookEvent) => {
    // @ts-expect-error the handler answers the verification event itself
    if (event.type === 'webhook.endpoint_verification') return;
  },
});

export const nodeHandler = createNodeWebhookHandler({ secrets: { kid_1: 'whsec_1' }, onEvent: () => {} });
