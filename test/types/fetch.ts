// Consumer type test: what the client's `fetch` option takes, as a user's code types it.
// Type-checked like list.ts (see there): under every moduleResolution, with and without the DOM
// library. Each `@ts-expect-error` must stay an error. Never run.
import type { Readable } from 'node:stream';
import { type FetchInit, type FetchLike, MediaGateway } from 'mediagw';

export function fetchOptions(): MediaGateway[] {
  // The runtime's own fetch, as it is typed (Node's or the DOM's).
  const runtime = new MediaGateway({ fetch: globalThis.fetch });
  // A wrapper that adds a header.
  const wrapped = new MediaGateway({
    fetch: (url, init) => fetch(url, { ...init, headers: { ...init.headers, 'x-trace': '1' } }),
  });
  // A test double answering a Response.
  const double: FetchLike = async (_url: string, init: FetchInit) =>
    new Response(JSON.stringify({ method: init.method }), { status: 200 });
  // A fetch whose answer's body is a Node stream, as node-fetch's is.
  const nodeStyle = async (_url: string, _init: FetchInit) => ({
    status: 200,
    headers: new Headers(),
    body: null as Readable | null,
  });
  const clients = [
    runtime,
    wrapped,
    new MediaGateway({ fetch: double }),
    new MediaGateway({ fetch: nodeStyle }),
  ];
  clients.push(runtime.withOptions({ fetch: double }));

  // @ts-expect-error a fetch is a function, not its name
  clients.push(new MediaGateway({ fetch: 'fetch' }));
  // @ts-expect-error a fetch answers a response, not its text
  clients.push(new MediaGateway({ fetch: async (_url: string) => 'text' }));
  return clients;
}
