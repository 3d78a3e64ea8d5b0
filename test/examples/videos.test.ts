// Covers: examples/: the video examples against the mock gateway
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import { main as motion } from '../../examples/videos-motion.js';
import { main as previewUpgrade } from '../../examples/videos-preview-upgrade.js';
import { main as reference } from '../../examples/videos-reference.js';
import { main as text } from '../../examples/videos-text.js';
import { type MockGateway, mp4Video, startMockGateway } from '../../src/testing/index.js';

const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
let gateway: MockGateway;
let outDir: string;

beforeAll(async () => {
  // 200 mock ms per real ms: a default video task takes 50 real ms.
  gateway = await startMockGateway({ speed: 200 });
  outDir = await mkdtemp(join(tmpdir(), 'mediagw-video-examples-'));
});
beforeEach(() => {
  gateway.resetRequests();
  vi.spyOn(console, 'log').mockImplementation(() => undefined);
});
afterAll(async () => {
  vi.restoreAllMocks();
  await gateway.close();
  await rm(outDir, { recursive: true, force: true });
});

const opts = () => ({ baseURL: gateway.url, apiKey: gateway.apiKey, outDir, pollIntervalMs: 10 });

function submissions() {
  return gateway.requests.filter((r) => r.method === 'POST' && r.path === '/v1/videos/generations');
}

async function expectFiles(files: string[], names: string[]) {
  expect(files.map((f) => basename(f))).toEqual(names);
  for (const file of files) {
    const bytes = await readFile(file);
    if (file.endsWith('.png')) expect(bytes.subarray(0, 8)).toEqual(PNG_MAGIC);
    else expect(bytes).toEqual(mp4Video());
  }
}

describe('video examples', () => {
  test('videos-text reserves what it estimated, submits once and saves the video and last frame', async () => {
    const { taskId, files, estimate } = await text(opts());
    await expectFiles(files, ['lighthouse.mp4', 'lighthouse-last-frame.png']);
    expect(submissions()).toHaveLength(1);
    expect(submissions()[0]?.body).toMatchObject({ duration: 5, aspect_ratio: '16:9', generate_audio: true });
    const reservation = gateway.ledger.reservationOf(taskId);
    expect([reservation?.seconds, reservation?.tier]).toEqual([estimate.seconds, estimate.tier]);
    expect(gateway.ledger.entriesFor(taskId).map((e) => e.kind)).toEqual(['reserve', 'settle']);
  });

  test('videos-reference sends the references in order and saves both videos', async () => {
    const { files, taskIds, estimates } = await reference(opts());
    await expectFiles(files, ['reference-dance.mp4', 'first-last-frame.mp4']);
    const [v25, mini] = submissions();
    expect(v25?.body).toMatchObject({ model: 'vidmodel-2.5', omni_reference_task_type: 'reference' });
    expect(mini?.body).toMatchObject({ model: 'vidmodel-2.0-mini', aspect_ratio: 'adaptive' });
    // The mock cannot measure dance.mp4 either: it reserves the maximum the unhinted estimate shows.
    expect(gateway.ledger.reservationOf(taskIds[0] ?? '')).toMatchObject({
      seconds: estimates.worst.seconds,
      tier: estimates.worst.tier,
    });
    expect(estimates.hinted.seconds).toBe(15);
  });

  test('videos-preview-upgrade makes a 480p preview and a separate 1080p task from it', async () => {
    const { previewId, upgradeId, files, estimate } = await previewUpgrade(opts());
    await expectFiles(files, ['preview.mp4', 'upgraded-1080p.mp4', 'upgraded-last-frame.png']);
    const [, upgrade] = submissions();
    expect(upgrade?.body).toEqual({
      model: 'vidmodel-2.5',
      draft_task_id: previewId,
      output_format: 'mp4',
      return_last_frame: true,
    });
    expect(gateway.ledger.reservationOf(previewId)).toMatchObject({ seconds: 6, tier: '480p' });
    expect(gateway.ledger.reservationOf(upgradeId)).toMatchObject({
      seconds: estimate.seconds,
      tier: '1080p',
    });
  });

  test('videos-motion submits the motion-control request and saves the result', async () => {
    const { files, estimates } = await motion(opts());
    await expectFiles(files, ['motion.mp4']);
    expect(submissions()[0]?.body).toMatchObject({ model: 'motion-v3-motion-control', mode: 'std' });
    expect(estimates.unknown.seconds).toBe(10);
    expect(estimates.known).toMatchObject({ seconds: 8, tier: 'std' });
    expect(estimates.known.cost).toBeCloseTo(0.4);
  });
});
