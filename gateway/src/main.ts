/** Composition root of the gateway. */
import { createChannelCredentials } from '@platform/grpc';
import { listen } from '@platform/http';
import { createLogger, type Logger } from '@platform/logger';
import { IdentityServiceClient } from '@platform/proto/identity/v1';
import { Authenticator } from './authenticator.ts';
import { readConfig, type GatewayConfig } from './config.ts';
import { createGatewayApp } from './gateway-app.ts';
import { createMetrics } from './metrics.ts';

export interface RunningGateway {
  port: number;
  stop(): Promise<void>;
}

export async function startGateway(config: GatewayConfig, logger: Logger): Promise<RunningGateway> {
  const identity = new IdentityServiceClient(config.IDENTITY_GRPC_ADDRESS, createChannelCredentials(), {
    'grpc.keepalive_time_ms': 30_000,
  });
  const app = createGatewayApp({
    logger,
    authenticator: new Authenticator({ client: identity, ttlMs: config.AUTH_CACHE_TTL_MS }),
    internalSecret: config.INTERNAL_SECRET,
    upstreams: { identity: config.IDENTITY_URL, audit: config.AUDIT_URL },
    metrics: createMetrics(),
  });
  const server = await listen(app, config.PORT);
  logger.info({ port: server.port }, 'gateway started');
  return {
    port: server.port,
    async stop() {
      await server.close();
      identity.close();
    },
  };
}

if (import.meta.main) {
  const config = readConfig();
  const logger = createLogger({ name: 'gateway', level: config.LOG_LEVEL });
  const running = await startGateway(config, logger);
  const shutdown = () => {
    void running.stop().then(() => process.exit(0));
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
}
