// Consumer type test: the progress callbacks and the poll interval, as a user's code types them.
// Type-checked like list.ts (see there): under every moduleResolution. Each `@ts-expect-error`
// must stay an error. Never run.
import {
  type BatchProgress,
  MediaGateway,
  type Uploadable,
  type UploadOptions,
  type UploadProgress,
} from 'mediagw';
import { type MockClientOptions, startMockGateway } from 'mediagw/testing';

export async function progress(client: MediaGateway, file: Uploadable): Promise<void> {
  const seen: UploadProgress[] = [];
  const options: UploadOptions = { onProgress: (p) => seen.push(p), timeout: 60_000 };
  const { url } = await client.uploads.image(file, options);
  const total: number | undefined = seen[0]?.total;
  const bytes: number | undefined = seen[0]?.bytes;
  await client.images.edit(
    { model: 'imgmodel-2', prompt: 'sky', image: [file] },
    {
      onProgress: ({ bytes: sent }) => console.log(sent, url, total, bytes),
    },
  );
  const batched = await client.embeddings.createBatched(
    ['a', 'b'],
    { model: 'bge-m3' },
    {
      batchSize: 1,
      onProgress: async ({ done, total: all, batchesDone, batches }: BatchProgress) => {
        console.log(done, all, batchesDone, batches);
      },
    },
  );
  console.log(batched.data.length);

  // @ts-expect-error bytes are a number, not a string
  client.uploads.image(file, { onProgress: (p: { bytes: string }) => p });
  // @ts-expect-error onProgress is a function
  client.uploads.image(file, { onProgress: true });
}

export async function pollInterval(): Promise<MediaGateway[]> {
  const gateway = await startMockGateway({ speed: 100 });
  const fromMock: MockClientOptions = gateway.clientOptions();
  const clients = [
    new MediaGateway(fromMock),
    new MediaGateway({ apiKey: 'k', pollInterval: 2_000 }),
    new MediaGateway({ apiKey: 'k', pollInterval: [3_000, 5_000] as const }),
  ];
  // @ts-expect-error an interval is milliseconds, not a string
  clients.push(new MediaGateway({ apiKey: 'k', pollInterval: '3s' }));
  // @ts-expect-error a range is two numbers
  clients.push(new MediaGateway({ apiKey: 'k', pollInterval: [1, 2, 3] }));
  await gateway.close();
  return clients;
}
