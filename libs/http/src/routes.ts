import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import {
  deployTokenOf,
  requireCurrentAdmin,
  requireScope,
  requireUser,
  scopesGranting,
  type AuthenticatedCaller,
  type Caller,
  type RouteScope,
} from '@platform/auth';
import { administratorCheckOf, callerOf } from './request-context.ts';
import { dropAddedJsonCharset, JsonArrayText, JsonText, sendJsonText } from './json-responses.ts';
import { recordServedRoutes, routePathPattern } from './route-dispatch.ts';
import { parseParams, requestParams } from './params.ts';
import type { DeclaredBody } from './request-body.ts';
import { keysetHeaders, keysetOf, keysetShape, pageParams, pageShape, setPaginationHeaders, type PageRequest } from './pagination.ts';

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

/**
 * Who may call a route: anybody (signed in or not), signed-in users, signed-in users and deploy
 * tokens (the package registries' writes, which GitLab lets a deploy token do), or administrators only.
 */
export type RouteAccess = 'anonymous' | 'user' | 'user_or_deploy_token' | 'administrator';

type CallerFor<Access extends RouteAccess> = Access extends 'anonymous' | 'user_or_deploy_token' ? Caller : AuthenticatedCaller;

interface ReplyOptions {
  status?: number;
  headers?: Record<string, string>;
  body?: unknown;
  /** Bytes sent as they are instead of a JSON body (a package file), with the `headers` saying what they are. */
  stream?: Readable;
}

/** A response other than a JSON body with the route's status: extra headers, another status, a file. */
export class RouteReply {
  readonly status: number | undefined;
  readonly headers: Record<string, string>;
  readonly body: unknown;
  readonly stream: Readable | undefined;

  constructor(options: ReplyOptions) {
    this.status = options.status;
    this.headers = options.headers ?? {};
    this.body = options.body;
    this.stream = options.stream;
  }
}

export function reply(options: ReplyOptions): RouteReply {
  return new RouteReply(options);
}

export interface RouteContext<Input, TheCaller extends Caller, Deps> {
  caller: TheCaller;
  /** Path, query and body parameters merged as Grape merges them, validated by the route's schema. */
  input: Input;
  deps: Deps;
  /** For what parameters do not carry: the base URL, or the credentials of a protocol that authenticates itself (SCIM). */
  request: Request;
  /**
   * The `window` of a list, with GitLab's pagination headers. A null total (a list too long to
   * count) omits the totals; `hasNext` then says whether more follow, else a full page is taken to.
   */
  page<Item>(window: PageRequest, result: { items: Item[] | JsonArrayText; total: number | null; hasNext?: boolean }): RouteReply;
}

export interface RouteSpec<Schema extends z.ZodType, Access extends RouteAccess, Deps> {
  method: HttpMethod;
  /** Written out in full (`/api/v4/groups/:id/members/:user_id`), so that searching for a path finds its route. */
  path: string;
  access: Access;
  /** The narrowest token scope that grants the route; a token without it gets 403 `insufficient_scope`. */
  scope: RouteScope;
  input: Schema;
  /** The status of a success; 204 sends no body. Defaults to 200. */
  status?: number;
  /** The shape of a success's body, for the API documentation. */
  response?: z.ZodType;
  /** A larger bound, in bytes, of this route's JSON and form bodies than the service's (a file's content). */
  bodyBytes?: number;
  /**
   * Set when the route drops its body, as GitLab drops an Unleash SDK's metrics: a JSON body is
   * read within the bound and checked to be JSON (GitLab refuses one that is not), and only the
   * parameters of the route's input are taken from it, as Grape would still read them; the rest is
   * never built into parameters. Its input is an object schema.
   */
  dropsBody?: boolean;
  handle(context: RouteContext<z.output<Schema>, CallerFor<Access>, Deps>): Promise<unknown>;
}

/** What the route catalogue lists about a route: everything but its handler. */
export interface CatalogueEntry {
  service: string;
  method: HttpMethod;
  path: string;
  access: RouteAccess;
  scope: RouteScope;
  input: z.ZodType;
  status: number;
  response?: z.ZodType;
  bodyBytes?: number;
  dropsBody?: boolean;
}

