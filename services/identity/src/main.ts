/** Composition root of the identity service: the only place that wires stores, services and servers. */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createOrm, ensureDatabase, migrate, requestScope } from '@platform/db';
import { createKafka, OutboxEntry, ProcessedEvent, startOutboxRelay, type OutboxRelay } from '@platform/events';
import { startGrpcServer } from '@platform/grpc';
import { createServiceApp } from '@platform/http';
import { createLogger, type Logger } from '@platform/logger';
import { readConfig, type IdentityConfig } from './config.ts';
import { migrations } from './migrations/index.ts';
import { identityGrpc } from './features/authentication/identity-grpc.ts';
import { PersonalAccessToken } from './features/tokens/personal-access-token.entity.ts';
import { PgTokenStore } from './features/tokens/tokens-store.ts';
import { TokensService } from './features/tokens/tokens-service.ts';
import { tokensRoutes } from './features/tokens/tokens-routes.ts';
import { Identity, User } from './features/users/user.entity.ts';
import { PgUserStore } from './features/users/users-store.ts';
import { UsersService } from './features/users/users-service.ts';
import { usersRoutes } from './features/users/users-routes.ts';
import { IDENTITY_TOPIC } from './features/users/users.events.ts';

export interface RunningIdentity {
  httpPort: number;
  grpcPort: number;
  relay: OutboxRelay;
  stop(): Promise<void>;
}

export async function startIdentity(config: IdentityConfig, logger: Logger): Promise<RunningIdentity> {
  await ensureDatabase(config.DATABASE_URL);
  const orm = await createOrm({
    url: config.DATABASE_URL,
    entities: [User, Identity, PersonalAccessToken, OutboxEntry, ProcessedEvent],
    migrations,
    logger,
  });
  await migrate(orm);

  const views = { externalUrl: config.EXTERNAL_URL.replace(/\/$/, '') };
  const userStore = new PgUserStore(orm.em);
  const users = new UsersService({ em: orm.em, store: userStore });
  const tokens = new TokensService({ em: orm.em, tokens: new PgTokenStore(orm.em), users: userStore });

  const { generatedToken } = await tokens.ensureBootstrapAdmin(config.ROOT_TOKEN);
  if (generatedToken) {
    // Shown once, on the console only: the administrator's way in.
    process.stdout.write(`Bootstrap administrator "root" created; its token is: ${generatedToken}\n`);
  }

  const kafka = createKafka({ brokers: config.KAFKA_BROKERS, clientId: 'identity', logger });
  const relay = await startOutboxRelay({ orm, kafka, databaseUrl: config.DATABASE_URL, topics: [IDENTITY_TOPIC], logger });

  const app = createServiceApp({
    logger,
    internalSecret: config.INTERNAL_SECRET,
    requestScope: requestScope(orm),
    readinessChecks: { database: async () => void (await orm.em.fork().execute('select 1')) },
    routes: [usersRoutes({ users, views }), tokensRoutes({ tokens })],
  });
  const http: Server = await new Promise((resolve) => {
    const server = app.listen(config.HTTP_PORT, () => resolve(server));
  });
  http.keepAliveTimeout = 65_000;
  const grpc = await startGrpcServer({
    port: config.GRPC_PORT,
    services: [identityGrpc({ orm, tokens, users: userStore, views, logger })],
  });
  const httpPort = (http.address() as AddressInfo).port;
  logger.info({ httpPort, grpcPort: grpc.port, topic: IDENTITY_TOPIC }, 'identity started');

  return {
    httpPort,
    grpcPort: grpc.port,
    relay,
    async stop() {
      await grpc.stop();
      await new Promise<void>((resolve) => http.close(() => resolve()));
      http.closeAllConnections();
      await relay.stop();
      await orm.close();
    },
  };
}

if (import.meta.main) {
  const config = readConfig();
  const logger = createLogger({ name: 'identity', level: config.LOG_LEVEL });
  const running = await startIdentity(config, logger);
  const shutdown = () => {
    void running.stop().then(() => process.exit(0));
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
}
