import type { IncomingHttpHeaders } from 'node:http';
import express, { type Express } from 'express';
import {
  anonymousCaller,
  AUTHENTICATION_CHANGED_HEADER,
  CALLER_HEADER,
  signCaller,
  usersWithChangedAuthentication,
  type Caller,
} from '@platform/auth';
import {
  describeRequest,
  errorToHttp,
  exactJsonContentType,
  isDraining,
  metricsEndpoint,
  rejectMalformedUrl,
  requestLogging,
} from '@platform/http';
import type { Logger } from '@platform/logger';
import { Authenticator, basicCredentialsOf, credentialsOf, deployTokenCredentialsOf } from './authenticator.ts';
import type { GatewayMetrics } from './metrics.ts';
import { routeFor, SERVICES, type Route, type ServiceName } from './route-table.ts';
import type { ForwardOptions, Upstreams } from './upstreams.ts';
import { apiDocument } from './api-document.ts';
import { API_DOCS_PATH, apiDocsRouter } from './api-docs.ts';

export interface GatewayAppOptions {
  logger: Logger;
  authenticator: Authenticator;
  internalSecret: string;
  upstreams: Upstreams;
  metrics: GatewayMetrics;
  /** The state of the gRPC channel to identity, reported by readiness. */
  identityChannelState: () => string;
  /** Whether identity's change events reach the token cache (`live`), reported by readiness. */
  authInvalidationState: () => string;
  /**
   * How long a service may take to answer a safe request (GET, HEAD, OPTIONS), unless its route
   * reads slowly (`slowReads`); those and every other request wait for the pools' response timeout.
   */
  readTimeoutMs: number;
  /**
   * Addresses or subnets (express `trust proxy` syntax) of the proxies in front of the gateway:
   * only their `X-Forwarded-For`/`-Proto` count, so that nobody else can forge the client address.
   */
  trustedProxies: string[];
  /** Bearer token that callers other than loopback present to read `/-/metrics`; without one, only loopback may. */
  metricsToken?: string;
}

/** GitLab's default avatar stand-in: a 1x1 grey PNG, so `avatar_url` always resolves. */
const DEFAULT_AVATAR = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAACklEQVR4nGO4CQAAwgDBKDKz0wAAAABJRU5ErkJggg==',
  'base64',
);

/** GitLab's answer to git credentials it does not accept; the challenge makes the git CLI ask again. */
const GIT_CHALLENGE = 'Basic realm="GitLab"';
const GIT_ACCESS_DENIED = 'HTTP Basic: Access denied. If a token was provided, it was either incorrect, expired, or improperly scoped.';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** GitLab's prefix of deploy tokens, which identity's Authenticate does not know. */
const DEPLOY_TOKEN_PREFIX = 'gldt-';

const routeLabels = new Map<Route, { route: string; service: ServiceName }>();

/**
 * The route table entry as metrics labels, its slashes unescaped for reading (as few label values
 * as entries), and the service owning it; worked out once per entry.
 */
function routeLabelsOf(route: Route): { route: string; service: ServiceName } {
  let labels = routeLabels.get(route);
  if (labels === undefined) {
    labels = { route: route.pattern.source.replaceAll('\\/', '/'), service: route.service };
    routeLabels.set(route, labels);
  }
  return labels;
}

/** The client's address as audit events show it: `::ffff:10.0.0.1` is plain `10.0.0.1`. */
function clientIp(req: express.Request): string | undefined {
  return req.ip?.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '');
}

/** The query of a request target (after `?`, before any `#`), without parsing the whole URL, which costs four times as much. */
function queryOf(target: string): URLSearchParams {
  const fragmentStart = target.indexOf('#');
  const beforeFragment = fragmentStart === -1 ? target : target.slice(0, fragmentStart);
  const queryStart = beforeFragment.indexOf('?');
  return new URLSearchParams(queryStart === -1 ? '' : beforeFragment.slice(queryStart + 1));
}

async function isReady(baseUrl: string): Promise<boolean> {
  try {
    const response = await fetch(new URL('/-/readiness', baseUrl), { signal: AbortSignal.timeout(2000) });
    return response.ok;
  } catch {
    return false;
  }
}

/**
 * The only public entry: authenticates the caller, signs it into a header services trust,
 * and proxies the request to the service that owns the path over pooled keep-alive connections.
 */