export interface RouteDefinition<Deps> extends CatalogueEntry {
  handle(context: RouteContext<unknown, Caller, Deps>): Promise<unknown>;
}

const catalogue: CatalogueEntry[] = [];

/** Every route defined so far, in definition order; each routes module adds its own when imported. */
export function routeCatalogue(): readonly CatalogueEntry[] {
  return catalogue;
}

const READ_METHODS: ReadonlySet<HttpMethod> = new Set(['GET']);
/** What `read_user` grants, as GitLab: the user endpoints, and the activity events (`/events`, `/projects/:id/events`). */
const USER_PATHS = /^\/api\/v4\/(users?(\/|$)|events$|projects\/:id\/events$)/;

/**
 * Refuses, when the module loads, a declaration whose scope would let a narrow token do more
 * than GitLab allows: `read_api` is for reads, `read_user` for reads of `/user`, `/users` and events.
 */
function checkDeclaration(entry: CatalogueEntry): void {
  const where = `${entry.method} ${entry.path}`;
  if (!entry.path.startsWith('/api/')) throw new Error(`${where}: a route path is written in full, from /api/`);
  const grantsReadOnlyScope = scopesGranting(entry.scope).some((scope) => scope.startsWith('read_'));
  if (grantsReadOnlyScope && !READ_METHODS.has(entry.method)) {
    throw new Error(`${where}: a write cannot be granted by ${entry.scope}; declare a write scope`);
  }
  if (entry.scope === 'read_user' && !USER_PATHS.test(entry.path)) {
    throw new Error(`${where}: read_user grants only reads of /user, /users and events`);
  }
  if (entry.dropsBody && !(entry.input instanceof z.ZodObject)) {
    throw new Error(`${where}: a route that drops its body names the parameters it reads with an object schema`);
  }
}

export type SortDirection = 'asc' | 'desc';

/** The parameters a list route adds to its input, as GitLab names them. */
export interface ListParams<Order extends string> {
  page?: number | undefined;
  per_page?: number | undefined;
  order_by?: Order | undefined;
  sort?: SortDirection | undefined;
  pagination?: 'offset' | 'keyset' | undefined;
  cursor?: string | undefined;
}

export interface ListContext<Input, TheCaller extends Caller, Deps, Order extends string>
  extends Omit<RouteContext<Input, TheCaller, Deps>, 'page'> {
  /** The rows of the requested offset page. */
  window: { offset: number; limit: number };
  /** `order_by` and `sort`, defaults applied; undefined for a list without an order. */
  order: [Order] extends [never] ? undefined : { by: Order; sort: SortDirection };
  /** Set when the request asks for `pagination=keyset`: the page after `afterId`, ordered by id in `sort`. */
  keyset: { afterId?: number; sort: SortDirection; limit: number } | undefined;
}

/**
 * A list's page: an offset page has a total (null when too long to count); a keyset page says
 * whether more follow. The items are values, or the page's JSON array a statement wrote.
 */
export interface ListResult<Item> {
  items: Item[] | JsonArrayText;
  total?: number | null;
  hasNext?: boolean;
}

/** A list route's input: its own parameters, and the list parameters it does not name itself. */
type ListInput<Schema extends z.ZodObject, Order extends string> = z.output<Schema> & Omit<ListParams<Order>, keyof z.output<Schema>>;

export interface ListRouteSpec<
  Schema extends z.ZodObject,
  Access extends RouteAccess,
  Deps,
  Order extends string = never,
  Keyset extends boolean = false,
> {
  /** Written out in full, as for any route. */
  path: string;
  access: Access;
  scope: RouteScope;
  /** Path parameters and filters; the helper adds `page`, `per_page` and those below. */
  input: Schema;
  /** `order_by`'s values and default, and `sort`'s default. */
  order?: { by: readonly [Order, ...Order[]]; default: NoInfer<Order>; sort: SortDirection };
  /** Accepts GitLab's `pagination=keyset` and `cursor`; keyset pages are ordered by id only. */
  keyset?: Keyset;
  response?: z.ZodType;
  handle(
    context: ListContext<ListInput<Schema, Order>, CallerFor<Access>, Deps, Order>,
  ): Promise<ListResult<Keyset extends true ? { id: number } : unknown>>;
}

