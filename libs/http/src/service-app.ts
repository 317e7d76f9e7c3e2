import type { IncomingMessage, ServerResponse } from 'node:http';
import express, { type ErrorRequestHandler, type Express, type Request, type RequestHandler, type Response, type Router } from 'express';
import type { Registry } from 'prom-client';
import type { Logger } from '@platform/logger';
import { CALLER_HEADER, verifyCaller, type AdministratorCheck } from '@platform/auth';
import { isConnectionFault } from '@platform/errors';
import { errorMiddleware } from './error-mapping.ts';
import { setAdministratorCheck, setCaller } from './request-context.ts';
import { admission } from './admission.ts';
import { requestLogging } from './request-logging.ts';
import { isDraining } from './listen.ts';
import { answerExactJson } from './json-responses.ts';
import { openApiDocument } from './openapi.ts';
import { declaredBodies, routeCatalogue, servesAdministratorRoutes } from './routes.ts';
import { EXTERNAL_URL } from './base-url.ts';
import { malformedParamsError, malformedUrlError } from './malformed-input.ts';
import { layersMatching, routeDispatch } from './route-dispatch.ts';
import { parseQueryString, requestBodies, type BodyLimits } from './request-body.ts';
import { metricsEndpoint, requestTimer } from './metrics.ts';

/**
 * Each check throws when its dependency is unusable; one that returns a string only reports a
 * state (a gRPC channel's, say) without making the service unready.
 */
export type ReadinessChecks = Record<string, () => Promise<void | string>>;

export interface ServiceAppOptions {
  logger: Logger;
  /** Secret shared with the gateway; every `/api` request must carry a caller signed with it. */
  internalSecret: string;
  /** The platform's public base URL, for links in responses; the service's own address otherwise. */
  externalUrl?: string;
  readinessChecks: ReadinessChecks;
  /** Wraps each API request, e.g. in a MikroORM request context. */
  requestScope?: express.RequestHandler;
  routes: Router[];
  /** Confirms administrators for administrator-only routes; required when any route is one. */
  administrators?: AdministratorCheck;
  /**
   * Routes that read their request bodies themselves, as streams (git's smart HTTP), outside
   * `/api`: mounted before the body parsers. A service with any checks the caller of every request.
   */
  streamingRoutes?: Router[];
  /** Limits on request bodies; `DEFAULT_BODY_LIMITS` unless a service needs larger uploads. */
  bodyLimits?: BodyLimits;
  /**
   * Error renderers for path prefixes whose protocol has its own error shape (SCIM), tried before
   * the GitLab one; they also see errors raised before routing, such as unreadable bodies, and
   * `notFound`'s error for a path under the prefix that no route serves.
   */
  errorRenderers?: Array<{ pathPrefix: string; render: express.ErrorRequestHandler; notFound?: (req: express.Request) => Error }>;
  /**
   * The service's Prometheus registry (`createMetricsRegistry`), served at `/-/metrics` on the
   * service's own port to loopback callers and to those presenting `token`; every request's
   * duration is recorded in it, labelled with `service`.
   */
  metrics?: { registry: Registry; service: string; token?: string | undefined };
}

/**
 * A service as Node's request listener: what its routes serve it dispatches itself; express's
 * app answers only what no route served and errors.
 */
export interface ServiceApp {
  (req: IncomingMessage, res: ServerResponse): void;
  /** express's: `listen` marks the drain there, readiness reads it, and the public base URL is kept there. */
  locals: Express['locals'];
}

/**
 * The HTTP shell every service shares: request ids, logging, health endpoints, body parsing
 * (JSON, forms, multipart), refusal of malformed URLs and parameters,
 * the gateway's caller check, and GitLab-shaped errors.
 *
 * Requests are served on the shell's own listener, with express's request and response objects
 * (its prototypes, as express's `handle` sets them) but without express's router: each layer
 * it walks costs a match, a parameter step and closures per request (docs/read-path.md, "The
 * service shell without express's router"). The `/-` routes and the streaming routes are
 * express routers, called when the request's path can reach them; express's app is entered
 * only with what no route served (404) or an error (the retry of a read, the error renderers
 * and the GitLab error mapping).
 */
