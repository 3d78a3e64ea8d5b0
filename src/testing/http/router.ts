import type { RequestContext, RouteOptions, RouteParams } from '../types.js';

/**
 * A handler as the router holds it: it gets the edge's request context extended to `Ctx` (the
 * running gateway adds itself as `ctx.gateway`), its params typed from the route's pattern.
 */
export type ContextHandler<Ctx extends RequestContext, Params> = (
  ctx: Ctx & { readonly params: Params },
) => void | Promise<void>;

/** A registered route. */
export interface Route<Ctx extends RequestContext = RequestContext> {
  /** HTTP method, upper case. */
  method: string;
  /** The path pattern with `:name` segments. */
  pattern: string;
  /** The pattern split into segments. */
  segments: string[];
  /** The route's handler. */
  handler: ContextHandler<Ctx, Record<string, string>>;
  /** How the route reads its request, after defaults. */
  options: Required<RouteOptions>;
}

/** What {@link Router.match} found: the route, a 405 with the methods allowed, or a 404. */
export type RouteMatch<Ctx extends RequestContext = RequestContext> =
  | { kind: 'found'; route: Route<Ctx>; params: Record<string, string> }
  | { kind: 'method-not-allowed'; allowed: string[] }
  | { kind: 'not-found' };

/**
 * Routes of the mock gateway. Patterns are paths with `:name` segments; a literal segment wins
 * over a parameter at the same place, and among equals the first added wins. `Ctx` is the
 * context its handlers get; the gateway's router gives them `RouteContext`, with `ctx.gateway`.
 *
 * @example
 * router.add('GET', '/v1/videos/:id', (ctx) => ctx.json(200, { id: ctx.params.id }));
 */
export class Router<Ctx extends RequestContext = RequestContext> {
  private readonly routes: Route<Ctx>[] = [];

  /**
   * Adds a route.
   *
   * @throws Error when the same method and pattern are already registered.
   */
  add<P extends string>(
    method: string,
    pattern: P,
    handler: ContextHandler<Ctx, RouteParams<P>>,
    options: RouteOptions = {},
  ): this {
    const upper = method.toUpperCase();
    if (this.routes.some((r) => r.method === upper && r.pattern === pattern)) {
      throw new Error(`mock route ${upper} ${pattern} is already registered`);
    }
    this.routes.push({
      method: upper,
      pattern,
      segments: split(pattern),
      handler: handler as unknown as ContextHandler<Ctx, Record<string, string>>,
      options: { auth: options.auth ?? true, body: options.body ?? 'json' },
    });
    return this;
  }

  /**
   * The route for a request, with its decoded path parameters. Used by the gateway's request
   * pipeline.
   *
   * @internal
   */
  match(method: string, path: string): RouteMatch<Ctx> {
    const segments = split(path);
    let best: { route: Route<Ctx>; params: Record<string, string>; score: number } | undefined;
    const allowed = new Set<string>();
    for (const route of this.routes) {
      const found = matchSegments(route.segments, segments);
      if (!found) continue;
      if (route.method !== method.toUpperCase()) {
        allowed.add(route.method);
        continue;
      }
      if (!best || found.score > best.score) best = { route, params: found.params, score: found.score };
    }
    if (best) return { kind: 'found', route: best.route, params: best.params };
    return allowed.size > 0 ? { kind: 'method-not-allowed', allowed: [...allowed] } : { kind: 'not-found' };
  }

  /** `METHOD pattern` of every route, in order of registration. */
  list(): string[] {
    return this.routes.map((r) => `${r.method} ${r.pattern}`);
  }
}

function split(path: string): string[] {
  const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  return trimmed.split('/').slice(1);
}

function matchSegments(
  pattern: string[],
  path: string[],
): { params: Record<string, string>; score: number } | undefined {
  if (pattern.length !== path.length) return undefined;
  const params: Record<string, string> = {};
  let score = 0;
  for (let i = 0; i < pattern.length; i++) {
    const want = pattern[i] ?? '';
    const got = path[i] ?? '';
    if (want.startsWith(':')) {
      if (got === '') return undefined;
      try {
        params[want.slice(1)] = decodeURIComponent(got);
      } catch {
        return undefined;
      }
    } else if (want === got) {
      score += 1;
    } else {
      return undefined;
    }
  }
  return { params, score };
}
