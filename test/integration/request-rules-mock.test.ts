// Covers: the mock gateway checks requests with the SDK's schemas
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { RequestValidationError } from '../../src/core/errors.js';
import { editFieldFromText } from '../../src/schemas/images/edit-fields.js';
import { clone } from '../reliability/arbitraries/rules.js';
import { type Rig, type SchemaSuite, SUITES, startRig } from '../reliability/schema-suites.js';

// Every request rule the SDK enforces, walked rule by rule (the rule catalogue of the property
// suites): the SDK refuses the request before sending it, and the mock gateway, sent the same
// request raw over HTTP (as another client would), answers 400 with the spec's error shape,
// because its routes check requests with the SDK's own schemas.
// spec: Errors — an invalid request gives HTTP 400, no task created.

const GROUPS = '/v1/vidmodel2/private-avatar/groups';
const ASSETS = '/v1/vidmodel2/private-avatar/assets';

/** Where each suite's request goes on the wire. */
const ROUTES: Record<string, (rig: Rig) => { method: string; path: string; query?: true; multipart?: true }> =
  {
    'videos.create (vidmodel-2.0-mini)': () => ({ method: 'POST', path: '/v1/videos/generations' }),
    'videos.create (vidmodel-2.5)': () => ({ method: 'POST', path: '/v1/videos/generations' }),
    'videos.create (vidmodel-2.5 preview)': () => ({ method: 'POST', path: '/v1/videos/generations' }),
    'videos.create (vidmodel-2.5 upgrade)': () => ({ method: 'POST', path: '/v1/video/generations' }),
    'videos.create (motion-v3-motion-control)': () => ({ method: 'POST', path: '/v1/videos/generations' }),
    'videos.create (vidmodel-2.0, vidmodel-2.0-fast)': () => ({
      method: 'POST',
      path: '/v1/videos/generations',
    }),
    'images.generate': () => ({ method: 'POST', path: '/v1/images/generations' }),
    'images.generateAsync': () => ({ method: 'POST', path: '/v1/images/generations/async' }),
    'images.edit': () => ({ method: 'POST', path: '/v1/images/edits', multipart: true }),
    'images.editAsync': () => ({ method: 'POST', path: '/v1/images/edits/async', multipart: true }),
    'midjourney.generate': () => ({ method: 'POST', path: '/v1/midjourney/generations' }),
    'embeddings.create': () => ({ method: 'POST', path: '/v1/embeddings' }),
    'library.groups.create': () => ({ method: 'POST', path: GROUPS }),
    'library.groups.update': (rig) => ({ method: 'PATCH', path: `${GROUPS}/${rig.fixtures.groupIds[0]}` }),
    'library.groups.list': () => ({ method: 'GET', path: GROUPS, query: true }),
    'library.assets.list': () => ({ method: 'GET', path: ASSETS, query: true }),
    'library.assets.submit': () => ({ method: 'POST', path: ASSETS }),
    'library.assets.update': (rig) => ({ method: 'PATCH', path: `${ASSETS}/${rig.fixtures.assetIds[0]}` }),
    'webhooks.endpoints.create': () => ({ method: 'POST', path: '/v1/webhook-endpoints' }),
    'webhooks.endpoints.update': (rig) => ({
      method: 'PATCH',
      path: `/v1/webhook-endpoints/${rig.fixtures.spareEndpointIds[0]}`,
    }),
    'webhooks.capabilities': () => ({ method: 'GET', path: '/v1/webhook-capabilities', query: true }),
    'webhooks.events.list': () => ({ method: 'GET', path: '/v1/webhook-events', query: true }),
  };

/** The text a form field or query parameter carries for a value: JSON for objects, as the SDK writes it. */
const textOf = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/** Whether a value goes as a file part of a multipart edit. */
const isFile = (value: unknown) =>
  value instanceof Uint8Array || value instanceof ArrayBuffer || value instanceof Blob;

/**
 * A multipart body (text fields as the SDK writes them, files as file parts), and the request as
 * the receiving side reads it back: null entries have no part, and text loses its JS type.
 */
