/** Composition root of the audit service: consumes domain events and serves audit events. */
import { checkDatabase, openDatabase, requestScope } from '@platform/db';
import { createKafka, OutboxEntry, ProcessedEvent, startConsumer, type EventConsumer } from '@platform/events';
import { createServiceApp, listen } from '@platform/http';
import { channelState, CLIENT_CHANNEL_OPTIONS, createChannelCredentials } from '@platform/grpc';
import { IdentityServiceClient } from '@platform/proto/identity/v1';
import { createLogger, type Logger } from '@platform/logger';
import { readConfig, type AuditConfig } from './config.ts';
import { migrations } from './migrations/index.ts';
import { AuditEvent } from './features/audit-events/audit-event.entity.ts';
import { PgAuditEventStore } from './features/audit-events/audit-events-store.ts';
import { AuditEventsService } from './features/audit-events/audit-events-service.ts';
import { auditEventsRoutes } from './features/audit-events/audit-events-routes.ts';
import { entityAuditEventsRoutes } from './features/audit-events/entity-audit-events-routes.ts';
import { IdentityResourceAccess } from './features/audit-events/resource-access.ts';
import { AUDITED_TOPICS } from './features/audit-events/audit-event-translation.ts';

export interface RunningAudit {
  httpPort: number;
  stop(): Promise<void>;
}

export async function startAudit(config: AuditConfig, logger: Logger): Promise<RunningAudit> {
  const orm = await openDatabase({
    url: config.DATABASE_URL,
    entities: [AuditEvent, OutboxEntry, ProcessedEvent],
    migrations,
    logger,
  });

  const auditEvents = new AuditEventsService({ store: new PgAuditEventStore(orm.em) });
  const identity = new IdentityServiceClient(config.IDENTITY_GRPC_ADDRESS, createChannelCredentials(), CLIENT_CHANNEL_OPTIONS);
  const started: { consumer?: EventConsumer } = {};
  const app = createServiceApp({
    logger,
    internalSecret: config.INTERNAL_SECRET,
    requestScope: requestScope(orm),
    readinessChecks: {
      database: () => checkDatabase(orm),
      identityChannel: async () => channelState(identity),
      consumer: async () => {
        if (!started.consumer) throw new Error('consumer starting');
        return started.consumer.readiness();
      },
    },
    routes: [auditEventsRoutes({ auditEvents }), entityAuditEventsRoutes({ auditEvents, access: new IdentityResourceAccess(identity) })],
  });
  // Listen first: audit events can be read while the consumer joins its group; readiness waits for it.
  const http = await listen(app, config.HTTP_PORT);
  const kafka = createKafka({ brokers: config.KAFKA_BROKERS, clientId: 'audit', logger });
  const consumer = await startConsumer({
    kafka,
    orm,
    groupId: config.KAFKA_GROUP_ID,
    topicPrefix: config.KAFKA_TOPIC_PREFIX,
    topics: AUDITED_TOPICS,
    logger,
    handle: (event) => auditEvents.recordFrom(event),
  });
  started.consumer = consumer;
  logger.info({ httpPort: http.port }, 'audit started');

  return {
    httpPort: http.port,
    async stop() {
      await http.close();
      await consumer.stop();
      identity.close();
      await orm.close();
    },
  };
}

if (import.meta.main) {
  const config = readConfig();
  const logger = createLogger({ name: 'audit', level: config.LOG_LEVEL });
  const running = await startAudit(config, logger);
  const shutdown = () => {
    void running.stop().then(() => process.exit(0));
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
}