/**
 * The route a list declaration stands for: its input with GitLab's list parameters, and a handler
 * that answers the page with GitLab's headers (X-Total and the others and Link for an offset page,
 * Link with the next cursor for a keyset page).
 */
function listRouteSpec<Schema extends z.ZodObject, Access extends RouteAccess, Deps, Order extends string, Keyset extends boolean>(
  spec: ListRouteSpec<Schema, Access, Deps, Order, Keyset>,
): RouteSpec<z.ZodType, Access, Deps> {
  const { order, keyset: acceptsKeyset, handle, input, ...declared } = spec;
  const listShape = {
    ...pageShape,
    ...(acceptsKeyset ? keysetShape : {}),
    ...(order ? { order_by: z.enum(order.by).optional(), sort: z.enum(['asc', 'desc']).optional() } : {}),
  };
  return {
    ...declared,
    method: 'GET',
    // `safeExtend` keeps the refinements of the route's own schema.
    input: input.safeExtend(listShape),
    handle: async (context) => {
      const params = context.input as ListParams<Order>;
      const pageRequest = pageParams(params);
      const ordered = order && { by: params.order_by ?? order.default, sort: params.sort ?? order.sort };
      const after = acceptsKeyset ? keysetOf(params) : undefined;
      const { page, ...rest } = context;
      const result = await handle({
        ...rest,
        input: context.input as ListInput<Schema, Order>,
        window: { offset: pageRequest.offset, limit: pageRequest.perPage },
        order: ordered as ListContext<unknown, CallerFor<Access>, Deps, Order>['order'],
        keyset: after && { ...after, sort: ordered?.sort ?? 'asc', limit: pageRequest.perPage },
      });
      if (after) {
        const items = result.items as Array<{ id: number }> | JsonArrayText;
        const lastId = items instanceof JsonArrayText ? items.lastId : items.at(-1)?.id;
        const headers = keysetHeaders(context.request, { perPage: pageRequest.perPage, lastId, hasMore: result.hasNext ?? false });
        return reply({ headers, body: items });
      }
      return page(pageRequest, {
        items: result.items,
        total: result.total ?? null,
        ...(result.hasNext === undefined ? {} : { hasNext: result.hasNext }),
      });
    },
  };
}

/**
 * Declares the routes of one service whose handlers need `Deps`: `const route = routesOf<Deps>('identity')`,
 * then `route({ method, path, access, scope, input, handle })`, or `route.list({ path, access, scope,
 * input, order, keyset, handle })` for a paginated list. Each route joins the catalogue.
 */
export function routesOf<Deps>(service: string) {
  function route<Schema extends z.ZodType, Access extends RouteAccess>(spec: RouteSpec<Schema, Access, Deps>): RouteDefinition<Deps> {
    const { handle, status, response, ...declared } = spec;
    const entry: CatalogueEntry = { service, ...declared, status: status ?? 200, ...(response ? { response } : {}) };
    checkDeclaration(entry);
    catalogue.push(entry);
    return { ...entry, handle: handle as RouteDefinition<Deps>['handle'] };
  }
  function list<Schema extends z.ZodObject, Access extends RouteAccess, Order extends string = never, Keyset extends boolean = false>(
    spec: ListRouteSpec<Schema, Access, Deps, Order, Keyset>,
  ): RouteDefinition<Deps> {
    return route(listRouteSpec(spec));
  }
  return Object.assign(route, { list });
}

/**
 * The caller, once its token scope and the route's access rule allow it; 403 `insufficient_scope`
 * first, as GitLab checks. Administrator-only routes confirm with the app's administrator check
 * that the caller still is one, rather than trusting the flag the gateway signed.
 */
