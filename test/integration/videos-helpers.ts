import type { MediaGateway } from '../../src/client.js';
import { type MockGateway, type MockGatewayOptions, startMockGateway } from '../../src/testing/index.js';
import { testClient } from '../helpers/client.js';

/** A started mock gateway and a client pointed at it, with no retries. */
export interface VideoRig {
  gateway: MockGateway;
  client: MediaGateway;
  /** A client with another account's key. */
  other: MediaGateway;
}

/** Starts a mock gateway (manual clock unless told) and clients for `acct_1` and `acct_2`. */
export async function startVideoRig(options: MockGatewayOptions = {}): Promise<VideoRig> {
  const gateway = await startMockGateway({ clock: 'manual', ...options });
  const client = testClient({ gateway });
  const other = testClient({ apiKey: gateway.account('acct_2').apiKey, baseURL: gateway.url });
  return { gateway, client, other };
}

/** The submissions of video tasks the gateway received (both paths). */
export function videoSubmissions(gateway: MockGateway) {
  return gateway.requests.filter(
    (r) => r.method === 'POST' && (r.path === '/v1/videos/generations' || r.path === '/v1/video/generations'),
  );
}

/** Moves the manual clock past the default video duration (2 s queued + 8 s running). */
export const VIDEO_DONE_MS = 10_000;

/** A public reference URL the mock detects as `seconds` long. */
export function clip(name: string, seconds?: number): string {
  return `https://media.example.com/${name}.mp4${seconds === undefined ? '' : `?mock_seconds=${seconds}`}`;
}

/** A public reference image URL. */
export function still(name: string): string {
  return `https://media.example.com/${name}.png`;
}