export function createServiceApp(options: ServiceAppOptions): ServiceApp {
  const app = express();
  if (options.administrators) setAdministratorCheck(app, options.administrators);
  else if (options.routes.some(servesAdministratorRoutes)) {
    throw new Error('administrator-only routes need an administrator check (`administrators`)');
  }
  app.disable('x-powered-by');
  app.set('query parser', parseQueryString(options.bodyLimits));
  // Only the gateway calls a service: forwarding headers are no proof of anything here.
  app.set('trust proxy', false);
  if (options.externalUrl) app.locals[EXTERNAL_URL] = options.externalUrl.replace(/\/$/, '');
  app.set('etag', false);

  const { metrics } = options;
  const timeRequest = metrics ? requestTimer(metrics.registry, { service: metrics.service }) : undefined;
  const logRequest = requestLogging(options.logger);
  const health = healthRoutes(options);
  const streamingRoutes = options.streamingRoutes ?? [];
  const mayStream = layersMatching(streamingRoutes);
  const checkCaller = (req: Request) => {
    setCaller(req, verifyCaller(req.get(CALLER_HEADER), options.internalSecret, { method: req.method, path: req.originalUrl }));
  };
  const admit = admission();
  const readBodies = requestBodies(options.bodyLimits, declaredBodies(options.routes));
  const { requestScope } = options;
  const routes = routeDispatch(options.routes);
  /** The routes, in the API's unit of work for an API request. */
  const runRoutes: RequestHandler = (req, res, next) => {
    if (requestScope && API_PATH.test(req.path))
      requestScope(req, res, (error?: unknown) => (error ? next(error) : routes(req, res, next)));
    else routes(req, res, next);
  };

  // What no route served, and errors: express's app, entered with the request's outcome.
  const outcomes = new WeakMap<Request, unknown>();
  app.use((req, _res, next) => {
    next(outcomes.get(req));
  });
  for (const { pathPrefix, notFound } of options.errorRenderers ?? []) {
    if (notFound) app.use(pathPrefix, (req, _res, next) => next(notFound(req)));
  }
  app.use((_req, res) => {
    res.status(404).json({ error: '404 Not Found' });
  });
  app.use(retryOnConnectionFault(options.logger, runRoutes));
  for (const { pathPrefix, render } of options.errorRenderers ?? []) app.use(pathPrefix, render);
  app.use(errorMiddleware(options.logger));
  /** Answers a request no route served (no `error`), or the error it met. */
  const unserved = (req: Request, res: Response, error?: unknown): void => {
    if (error !== undefined && error !== null) outcomes.set(req, error);
    app(req, res);
  };

  /** The bodies and their parameters' check for every request, admission first for the API; then the routes. */
  const toRoutes = (req: Request, res: Response, api: boolean): void => {
    const next = (error?: unknown) => unserved(req, res, error);
    const checked = (error?: unknown) => {
      if (error !== undefined && error !== null) {
        next(error);
        return;
      }
      let problem: unknown;
      try {
        // Express parses the query string on every read of `req.query`: the routes read this parse.
        const query = req.query;
        Object.defineProperty(req, 'query', { value: query, writable: true, enumerable: true, configurable: true });
        problem = malformedParamsError(query) ?? malformedParamsError(req.body);
      } catch (thrown) {
        // The query string is parsed lazily, on first read: a parse failure surfaces here.
        problem = thrown;
      }
      if (problem) next(problem);
      else runRoutes(req, res, next);
    };
    if (!api) {
      readBodies(req, res, checked);
      return;
    }
    admit(req, res, () => {
      try {
        readBodies(req, res, checked);
      } catch (error) {
        next(error);
      }
    });
  };

  /**
   * After the `/-` routes: the caller's signature for the API (for every request in a service with
   * streaming routes, which come first), then the streaming routes whose paths can match, then the rest.
   */
  const serveChecked = (req: Request, res: Response): void => {
    const path = req.path;
    const api = API_PATH.test(path);
    if (api || streamingRoutes.length > 0) {
      try {
        checkCaller(req);
      } catch (error) {
        unserved(req, res, error);
        return;
      }
    }
    if (!mayStream(path)) {
      toRoutes(req, res, api);
      return;
    }
    let index = 0;
    const nextRouter = (error?: unknown): void => {
      const router = streamingRoutes[index++];
      if (error !== undefined && error !== null) unserved(req, res, error);
      else if (router === undefined) toRoutes(req, res, api);
      else router(req, res, nextRouter);
    };
    nextRouter();
  };

  /** In the request's logging context: the refusal of an undecodable URL before anything reads it, then the `/-` routes (GET and HEAD). */
  const serveLogged = (req: Request, res: Response): void => {
    try {
      const urlProblem = malformedUrlError(req.originalUrl);
      if (urlProblem) unserved(req, res, urlProblem);
      else if ((req.method === 'GET' || req.method === 'HEAD') && HEALTH_PATH.test(req.path)) {
        health(req, res, (error?: unknown) => (error ? unserved(req, res, error) : serveChecked(req, res)));
      } else serveChecked(req, res);
    } catch (error) {
      unserved(req, res, error);
    }
  };

  const serve = (message: IncomingMessage, response: ServerResponse): void => {
    // What express's `handle` does before its router: its request and response objects, linked.
    const req = Object.setPrototypeOf(message, app.request) as Request;
    const res = Object.setPrototypeOf(response, app.response) as Response;
    req.res = res;
    res.locals = Object.create(null) as Response['locals'];
    req.originalUrl = req.url;
    req.baseUrl = '';
    timeRequest?.(req, res);
    answerExactJson(res);
    logRequest(req, res, () => serveLogged(req, res));
  };
  return Object.assign(serve, { locals: app.locals });
}

