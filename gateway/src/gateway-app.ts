import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import express, { type Express } from 'express';
import proxyAddr from 'proxy-addr';
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
  malformedUrlError,
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

/**
 * The client's address as express's `req.ip` has it (the socket's peer, or what the trusted
 * proxies forwarded), and as audit events show it: `::ffff:10.0.0.1` is plain `10.0.0.1`.
 */
function clientIp(req: IncomingMessage, trust: (address: string, hop: number) => boolean): string | undefined {
  return (proxyAddr(req, trust) as string | undefined)?.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '');
}

/**
 * An answer the gateway writes itself (its refusals, 503, 500), byte for byte as express's
 * `res.json` (libs/http's exact JSON type) and `res.send` write it: the type, the length, no ETag,
 * no body to a HEAD; no body at all when there is none (a 304).
 */
function answer(req: IncomingMessage, res: ServerResponse, status: number, type: string, body: string | undefined): void {
  res.statusCode = status;
  if (body === undefined) {
    res.end();
    return;
  }
  const bytes = Buffer.from(body, 'utf8');
  res.setHeader('Content-Type', type);
  res.setHeader('Content-Length', String(bytes.length));
  res.end(req.method === 'HEAD' ? undefined : bytes);
}

function answerJson(req: IncomingMessage, res: ServerResponse, status: number, body: unknown): void {
  answer(req, res, status, 'application/json', body === undefined ? undefined : JSON.stringify(body));
}

/**
 * The path of a request target in origin form without a fragment or whitespace: what precedes
 * `?`, as express's URL parser finds it by the same shortcut. Other targets (rare: absolute form,
 * a fragment) have none here and are left to express, which parses them fully.
 */
function plainPathOf(target: string): string | undefined {
  if (target.charCodeAt(0) !== 0x2f || /[#\s]/.test(target)) return undefined;
  const queryStart = target.indexOf('?');
  return queryStart === -1 ? target : target.slice(0, queryStart);
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
 * The gateway as Node's request listener: what it proxies it serves itself, on Node's request and
 * response; everything else (health, readiness, metrics, the avatar, the API documentation, 404s,
 * URLs it refuses) it hands to express.
 */
export interface GatewayApp {
  (req: IncomingMessage, res: ServerResponse): void;
  /** express's: `listen` (libs/http) marks the drain there, and readiness reads it. */
  locals: Express['locals'];
  /** A server of its own for the gateway, as express's `app.listen` makes one. */
  listen(port: number, host?: string): Server;
}

/**
 * The only public entry: authenticates the caller, signs it into a header services trust,
 * and proxies the request to the service that owns the path over pooled keep-alive connections.
 * A proxied request never enters express: its router, its request and response objects and the
 * middleware in front of the hop were about a third of the gateway's CPU per request
 * (docs/read-path.md, "The gateway hop without express").
 */
export function createGatewayApp(options: GatewayAppOptions): GatewayApp {
  const { logger, authenticator, metrics } = options;
  const proxied = SERVICES.flatMap((service) => {
    const pool = options.upstreams[service];
    return pool ? [[service, pool] as const] : [];
  });
  // One reading of `trust proxy` for both paths: express's `req.ip` (metrics) and the caller's address.
  const trust = proxyAddr.compile(options.trustedProxies);
  const logRequest = requestLogging(logger);
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('trust proxy', trust);
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

  app.use(logRequest);
  // Undecodable paths and NUL bytes stop here, before they reach identity's lookups or a service.
  app.use(rejectMalformedUrl());
  app.get('/api/v4/openapi.json', apiDocument({ upstreams: options.upstreams, logger }));
  app.use(API_DOCS_PATH, apiDocsRouter());

  const authenticate = async (req: IncomingMessage, route: Route, query: URLSearchParams): Promise<Caller> => {
    const ip = clientIp(req, trust);
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

  /** Answers an error: mapped to its status and GitLab body, or logged and answered 500. `url` is the request's own. */
  const answerError = (req: IncomingMessage, res: ServerResponse, error: unknown, url: string): void => {
    const mapped = errorToHttp(error);
    if (mapped) {
      answerJson(req, res, mapped.status, mapped.body);
      return;
    }
    logger.error({ err: error, url }, 'gateway error');
    answerJson(req, res, 500, { message: '500 Internal Server Error' });
  };

  /** Authenticates and proxies a request the route table matched; `url` is its target as the client sent it. */
  const forward = (req: IncomingMessage, res: ServerResponse, route: Route, query: URLSearchParams, url: string): void => {
    describeRequest(res, routeLabelsOf(route));
    const upstream = options.upstreams[route.service];
    if (!upstream) {
      answerJson(req, res, 503, { message: '503 Service Unavailable' });
      return;
    }
    authenticate(req, route, query).then(
      (caller) => {
        const method = req.method ?? 'GET';
        const forwarding = SAFE_METHODS.has(method) && !route.slowReads ? forwardingRead : forwardingOther;
        // Valid as long as the gateway waits for the answer: a service that was slow to take the
        // request up (frozen, overloaded) must not refuse a valid caller for the header's age.
        req.headers[CALLER_HEADER] = signCaller(
          caller,
          options.internalSecret,
          { method, path: url },
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
        const refusedCredentials = errorToHttp(error)?.status === 401;
        if (refusedCredentials && route.basicRefusal !== undefined) {
          answerJson(req, res, 401, route.basicRefusal);
          return;
        }
        if (refusedCredentials && route.basicCredentials) {
          res.setHeader('WWW-Authenticate', GIT_CHALLENGE);
          answer(req, res, 401, 'text/plain; charset=utf-8', GIT_ACCESS_DENIED);
          return;
        }
        answerError(req, res, error, url);
      },
    );
  };

  // What reaches express's end: targets the plain listener left to it (a fragment, absolute form).
  app.use((req, res) => {
    const query = queryOf(req.originalUrl);
    const route = routeFor(req.path, query);
    if (!route) {
      res.status(404).json({ error: '404 Not Found' });
      return;
    }
    forward(req, res, route, query, req.originalUrl);
  });

  app.use(((error, req, res, _next) => {
    answerError(req, res, error, req.originalUrl);
  }) as express.ErrorRequestHandler);

  const serve = (req: IncomingMessage, res: ServerResponse): void => {
    metrics.timeRequest(req, res);
    const url = req.url ?? '/';
    const path = plainPathOf(url);
    // A malformed URL is refused by express, as before the route table is asked.
    const query = path === undefined || malformedUrlError(url) !== undefined ? undefined : queryOf(url);
    const route = path === undefined || query === undefined ? undefined : routeFor(path, query);
    if (route === undefined || query === undefined) {
      app(req, res);
      return;
    }
    logRequest(req, res, () => forward(req, res, route, query, url));
  };
  return Object.assign(serve, { locals: app.locals, listen: (port: number, host?: string) => createServer(serve).listen(port, host) });
}
