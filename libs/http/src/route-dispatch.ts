import type { NextFunction, Request, RequestHandler, Response, Router } from 'express';

/** What a router made by `createRouter` serves: each route's method and path, as express reads it. */
const servedRoutes = new WeakMap<Router, ReadonlyArray<{ method: string; path: string }>>();

export function recordServedRoutes(router: Router, routes: ReadonlyArray<{ method: string; path: string }>): void {
  servedRoutes.set(router, routes);
}

/** The methods whose routes the table knows; a HEAD is served by GET routes, as express does. */
const TABLED_METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The request paths an express route path (`/api/v4/projects/:id/packages/maven/*path/:file_name`)
 * can match, as express matches them: without regard to case, with an optional trailing slash. A
 * path with optional groups (`{...}`) or other syntax is not read: undefined, and its router is
 * tried for every request.
 */
export function routePathPattern(path: string): RegExp | undefined {
  if (/[{}()?+!]/.test(path)) return undefined;
  let pattern = '';
  for (const part of path.split(/(:[A-Za-z_$][\w$]*|\*[A-Za-z_$][\w$]*)/)) {
    if (part.startsWith(':')) pattern += '[^/]+';
    else if (part.startsWith('*')) pattern += '.+';
    else pattern += part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${pattern}/?$`, 'i');
}

/** The first segment under `/api/v4/` (`projects`) of a route path or a request path, lower-cased; undefined when not static. */
function sectionOf(path: string): string | undefined {
  const match = /^\/api\/v4\/([^/:*{]+)(?:\/|$)/i.exec(path);
  return match?.[1]?.toLowerCase();
}

interface TableEntry {
  router: Router;
  /** Undefined: tried for every request of the section (its routes could not be read). */
  serves?: RegExp;
}

/**
 * The routers a request can reach, in the order they are mounted, from a table built once: by
 * method and by the first segment under `/api/v4/`, each router with one pattern of all its
 * routes of that method. Express would offer the request to every router in turn, each testing
 * every one of its routes' patterns; most requests of a service with many features then went
 * through hundreds of patterns before their own.
 */
export function routeTable(routers: readonly Router[]): (req: Pick<Request, 'method' | 'path'>) => readonly Router[] {
  /** Per method, per section (`''`: paths outside `/api/v4/<static segment>`), the entries in mounting order. */
  const table = new Map<string, Map<string, TableEntry[]>>();
  const sections = new Set<string>(['']);
  for (const router of routers) for (const route of servedRoutes.get(router) ?? []) sections.add(sectionOf(route.path) ?? '');
  /** Entries that every section of `method` holds: routers not made by `createRouter`, and unreadable paths. */
  const addEverywhere = (method: string, entry: TableEntry) => {
    for (const section of sections) entriesOf(method, section).push(entry);
  };
  const entriesOf = (method: string, section: string): TableEntry[] => {
    let bySection = table.get(method);
    if (!bySection) table.set(method, (bySection = new Map()));
    let entries = bySection.get(section);
    if (!entries) bySection.set(section, (entries = []));
    return entries;
  };
  for (const router of routers) {
    const routes = servedRoutes.get(router);
    if (!routes) {
      for (const method of TABLED_METHODS) addEverywhere(method, { router });
      continue;
    }
    for (const method of TABLED_METHODS) {
      const ofMethod = routes.filter((route) => route.method === method);
      const patterns = ofMethod.map((route) => routePathPattern(route.path));
      if (ofMethod.length === 0) continue;
      if (patterns.some((pattern) => pattern === undefined)) {
        addEverywhere(method, { router });
        continue;
      }
      const bySection = new Map<string, string[]>();
      ofMethod.forEach((route, index) => {
        const section = sectionOf(route.path) ?? '';
        bySection.set(section, [...(bySection.get(section) ?? []), patterns[index]!.source]);
      });
      for (const [section, sources] of bySection) {
        const entry = { router, serves: new RegExp(sources.map((source) => `(?:${source})`).join('|'), 'i') };
        // A route outside any section (its first segment a parameter) can serve a request of any section.
        if (section === '') addEverywhere(method, entry);
        else entriesOf(method, section).push(entry);
      }
    }
  }
  return (req) => {
    const method = req.method === 'HEAD' ? 'GET' : req.method;
    // OPTIONS and other methods go to every router: express answers OPTIONS from all the routes of a path.
    if (!TABLED_METHODS.has(method)) return routers;
    const bySection = table.get(method);
    const path = req.path;
    const entries = bySection?.get(sectionOf(path) ?? '') ?? bySection?.get('') ?? [];
    const reachable: Router[] = [];
    for (const entry of entries) {
      if ((entry.serves === undefined || entry.serves.test(path)) && reachable.at(-1) !== entry.router) reachable.push(entry.router);
    }
    return reachable;
  };
}

/**
 * What this file reads of a router made by `createRouter` (express's router 2): its layers, each
 * one route of one handler, matched by the layer's own `match` (express's pattern and parameter
 * decoding) and run by its `handleRequest` (which runs the route and catches what it throws).
 */
interface RouteLayer {
  route?: { methods: Record<string, boolean | undefined>; stack: unknown[] };
  match(path: string): { params: Record<string, string> } | false;
  handleRequest(req: Request, res: Response, next: NextFunction): void;
}

/**
 * A router's route layers by method (HEAD with GET), in mounting order, when every one of its
 * layers is a route (no middleware, no `router.param`): what express's `Router.handle` would pick
 * among them, this file can pick and run alone. Undefined otherwise: the router runs as it is.
 */
function routeLayersOf(router: Router): Map<string, RouteLayer[]> | undefined {
  if (!servedRoutes.has(router)) return undefined;
  const { stack, params } = router as unknown as { stack?: RouteLayer[]; params?: Record<string, unknown> };
  if (!Array.isArray(stack) || Object.keys(params ?? {}).length > 0) return undefined;
  const byMethod = new Map<string, RouteLayer[]>();
  for (const layer of stack) {
    if (!layer.route || typeof layer.match !== 'function' || typeof layer.handleRequest !== 'function') return undefined;
    for (const method of TABLED_METHODS) {
      if (layer.route.methods[method.toLowerCase()]) byMethod.set(method, [...(byMethod.get(method) ?? []), layer]);
    }
  }
  return byMethod;
}

/**
 * Offers each request to the routers that can serve it (`routeTable`), in order, as mounting them
 * all would. Inside a router made by `createRouter`, the request goes straight to the first of its
 * routes that matches, as express's `Router.handle` would pick it, without that walk's per-request
 * closures and bookkeeping (base URL, `req.next`, parameter callbacks, the restore on the way out);
 * a route that passes the request on (`next()`) hands it to the next matching route, then router.
 */
export function routeDispatch(routers: readonly Router[]): RequestHandler {
  const reachable = routeTable(routers);
  const direct = new Map(routers.map((router) => [router, routeLayersOf(router)]));
  return (req, res, next) => {
    const candidates = reachable(req);
    const method = req.method === 'HEAD' ? 'GET' : req.method;
    const path = req.path;
    const parentParams = req.params;
    let index = 0;
    let layers: RouteLayer[] | undefined;
    let layerIndex = 0;
    const tryNext = (error?: unknown): void => {
      req.params = parentParams;
      if (error === 'router') {
        layers = undefined;
      } else if (error !== undefined && error !== null && error !== 'route') {
        next(error);
        return;
      }
      while (layers !== undefined && layerIndex < layers.length) {
        const layer = layers[layerIndex++]!;
        let match: ReturnType<RouteLayer['match']>;
        try {
          match = layer.match(path);
        } catch (matchError) {
          // Matching decodes the parameters: an undecodable one is the request's error, as in express.
          next(matchError);
          return;
        }
        if (match) {
          req.params = match.params;
          layer.handleRequest(req, res, tryNext);
          return;
        }
      }
      layers = undefined;
      const router = candidates[index++];
      if (router === undefined) {
        next();
        return;
      }
      const routes = direct.get(router);
      if (routes === undefined || !TABLED_METHODS.has(method)) {
        router(req, res, tryNext);
        return;
      }
      layers = routes.get(method) ?? [];
      layerIndex = 0;
      tryNext();
    };
    tryNext();
  };
}
