// Covers: src/internal/upload-file.ts
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Dispatcher } from 'undici';
import { afterAll, describe, expect, test } from 'vitest';
import { fileFromPath } from '../../src/index.js';
import { pngImage } from '../../src/testing/index.js';
import { testClient } from '../helpers/client.js';

const dir = await mkdtemp(join(tmpdir(), 'mediagw-chunks-'));
afterAll(() => rm(dir, { recursive: true, force: true }));

/**
 * A dispatcher that keeps every body chunk as it was handed over, without copying, the way a
 * recording or mocking dispatcher may, and answers once the body has ended.
 */
class KeepingDispatcher extends Dispatcher {
  readonly chunks: Uint8Array[] = [];

  override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    const legacy = handler as unknown as {
      onConnect(abort: () => void): void;
      onHeaders(status: number, headers: Buffer[], resume: () => void, text: string): boolean;
      onData(chunk: Buffer): boolean;
      onComplete(trailers: Buffer[]): void;
    };
    void (async () => {
      legacy.onConnect(() => undefined);
      for await (const chunk of options.body as AsyncIterable<Uint8Array>) this.chunks.push(chunk);
      const answer = Buffer.from(
        JSON.stringify({
          url: 'https://media.example/a.png',
          filename: 'a.png',
          content_type: 'image/png',
          bytes: 1,
          created_at: 1,
        }),
      );
      legacy.onHeaders(
        200,
        [Buffer.from('content-type'), Buffer.from('application/json')],
        () => undefined,
        'OK',
      );
      legacy.onData(answer);
      legacy.onComplete([]);
    })();
    return true;
  }
}

describe('a file on disk sent through a dispatcher that keeps the chunks', () => {
  test('every chunk it kept still holds its bytes: no read buffer was reused', async () => {
    const bytes = Buffer.concat([pngImage({ seed: 3 }), randomBytes(700 * 1024 + 3)]);
    const path = join(dir, 'kept.png');
    await writeFile(path, bytes);
    const dispatcher = new KeepingDispatcher();
    const client = testClient({
      apiKey: 'mgw_test_key',
      baseURL: 'http://127.0.0.1:9',
      dispatcher,
      maxRetries: 2,
    });
    await client.uploads.image(await fileFromPath(path));
    const sent = Buffer.concat(dispatcher.chunks);
    expect(sent.includes(bytes)).toBe(true);
    // More than four chunks of the file were kept at once: a ring of four would have overwritten them.
    expect(dispatcher.chunks.filter((chunk) => chunk.byteLength === 64 * 1024).length).toBeGreaterThan(4);
  });
});
