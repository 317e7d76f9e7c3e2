/** Composition root of the gateway. */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createChannelCredentials } from '@platform/grpc';
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
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(config.PORT, () => resolve(listening));
  });
  server.keepAliveTimeout = 65_000;
  const port = (server.address() as AddressInfo).port;
  logger.info({ port }, 'gateway started');
  return {
    port,
    async stop() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
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
