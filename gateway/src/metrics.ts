import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Registry } from 'prom-client';
import { createMetricsRegistry, requestTimer } from '@platform/http';

export interface GatewayMetrics {
  registry: Registry;
  /** Starts timing a request; a proxied one is labelled with its route table entry and the service owning it. */
  timeRequest: (req: IncomingMessage, res: ServerResponse) => void;
}

/** Prometheus metrics of the gateway, served at `/-/metrics`: process metrics and request durations. */
export function createMetrics(): GatewayMetrics {
  const registry = createMetricsRegistry();
  return { registry, timeRequest: requestTimer(registry, { service: 'gateway' }) };
}
