// Consumer type test: image and embedding requests are typed per model, discriminated on
// `model`, and list the spec's fields only: a field the model does not take, or a typo, does
// not compile. Type-checked like list.ts (see there). Never run.
import type {
  EmbeddingCreateParams,
  ImageEditParams,
  ImageGenerateParams,
  ImageModel,
  MediaGateway,
} from 'mediagw';

export async function perModel(client: MediaGateway, file: Blob, model: ImageModel): Promise<void> {
  await client.images.generate({
    model: 'imgmodel-2',
    prompt: 'x',
    image_urls: ['https://example.com/a.png'],
  });
  // Any image model, when only the shared fields are set.
  await client.images.generate({ model, prompt: 'x', size: '1024x1024', quality: 'high' });
  // @ts-expect-error a typo: the field is size
  await client.images.generate({ model: 'imgmodel-2', prompt: 'x', sise: '1024x1024' });
  // @ts-expect-error image_urls is an imgmodel-2 extension, not taken by the 2.5 models
  await client.images.generate({
    model: 'imgmodel-2.5-flare',
    prompt: 'x',
    image_urls: ['https://example.com/a.png'],
  });
  // @ts-expect-error a JSON generation attaches no file: edit with files instead
  await client.images.generate({ model: 'imgmodel-2', prompt: 'x', image: 'https://example.com/a.png' });
  // @ts-expect-error the synchronous route produces no task events
  await client.images.generate({ model: 'imgmodel-2', prompt: 'x', client_reference_id: 'order-1' });
  await client.images.generateAsync({
    model: 'imgmodel-2.5-sunburst',
    prompt: 'x',
    client_reference_id: 'order-1',
  });

  await client.images.edit({ model: 'imgmodel-2', prompt: 'x', image: file, mask: file });
  // @ts-expect-error the 2.5 edit route rejects mask files
  await client.images.edit({ model: 'imgmodel-2.5-sunburst', prompt: 'x', image: file, mask: file });
  // @ts-expect-error a typo in an edit: the field is quality
  await client.images.editAsync({ model: 'imgmodel-2', prompt: 'x', image: file, qualty: 'high' });

  const generate: ImageGenerateParams = { model: 'imgmodel-2.5-sunburst', prompt: 'x', n: 2 };
  const edit: ImageEditParams = { model: 'imgmodel-2.5-flare', prompt: 'x', image: [file, file] };
  await client.images.generate(generate);
  await client.images.edit(edit);

  await client.embeddings.create({ model: 'text-embedding-3-small', input: 'x', dimensions: 512 });
  // @ts-expect-error bge-m3 always returns 1024 dimensions
  await client.embeddings.create({ model: 'bge-m3', input: 'x', dimensions: 512 });
  // @ts-expect-error a field the endpoint does not take
  await client.embeddings.create({ model: 'bge-m3', input: 'x', user: 'u-1' });
  // @ts-expect-error embeddings return vectors, not text
  await client.embeddings.create({ model: 'bge-m3', input: 'x', max_tokens: 10 });
  await client.embeddings.createBatched(['a', 'b'], { model: 'text-embedding-3-small', dimensions: 256 });
  // @ts-expect-error dimensions is for text-embedding-3-small only, in batches too
  await client.embeddings.createBatched(['a', 'b'], { model: 'bge-m3', dimensions: 256 });
  const embed: EmbeddingCreateParams = { model: 'bge-m3', input: ['a'], encoding_format: 'base64' };
  await client.embeddings.create(embed);
}

// Checking model narrows to that model's fields.
export function referenceUrls(params: ImageGenerateParams): readonly string[] {
  return params.model === 'imgmodel-2' ? (params.image_urls ?? []) : [];
}
