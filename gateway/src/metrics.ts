import type { RequestHandler } from 'express';
import type { Registry } from 'prom-client';
import { createMetricsRegistry, requestDurations } from '@platform/http';

export interface GatewayMetrics {
  registry: Registry;
  /** Times every request; a proxied one is labelled with its route table entry and the service owning it. */
  requestDurations: RequestHandler;
}

/** Prometheus metrics of the gateway, served at `/-/metrics`: process metrics and request durations. */
export function createMetrics(): GatewayMetrics {
  const registry = createMetricsRegistry();
  return { registry, requestDurations: requestDurations(registry, { service: 'gateway' }) };
}