/** The `/-` routes' paths, as express mounted them there: `/-` itself and below. */
const HEALTH_PATH = /^\/-(?:\/|$)/;

/** The paths under `/api`, as express mounts a handler there: without regard to case, `/api` itself and below. */
const API_PATH = /^\/api(?:\/|$)/i;

/**
 * The health, readiness, metrics and API document routes, in one router of paths under `/-`,
 * offered GET and HEAD requests only, as when each was mounted on an express app (an OPTIONS
 * request goes on to the 404).
 */
function healthRoutes(options: ServiceAppOptions): Router {
  const router = express.Router();
  // This service's part of the API document; the gateway merges every service's at /api/v4/openapi.json.
  router.get('/-/openapi.json', (_req, res) => {
    res.json(openApiDocument(routeCatalogue(), { title: 'GitLab API v4', version: 'v4' }));
  });
  router.get('/-/health', (_req, res) => {
    res.json({ status: 'ok' });
  });
  const { metrics } = options;
  if (metrics) router.get('/-/metrics', metricsEndpoint(metrics.registry, { token: metrics.token }));
  router.get('/-/readiness', (req, res) => {
    if (isDraining(req.app)) {
      res.status(503).json({ status: 'draining' });
      return;
    }
    void readiness(options.readinessChecks).then(({ ready, checks }) => {
      res.status(ready ? 200 : 503).json({ status: ready ? 'ok' : 'failed', checks });
    });
  });
  return router;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * A read that failed because its database connection broke (terminated, reset) runs once more
 * through the routes, on a new unit of work and so a new connection; anything else, or a second
 * fault, goes on to the error mapping (503, never 500).
 */
function retryOnConnectionFault(logger: Logger, runRoutes: RequestHandler): ErrorRequestHandler {
  const retried = new WeakSet<Request>();
  return (error, req, res, next) => {
    if (!isConnectionFault(error) || !SAFE_METHODS.has(req.method) || res.headersSent || retried.has(req)) {
      next(error);
      return;
    }
    retried.add(req);
    logger.warn({ err: error, method: req.method, url: req.originalUrl }, 'connection fault; retrying the read once');
    req.url = req.originalUrl;
    // A moment for the pool to see the broken connection close, so that the retry gets another.
    setTimeout(() => {
      try {
        runRoutes(req, res, (retryError?: unknown) => next(retryError ?? error));
      } catch (retryError) {
        next(retryError);
      }
    }, 100);
  };
}

async function readiness(checks: ReadinessChecks) {
  const results = await Promise.all(
    Object.entries(checks).map(async ([name, check]) => {
      try {
        const state = await check();
        return [name, { ok: true, state: state ?? 'ok' }] as const;
      } catch (error) {
        return [name, { ok: false, state: error instanceof Error ? error.message : String(error) }] as const;
      }
    }),
  );
  return {
    ready: results.every(([, result]) => result.ok),
    checks: Object.fromEntries(results.map(([name, result]) => [name, result.state])),
  };
}