export function createGatewayApp(options: GatewayAppOptions): Express {
  const { logger, authenticator, metrics } = options;
  const proxied = SERVICES.flatMap((service) => {
    const pool = options.upstreams[service];
    return pool ? [[service, pool] as const] : [];
  });
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('trust proxy', options.trustedProxies.length > 0 ? options.trustedProxies : false);
  app.use(metrics.requestDurations);
  app.use(exactJsonContentType());

  app.get('/-/health', (_req, res) => {
    res.json({ status: 'ok' });
  });
  // Ready while not draining: a service being down is reported, not a reason to take the gateway
  // out of rotation, since the other services still answer through it.
  app.get('/-/readiness', (req, res) => {
    void Promise.all(
      proxied.map(async ([service, pool]) => {
        const ready = await Promise.all(pool.urls.map(isReady));
        return [service, ready.some(Boolean)] as const;
      }),
    ).then((results) => {
      const draining = isDraining(req.app);
      res.status(draining ? 503 : 200).json({
        status: draining ? 'draining' : 'ok',
        services: Object.fromEntries(results.map(([service, serviceReady]) => [service, serviceReady ? 'ok' : 'failed'])),
        circuits: Object.fromEntries(proxied.map(([service, pool]) => [service, pool.circuits()])),
        grpc: { identity: options.identityChannelState() },
        authInvalidation: options.authInvalidationState(),
      });
    });
  });
  // The client address is the one `trust proxy` yields: a trusted proxy on loopback does not make its clients loopback.
  app.get('/-/metrics', metricsEndpoint(metrics.registry, { token: options.metricsToken }));
  app.get('/assets/no_avatar.png', (_req, res) => {
    res.type('png').set('Cache-Control', 'public, max-age=86400').send(DEFAULT_AVATAR);
  });

  app.use(requestLogging(logger));
  // Undecodable paths and NUL bytes stop here, before they reach identity's lookups or a service.
  app.use(rejectMalformedUrl());
  app.get('/api/v4/openapi.json', apiDocument({ upstreams: options.upstreams, logger }));
  app.use(API_DOCS_PATH, apiDocsRouter());

  const authenticate = async (req: express.Request, route: Route, query: URLSearchParams): Promise<Caller> => {
    const ip = clientIp(req);
    if (route.ownAuthentication) return anonymousCaller(ip);
    const credentials: { token?: string; sudo?: string; username?: string } = route.basicCredentials
      ? basicCredentialsOf(req)
      : credentialsOf(req, query);
    if (route.deployTokens) {
      const presented = route.basicCredentials ? credentials : deployTokenCredentialsOf(req);
      if (presented.token?.startsWith(DEPLOY_TOKEN_PREFIX)) {
        const deployToken = await authenticator.authenticateDeployToken(presented.token, presented.username);
        return ip ? { kind: 'anonymous', ip, deployToken } : { kind: 'anonymous', deployToken };
      }
    }
    const { token, sudo } = credentials;
    if (!token) return anonymousCaller(ip);
    const caller = await authenticator.authenticate(token, sudo);
    return ip ? { ...caller, ip } : caller;
  };

  // Forgotten before the client hears of the change: its next request with the old token is refused.
  const forgetChangedAuthentication = (headers: IncomingHttpHeaders) => {
    for (const userId of usersWithChangedAuthentication(headers[AUTHENTICATION_CHANGED_HEADER])) authenticator.forgetUser(userId);
    delete headers[AUTHENTICATION_CHANGED_HEADER];
  };
  // Made once rather than per request: a safe request waits for the read timeout, others for the pool's.
  const forwardingRead: ForwardOptions = { responseTimeoutMs: options.readTimeoutMs, onResponseHeaders: forgetChangedAuthentication };
  const forwardingOther: ForwardOptions = { onResponseHeaders: forgetChangedAuthentication };

  app.use((req, res, next) => {
    const query = queryOf(req.originalUrl);
    const route = routeFor(req.path, query);
    if (!route) {
      res.status(404).json({ error: '404 Not Found' });
      return;
    }
    describeRequest(res, routeLabelsOf(route));
    const upstream = options.upstreams[route.service];
    if (!upstream) {
      res.status(503).json({ message: '503 Service Unavailable' });
      return;
    }
    authenticate(req, route, query).then(
      (caller) => {
        const forwarding = SAFE_METHODS.has(req.method) && !route.slowReads ? forwardingRead : forwardingOther;
        // Valid as long as the gateway waits for the answer: a service that was slow to take the
        // request up (frozen, overloaded) must not refuse a valid caller for the header's age.
        req.headers[CALLER_HEADER] = signCaller(
          caller,
          options.internalSecret,
          { method: req.method, path: req.originalUrl },
          { validForMs: upstream.longestWait(forwarding) },
        );
        if (!route.ownAuthentication) {
          // Services learn who calls from the signed header alone; credentials stay here.
          delete req.headers['private-token'];
          delete req.headers.authorization;
          delete req.headers['deploy-token'];
        }
        void upstream.forward(req, res, forwarding);
      },
      (error: unknown) => {
        const mapped = errorToHttp(error);
        if (!mapped) {
          next(error);
          return;
        }
        if (route.basicRefusal !== undefined && mapped.status === 401) {
          res.status(401).json(route.basicRefusal);
          return;
        }
        if (route.basicCredentials && mapped.status === 401) {
          res.status(401).set('WWW-Authenticate', GIT_CHALLENGE).type('text/plain').send(GIT_ACCESS_DENIED);
          return;
        }
        res.status(mapped.status).json(mapped.body);
      },
    );
  });

  app.use(((error, req, res, _next) => {
    const mapped = errorToHttp(error);
    if (mapped) {
      res.status(mapped.status).json(mapped.body);
      return;
    }
    logger.error({ err: error, url: req.originalUrl }, 'gateway error');
    res.status(500).json({ message: '500 Internal Server Error' });
  }) as express.ErrorRequestHandler);
  return app;
}