async function admittedCaller(req: Request, route: CatalogueEntry): Promise<Caller> {
  const caller = callerOf(req);
  if (caller.kind === 'user') requireScope(caller, route.scope);
  if (route.access === 'user') return requireUser(caller);
  if (route.access === 'user_or_deploy_token') return deployTokenOf(caller) ? caller : requireUser(caller);
  if (route.access === 'administrator') return requireCurrentAdmin(caller, administratorCheckOf(req));
  return caller;
}

const withAdministratorRoutes = new WeakSet<Router>();

/** Whether a router made by `createRouter` serves administrator-only routes, which need an administrator check. */
export function servesAdministratorRoutes(router: Router): boolean {
  return withAdministratorRoutes.has(router);
}

async function send(res: Response, route: CatalogueEntry, result: unknown): Promise<void> {
  const replied = result instanceof RouteReply ? result : new RouteReply({ body: result });
  const status = replied.status ?? route.status;
  res.status(status).set(replied.headers);
  dropAddedJsonCharset(res);
  if (replied.stream) await pipeline(replied.stream, res);
  else if (status === 204 || status === 304) res.end();
  // A file held in memory (an avatar, say) goes as it is, typed by the route's headers.
  else if (Buffer.isBuffer(replied.body)) res.send(replied.body);
  else if (replied.body instanceof JsonText) sendJsonText(res, replied.body.text);
  else res.json(replied.body);
}

/** The routes of a router that declare something of their bodies (a larger bound, or that they drop them), matched by method and path. */
const bodyDeclarations = new WeakMap<Router, Array<{ method: string; path: RegExp; body: DeclaredBody }>>();

/** A route path as a pattern of the request paths it serves; a route declaring its body has a plain path. */
function pathPattern(route: CatalogueEntry): RegExp {
  const pattern = routePathPattern(route.path);
  if (!pattern) throw new Error(`${route.method} ${route.path}: a route declaring its body has a path of segments and parameters only`);
  return pattern;
}

/** What a route declares of its body, if anything: a larger bound (`bodyBytes`), the parameters it keeps of a body it drops (`dropsBody`). */
function bodyDeclaration(route: CatalogueEntry): DeclaredBody | undefined {
  if (!route.bodyBytes && !route.dropsBody) return undefined;
  return {
    ...(route.bodyBytes ? { bytes: route.bodyBytes } : {}),
    ...(route.dropsBody ? { keptParams: Object.keys((route.input as z.ZodObject).shape) } : {}),
  };
}

/** What the request's route among `routers` declares of its body, if it declares anything. */
export function declaredBodies(routers: readonly Router[]): (req: Request) => DeclaredBody | undefined {
  const routes = routers.flatMap((router) => bodyDeclarations.get(router) ?? []);
  return (req) => routes.find((route) => route.method === req.method && route.path.test(req.path))?.body;
}

/** An express router serving `routes` with `deps`: what a service mounts. */
export function createRouter<Deps>(routes: ReadonlyArray<RouteDefinition<Deps>>, deps: Deps): Router {
  const router = Router();
  if (routes.some((route) => route.access === 'administrator')) withAdministratorRoutes.add(router);
  bodyDeclarations.set(
    router,
    routes.flatMap((route) => {
      const body = bodyDeclaration(route);
      return body ? [{ method: route.method, path: pathPattern(route), body }] : [];
    }),
  );
  recordServedRoutes(router, routes);
  for (const route of routes) {
    const method = route.method.toLowerCase() as Lowercase<HttpMethod>;
    router[method](route.path, (req, res, next) => {
      const handled = async () => {
        const caller = await admittedCaller(req, route);
        const input = parseParams(route.input, requestParams(req));
        const page: RouteContext<unknown, Caller, Deps>['page'] = (window, result) => {
          const count = result.items instanceof JsonArrayText ? result.items.count : result.items.length;
          setPaginationHeaders(req, res, window, result.total, result.hasNext ?? count >= window.perPage);
          return reply({ body: result.items });
        };
        await send(res, route, await route.handle({ caller, input, deps, request: req, page }));
      };
      handled().catch(next);
    });
  }
  return router;
}
