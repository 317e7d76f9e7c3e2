/** Composition root of the gateway. */
import { channelState, CLIENT_CHANNEL_OPTIONS, createChannelCredentials, internalClientOptions } from '@platform/grpc';
import { listen } from '@platform/http';
import { createLogger, type Logger } from '@platform/logger';
import { IdentityServiceClient } from '@platform/proto/identity/v1';
import type { EventFeed } from '@platform/events';
import { startAuthInvalidation } from './auth-invalidation.ts';
import { Authenticator } from './authenticator.ts';
import { readConfig, type GatewayConfig } from './config.ts';
import { createGatewayApp } from './gateway-app.ts';
import { createMetrics } from './metrics.ts';
import type { ServiceName } from './route-table.ts';
import { UpstreamPool, type Upstreams } from './upstreams.ts';

export interface RunningGateway {
  port: number;
  stop(): Promise<void>;
}

export async function startGateway(config: GatewayConfig, logger: Logger): Promise<RunningGateway> {
  const identity = new IdentityServiceClient(config.IDENTITY_GRPC_ADDRESS, createChannelCredentials(), {
    ...CLIENT_CHANNEL_OPTIONS,
    ...internalClientOptions({ internalSecret: config.INTERNAL_SECRET }),
  });
  const pool = (service: string, urls: string[]) =>
    new UpstreamPool({
      service,
      urls,
      logger,
      connectTimeoutMs: config.UPSTREAM_CONNECT_TIMEOUT_MS,
      responseTimeoutMs: config.UPSTREAM_RESPONSE_TIMEOUT_MS,
      failuresToOpen: config.UPSTREAM_FAILURES_TO_OPEN,
      halfOpenAfterMs: config.UPSTREAM_HALF_OPEN_AFTER_MS,
    });
  const feed: { current?: EventFeed } = {};
  const authenticator = new Authenticator({
    client: identity,
    ttlMs: config.AUTH_CACHE_TTL_MS,
    staleMs: config.AUTH_CACHE_STALE_MS,
    invalidationLive: () => feed.current?.isLive() ?? false,
    logger,
  });
  const upstreams = proxiedOnly(config.PROXIED_SERVICES, {
    identity: () => pool('identity', config.IDENTITY_URL),
    audit: () => pool('audit', config.AUDIT_URL),
    packages: () => pool('packages', config.PACKAGES_URL),
    review: () => pool('review', config.REVIEW_URL),
    admin: () => pool('admin', config.ADMIN_URL),
    alerts: () => pool('alerts', config.ALERTS_URL),
    delivery: () => pool('delivery', config.DELIVERY_URL),
    hooks: () => pool('hooks', config.HOOKS_URL),
  });
  const app = createGatewayApp({
    logger,
    authenticator,
    internalSecret: config.INTERNAL_SECRET,
    upstreams,
    metrics: createMetrics(),
    identityChannelState: () => channelState(identity),
    authInvalidationState: () => (feed.current === undefined ? 'off' : feed.current.isLive() ? 'live' : 'lagging'),
    readTimeoutMs: config.UPSTREAM_READ_TIMEOUT_MS,
    trustedProxies: config.TRUSTED_PROXIES,
    ...(config.METRICS_TOKEN ? { metricsToken: config.METRICS_TOKEN } : {}),
  });
  const server = await listen(app, config.PORT, { drainTimeoutMs: config.DRAIN_TIMEOUT_MS });
  if (config.KAFKA_BROKERS) {
    // Until the feed is live (it joins in the background, Kafka may be down), cached tokens are trusted for a second at most.
    feed.current = startAuthInvalidation({
      brokers: config.KAFKA_BROKERS,
      topicPrefix: config.KAFKA_TOPIC_PREFIX,
      authenticator,
      logger,
    });
  }
  logger.info({ port: server.port }, 'gateway started');
  return {
    port: server.port,
    async stop() {
      await server.close();
      await Promise.all(Object.values(upstreams).map((upstream) => upstream.close()));
      await feed.current?.stop();
      identity.close();
    },
  };
}

/** The pools of the services proxied to; the others get none, and their paths answer 503. */
function proxiedOnly(proxied: ServiceName[], pools: Record<ServiceName, () => UpstreamPool>): Upstreams {
  return Object.fromEntries(proxied.map((service) => [service, pools[service]()]));
}

if (import.meta.main) {
  const config = readConfig();
  const logger = createLogger({ name: 'gateway', level: config.LOG_LEVEL });
  const running = await startGateway(config, logger);
  const shutdown = () => {
    logger.info('draining');
    void running.stop().then(() => process.exit(0));
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
}
