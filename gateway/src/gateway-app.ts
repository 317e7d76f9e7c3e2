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
import { routeFor, SERVICES, type Route } from './route-table.ts';
import type { Upstreams } from './upstreams.ts';
import { apiDocument } from './api-document.ts';
import { apiDocsRouter } from './api-docs.ts';

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

const routeLabels = new Map<Route, string>();

/** The route table entry as a metrics label, its slashes unescaped for reading (as few label values as entries); worked out once per entry. */
function routeLabel(route: Route): string {
  let label = routeLabels.get(route);
  if (label === undefined) {
    label = route.pattern.source.replaceAll('\\/', '/');
    routeLabels.set(route, label);
  }
  return label;
}

/** The client's address as audit events show it: `::ffff:10.0.0.1` is plain `10.0.0.1`. */
function clientIp(req: express.Request): string | undefined {
  return req.ip?.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '');
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
  app.use(apiDocsRouter());

  const authenticate = async (req: express.Request, route: Route, url: URL): Promise<Caller> => {
    const ip = clientIp(req);
    if (route.ownAuthentication) return anonymousCaller(ip);
    const credentials: { token?: string; sudo?: string; username?: string } = route.basicCredentials
      ? basicCredentialsOf(req)
      : credentialsOf(req, url);
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

  app.use((req, res, next) => {
    const url = new URL(req.originalUrl, 'http://gateway');
    const route = routeFor(req.path, url.searchParams);
    if (!route) {
      res.status(404).json({ error: '404 Not Found' });
      return;
    }
    describeRequest(res, { route: routeLabel(route), service: route.service });
    const upstream = options.upstreams[route.service];
    if (!upstream) {
      res.status(503).json({ message: '503 Service Unavailable' });
      return;
    }
    authenticate(req, route, url).then(
      (caller) => {
        const responseTimeout = SAFE_METHODS.has(req.method) && !route.slowReads ? { responseTimeoutMs: options.readTimeoutMs } : {};
        // Valid as long as the gateway waits for the answer: a service that was slow to take the
        // request up (frozen, overloaded) must not refuse a valid caller for the header's age.
        req.headers[CALLER_HEADER] = signCaller(
          caller,
          options.internalSecret,
          { method: req.method, path: req.originalUrl },
          { validForMs: upstream.longestWait(responseTimeout) },
        );
        if (!route.ownAuthentication) {
          // Services learn who calls from the signed header alone; credentials stay here.
          delete req.headers['private-token'];
          delete req.headers.authorization;
          delete req.headers['deploy-token'];
        }
        void upstream.forward(req, res, {
          ...responseTimeout,
          // Forgotten before the client hears of the change: its next request with the old token is refused.
          onResponseHeaders: (headers) => {
            for (const userId of usersWithChangedAuthentication(headers[AUTHENTICATION_CHANGED_HEADER])) authenticator.forgetUser(userId);
            delete headers[AUTHENTICATION_CHANGED_HEADER];
          },
        });
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
