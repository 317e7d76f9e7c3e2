import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';

/** Prometheus metrics of the gateway, served at `/-/metrics`. */
export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: 'gateway_http_requests_total',
    help: 'Requests answered by the gateway, by owning service, method and status.',
    labelNames: ['service', 'method', 'status'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'gateway_http_request_duration_seconds',
    help: 'Time from request to response, by owning service.',
    labelNames: ['service'] as const,
    buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  return { registry, requests, duration };
}

export type GatewayMetrics = ReturnType<typeof createMetrics>;
