/**
 * Prometheus metrics every process serves at `/-/metrics`: a registry with the standard process
 * metrics, request durations by route, status and service, and the access rule of the endpoint.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isIPv4 } from 'node:net';
import type { Request, RequestHandler } from 'express';
import { collectDefaultMetrics, Histogram, Registry } from 'prom-client';

/** A process's registry, with prom-client's process and Node.js metrics (CPU, memory, event loop, GC). */
export function createMetricsRegistry(): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return registry;
}

/** The `route` label of a request no route matched (a 404, or a refusal before routing). */
export const UNMATCHED_ROUTE = 'unmatched';

const REQUEST_BUCKETS = [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

const describedRequests = new WeakMap<ServerResponse, { route: string; service: string }>();

/**
 * Labels a request whose route is not an express route (the gateway's route table entry and
 * the service owning it), in place of the matched express route and the process's service.
 */
export function describeRequest(res: ServerResponse, labels: { route: string; service: string }): void {
  describedRequests.set(res, labels);
}

/**
 * The express route pattern that answered, never the URL itself: label values stay few. A request
 * express never saw (the gateway's proxied ones, which are described) has none.
 */
function routeOf(req: IncomingMessage): string {
  const { route, baseUrl } = req as Partial<Pick<Request, 'route' | 'baseUrl'>>;
  const path = (route as { path?: unknown } | undefined)?.path;
  return typeof path === 'string' ? `${baseUrl}${path}` : UNMATCHED_ROUTE;
}

/**
 * Times every request into `http_request_duration_seconds{method, route, status, service}`: the
 * returned function starts the timer of a request, whose labels are read when the response ends
 * (or the client left). Called before the routes: in an app's first middleware, or by a request
 * listener in front of express (the gateway's).
 */
export function requestTimer(registry: Registry, options: { service: string }): (req: IncomingMessage, res: ServerResponse) => void {
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from request to response, by method, route pattern, status and the service that answered.',
    labelNames: ['method', 'route', 'status', 'service'] as const,
    buckets: REQUEST_BUCKETS,
    registers: [registry],
  });
  return (req, res) => {
    const stopTimer = duration.startTimer();
    res.once('close', () => {
      const described = describedRequests.get(res);
      stopTimer({
        method: req.method ?? '',
        route: described?.route ?? routeOf(req),
        status: String(res.statusCode),
        service: described?.service ?? options.service,
      });
    });
  };
}

/** 127.0.0.0/8, ::1, and IPv4 loopback addresses written as IPv4-mapped IPv6 (`::ffff:127.0.0.1`). */
export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const ipv4 = address.toLowerCase().startsWith('::ffff:') ? address.slice('::ffff:'.length) : address;
  if (isIPv4(ipv4)) return ipv4.startsWith('127.');
  return address === '::1';
}

function sameSecret(given: string, expected: string): boolean {
  // Digests have equal lengths, as timingSafeEqual needs, whatever was sent.
  return timingSafeEqual(createHash('sha256').update(given).digest(), createHash('sha256').update(expected).digest());
}

/**
 * GitLab's monitoring whitelist, which holds loopback by default: loopback callers read metrics
 * freely; any other caller must present `Authorization: Bearer <token>`, and without a token
 * configured nobody else can.
 */
export function mayReadMetrics(request: {
  clientAddress: string | undefined;
  authorization: string | undefined;
  token: string | undefined;
}): boolean {
  if (isLoopback(request.clientAddress)) return true;
  const bearer = request.authorization?.match(/^Bearer\s+(\S+)$/i)?.[1];
  return request.token !== undefined && bearer !== undefined && sameSecret(bearer, request.token);
}

/**
 * Serves the registry to those `mayReadMetrics` admits, a 404 to others, as GitLab hides its
 * metrics. The client address is `req.ip`: the socket's peer, unless the app trusts proxies
 * (`trust proxy`), whose forwarded address then counts, so that a proxy on loopback does not
 * open the metrics to everyone behind it.
 */
export function metricsEndpoint(registry: Registry, options: { token?: string | undefined }): RequestHandler {
  return (req, res, next) => {
    if (!mayReadMetrics({ clientAddress: req.ip, authorization: req.get('authorization'), token: options.token })) {
      res.status(404).json({ error: '404 Not Found' });
      return;
    }
    registry.metrics().then((body) => res.type(registry.contentType).send(body), next);
  };
}
