import express, { type Express, type Router } from 'express';
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
import { routeDispatch } from './route-dispatch.ts';
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
 * The HTTP shell every service shares: request ids, logging, health endpoints, body parsing
 * (JSON, forms, multipart), refusal of malformed URLs and parameters,
 * the gateway's caller check, and GitLab-shaped errors.
 */
export function createServiceApp(options: ServiceAppOptions): Express {
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
  // The steps every request takes first, in one handler rather than an express layer each: its
  // timer, exact JSON answers, its id (the rest of the request runs in its logging context), and
  // the refusal of an undecodable URL before anything reads it.
  app.use((req, res, next) => {
    timeRequest?.(req, res);
    answerExactJson(res);
    logRequest(req, res, () => next(malformedUrlError(req.originalUrl)));
  });
  app.use('/-', healthRoutes(options));

  const streamingRoutes = options.streamingRoutes ?? [];
  const checkCaller = (req: express.Request) => {
    setCaller(req, verifyCaller(req.get(CALLER_HEADER), options.internalSecret, { method: req.method, path: req.originalUrl }));
  };
  if (streamingRoutes.length > 0) {
    app.use((req, _res, next) => {
      try {
        checkCaller(req);
        next();
      } catch (error) {
        next(error);
      }
    });
    for (const router of streamingRoutes) app.use(router);
  }
  const admit = admission();
  const readBodies = requestBodies(options.bodyLimits, declaredBodies(options.routes));
  const { requestScope } = options;
  const routes = routeDispatch(options.routes);
  // What stands between a request and the routes, and the routes, in one handler (each express
  // layer crossed costs a match, a parameter step and a closure per request): the caller's
  // signature (unless checked above, for the streaming routes) and admission for the API; the
  // bodies and their parameters' check for every request; then the API's unit of work and the routes.
  app.use((req, res, next) => {
    const api = API_PATH.test(req.path);
    const toRoutes = (error?: unknown) => {
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
      else if (api && requestScope) requestScope(req, res, (error?: unknown) => (error ? next(error) : routes(req, res, next)));
      else routes(req, res, next);
    };
    if (!api) {
      readBodies(req, res, toRoutes);
      return;
    }
    if (streamingRoutes.length === 0) {
      try {
        checkCaller(req);
      } catch (error) {
        next(error);
        return;
      }
    }
    admit(req, res, () => {
      try {
        readBodies(req, res, toRoutes);
      } catch (error) {
        next(error);
      }
    });
  });

  for (const { pathPrefix, notFound } of options.errorRenderers ?? []) {
    if (notFound) app.use(pathPrefix, (req, _res, next) => next(notFound(req)));
  }
  app.use((_req, res) => {
    res.status(404).json({ error: '404 Not Found' });
  });
  app.use(retryOnConnectionFault(options, routes));
  for (const { pathPrefix, render } of options.errorRenderers ?? []) app.use(pathPrefix, render);
  app.use(errorMiddleware(options.logger));
  return app;
}

/** The paths under `/api`, as express mounts a handler there: without regard to case, `/api` itself and below. */
const API_PATH = /^\/api(?:\/|$)/i;

/**
 * The health, readiness, metrics and API document routes, in one router under `/-`: other
 * requests pass it with one test of their path. It takes only GET (and HEAD), as the routes did
 * when each was mounted on the app (an OPTIONS request goes on to the 404).
 */
function healthRoutes(options: ServiceAppOptions): express.RequestHandler {
  const router = express.Router();
  // This service's part of the API document; the gateway merges every service's at /api/v4/openapi.json.
  router.get('/openapi.json', (_req, res) => {
    res.json(openApiDocument(routeCatalogue(), { title: 'GitLab API v4', version: 'v4' }));
  });
  router.get('/health', (_req, res) => {
    res.json({ status: 'ok' });
  });
  const { metrics } = options;
  if (metrics) router.get('/metrics', metricsEndpoint(metrics.registry, { token: metrics.token }));
  router.get('/readiness', (req, res) => {
    if (isDraining(req.app)) {
      res.status(503).json({ status: 'draining' });
      return;
    }
    void readiness(options.readinessChecks).then(({ ready, checks }) => {
      res.status(ready ? 200 : 503).json({ status: ready ? 'ok' : 'failed', checks });
    });
  });
  return (req, res, next) => {
    if (req.method === 'GET' || req.method === 'HEAD') router(req, res, next);
    else next();
  };
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * A read that failed because its database connection broke (terminated, reset) runs once more
 * through the routes, on a new unit of work and so a new connection; anything else, or a second
 * fault, goes on to the error mapping (503, never 500).
 */
function retryOnConnectionFault(options: ServiceAppOptions, routes: express.RequestHandler): express.ErrorRequestHandler {
  const again = express.Router();
  if (options.requestScope) again.use('/api', options.requestScope);
  again.use(routes);
  const retried = new WeakSet<express.Request>();
  return (error, req, res, next) => {
    if (!isConnectionFault(error) || !SAFE_METHODS.has(req.method) || res.headersSent || retried.has(req)) {
      next(error);
      return;
    }
    retried.add(req);
    options.logger.warn({ err: error, method: req.method, url: req.originalUrl }, 'connection fault; retrying the read once');
    req.url = req.originalUrl;
    // A moment for the pool to see the broken connection close, so that the retry gets another.
    setTimeout(() => again(req, res, (retryError?: unknown) => next(retryError ?? error)), 100);
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