function toForm(input: Record<string, unknown>) {
  const form = new FormData();
  const decoded: Record<string, unknown> = {};
  const file = (name: string, value: unknown): unknown => {
    if (value === undefined || value === null) return undefined;
    if (isFile(value)) {
      form.append(name, new Blob([value as Uint8Array<ArrayBuffer>]), `${name.replace('[]', '')}.png`);
      return value;
    }
    form.append(name, textOf(value));
    return textOf(value);
  };
  for (const [name, value] of Object.entries(input)) {
    if (value === undefined || value === null) continue;
    if (name === 'image' && Array.isArray(value)) {
      decoded.image = value.map((item) => file('image[]', item)).filter((item) => item !== undefined);
    } else if (name === 'image' || name === 'mask') decoded[name] = file(name, value);
    else {
      form.append(name, textOf(value));
      decoded[name] = editFieldFromText(name, textOf(value));
    }
  }
  return { form, decoded };
}

/** A query string, and the query as the receiving side reads it back (page and limit as numbers). */
function toQuery(input: Record<string, unknown>) {
  const query = new URLSearchParams();
  const decoded: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(input)) {
    if (value === undefined) continue;
    query.set(name, String(value));
    decoded[name] = name === 'page' || name === 'limit' ? Number(String(value)) : String(value);
  }
  return { query, decoded };
}

/**
 * Sends `input` raw, as its route carries it. Returns `undefined` when the wire cannot carry the
 * broken rule: a multipart or query request whose text, read back, is a valid request (a number
 * sent where a string belongs is the same text on the wire).
 */
async function sendRaw(rig: Rig, suite: SchemaSuite, input: unknown) {
  const route = ROUTES[suite.name]!(rig);
  const body = (input ?? {}) as Record<string, unknown>;
  let url = `${rig.gateway.url}${route.path}`;
  const init: RequestInit = {
    method: route.method,
    headers: { authorization: `Bearer ${rig.gateway.apiKey}` },
  };
  let decoded: Record<string, unknown> | undefined;
  if (route.query) {
    const wire = toQuery(body);
    url += `?${wire.query}`;
    decoded = wire.decoded;
  } else if (route.multipart) {
    const wire = toForm(body);
    init.body = wire.form;
    decoded = wire.decoded;
  } else {
    init.body = JSON.stringify(input);
    init.headers = { ...init.headers, 'content-type': 'application/json' };
  }
  if (
    decoded &&
    (await suite.validate(decoded).then(
      () => true,
      () => false,
    ))
  )
    return undefined;
  const response = await fetch(url, init);
  return { status: response.status, body: (await response.json()) as unknown };
}

/** One valid request per suite, each rule broken with up to three of its bad values. */
function catalogue(rig: Rig, suite: SchemaSuite) {
  const [valid] = fc.sample(suite.valid(rig.fixtures), { numRuns: 1, seed: 20_261_003 });
  if (valid === undefined) throw new Error(`${suite.name}: no valid sample`);
  return suite.rules(rig.fixtures).flatMap((rule) => {
    const bads = rule.bad ? fc.sample(rule.bad, { numRuns: 3, seed: 7 }) : [undefined];
    return bads.map((bad, i) => ({ rule: `${rule.rule} #${i + 1}`, ...rule.apply(clone(valid), bad) }));
  });
}

let rig: Rig;
beforeAll(async () => {
  rig = await startRig();
}, 60_000);
afterAll(() => rig.gateway.close());

const specShape = {
  code: expect.any(String),
  message: expect.any(String),
  data: null,
};
const libraryShape = {
  error: { message: expect.stringMatching(/^invalid_asset_material/), type: 'media_library_error' },
};

describe.each(SUITES.map((suite) => [suite.name, suite] as const))('%s', (_name, suite) => {
  test('every rule: the SDK refuses before sending, the mock answers 400 with the spec error shape', async () => {
    const problems: string[] = [];
    let checked = 0;
    for (const { rule, input } of catalogue(rig, suite)) {
      const sentBefore = rig.gateway.requests.length;
      const refused = await suite.send(rig, input, 0).then(
        () => undefined,
        (e: unknown) => e,
      );
      if (!(refused instanceof RequestValidationError)) problems.push(`SDK did not refuse: ${rule}`);
      if (rig.gateway.requests.length !== sentBefore) problems.push(`SDK sent: ${rule}`);
      const charged = rig.gateway.ledger.entries.length;
      const answer = await sendRaw(rig, suite, input);
      if (answer === undefined) continue;
      if (rig.gateway.ledger.entries.length !== charged) problems.push(`mock reserved: ${rule}`);
      checked++;
      const shaped =
        answer.status === 400 &&
        (expect.objectContaining(specShape).asymmetricMatch(answer.body) ||
          expect.objectContaining(libraryShape).asymmetricMatch(answer.body));
      if (!shaped) problems.push(`mock answered ${answer.status} ${JSON.stringify(answer.body)}: ${rule}`);
    }
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(0);
  });
});
