/**
 * The runtime every service starts through: it owns the mechanics (database and migrations,
 * Kafka, the outbox relay, the HTTP app, the gRPC server, readiness, signals and the stop
 * order) so that a service only declares its features.
 */
import type { Router } from 'express';
import type { Options } from '@mikro-orm/core';
import type { ServiceConfig } from '@platform/config';
import { checkDatabase, openDatabase, requestScope, type EntityManager, type MigrationObject, type Orm } from '@platform/db';
import { createKafka, type EventHandler } from '@platform/events';
import {
  eventMigrations,
  OutboxEntry,
  ProcessedEvent,
  startConsumer,
  startOutboxRelay,
  type EventConsumer,
  type OutboxRelay,
  registerOutboxBacklog,
} from '@platform/events/database';
import { startGrpcServer, type GrpcServer, type GrpcServiceBinding } from '@platform/grpc';
import { createMetricsRegistry, createServiceApp, listen, type ReadinessChecks, type ServiceAppOptions } from '@platform/http';
import { createLogger, type Logger } from '@platform/logger';
import { BackgroundJob, createJobRunner, jobMigrations, type JobHandler, type JobRunner, type Schedule } from './jobs/index.ts';
import { registerJobQueueDepth } from './jobs/job-metrics.ts';
import { startIdleMemoryRelease } from './idle-memory-release.ts';

/** A slice of a service, as its feature factory returns it. */
export interface Feature {
  routes?: Router[];
  /** Routes outside `/api` that stream their request bodies (git's smart HTTP). */
  streamingRoutes?: Router[];
  /** gRPC services this feature serves; the service then needs `GRPC_PORT`. */
  rpcs?: GrpcServiceBinding[];
  /** Events this feature consumes (`onEvent(definition, handler)`), under the service's `KAFKA_GROUP_ID`. */
  consumes?: EventHandler[];
  /** Background jobs this feature carries out (`handleJob(definition, handler)`); enqueued with `enqueueJob`. */
  jobs?: JobHandler[];
  /** Work this feature repeats on one replica at a time (sweeps). */
  schedules?: Schedule[];
  /** Checks reported by `/-/readiness` besides the database's. */
  readinessChecks?: ReadinessChecks;
  /** Confirms that a caller is still an administrator, for administrator-only routes: one feature of a service provides it. */
  administrators?: ServiceAppOptions['administrators'];
  /** Error renderers for path prefixes whose protocol has its own error shape (SCIM). */
  errorRenderers?: ServiceAppOptions['errorRenderers'];
  /** Runs once the database is migrated, before anything listens (e.g. seeding). */
  start?(): Promise<void>;
  /** Releases what the feature opened (clients of other services), after the servers stopped. */
  stop?(): void | Promise<void>;
}

/** What feature factories are given. */
export interface FeatureDeps<Config> {
  config: Config;
  logger: Logger;
  orm: Orm;
  /** The global entity manager; per request, per gRPC call and per event it resolves to that unit of work's fork. */
  em: EntityManager;
}

export interface ServiceDefinition<Config extends ServiceConfig> {
  name: string;
  /** `GRPC_HOST` defaults to loopback: other hosts reach the gRPC server only where configured. */
  config: Config & { GRPC_PORT?: number; GRPC_HOST?: string };
  /** The entities of every feature. The outbox, processed-event and background-job entities are added. */
  entities: NonNullable<Options['entities']>;
  /** The service's own migrations; the runtime applies the job queue's before them and those of `@platform/events` after them. */
  migrations: MigrationObject[];
  /** Topics the service's outbox relay publishes to; without any, no relay runs. */
  publishes?: string[];
  /** Limits on request bodies, for a service taking larger uploads (package registries); `DEFAULT_BODY_LIMITS` otherwise. */
  bodyLimits?: ServiceAppOptions['bodyLimits'];
  features(deps: FeatureDeps<Config>): Feature[] | Promise<Feature[]>;
}

export interface RunningService {
  name: string;
  httpPort: number;
  /** Undefined when no feature serves gRPC. */
  grpcPort?: number;
  orm: Orm;
  relay?: OutboxRelay;
  /** Undefined when no feature declares jobs or schedules. */
  jobs?: JobRunner;
  stop(): Promise<void>;
}

/**
 * The service's database, created if missing and migrated: the job queue's migrations (so that
 * the service's may enqueue jobs), its own, then those of `@platform/events`.
 */
export function openServiceDatabase<Config extends ServiceConfig>(definition: ServiceDefinition<Config>, logger: Logger): Promise<Orm> {
  return openDatabase({
    url: definition.config.DATABASE_URL,
    entities: [...definition.entities, OutboxEntry, ProcessedEvent, BackgroundJob],
    migrations: [...jobMigrations, ...definition.migrations, ...eventMigrations],
    logger,
  });
}

/** Starts the service: migrate, build features, relay, HTTP, gRPC, consumers, then the job runner; then ready. */
export async function startService<Config extends ServiceConfig>(definition: ServiceDefinition<Config>): Promise<RunningService> {
  const { config, name } = definition;
  const logger = createLogger({ name, level: config.LOG_LEVEL });
  const orm = await openServiceDatabase(definition, logger);
  const features = await definition.features({ config, logger, orm, em: orm.em });
  for (const feature of features) await feature.start?.();

  const kafka = createKafka({ brokers: config.KAFKA_BROKERS, clientId: name, logger });
  const topics = definition.publishes ?? [];
  const relay =
    topics.length > 0
      ? await startOutboxRelay({ orm, kafka, databaseUrl: config.DATABASE_URL, topics, topicPrefix: config.KAFKA_TOPIC_PREFIX, logger })
      : undefined;

  const handlers = features.flatMap((feature) => feature.consumes ?? []);
  let consumer: EventConsumer | undefined;
  let state: 'starting' | 'ready' | 'stopping' = 'starting';
  // The service's own registry: several services may run in one process (integration tests).
  const metrics = createMetricsRegistry();
  const jobHandlers = features.flatMap((feature) => feature.jobs ?? []);
  const schedules = features.flatMap((feature) => feature.schedules ?? []);
  registerOutboxBacklog({ registry: metrics, orm });
  registerJobQueueDepth({ registry: metrics, orm, kinds: jobHandlers.map((job) => job.kind) });
  const app = createServiceApp({
    logger,
    metrics: { registry: metrics, service: name, token: config.METRICS_TOKEN },
    internalSecret: config.INTERNAL_SECRET,
    externalUrl: config.EXTERNAL_URL,
    requestScope: requestScope(orm),
    readinessChecks: {
      service: async () => {
        if (state !== 'ready') throw new Error(state);
      },
      database: () => checkDatabase(orm),
      // Reported, not required: what needs no Kafka is served while the consumer joins or starts over.
      ...(handlers.length > 0 ? { consumer: async () => consumer?.state() ?? 'joining' } : {}),
      ...Object.fromEntries(features.flatMap((feature) => Object.entries(feature.readinessChecks ?? {}))),
    },
    errorRenderers: features.flatMap((feature) => feature.errorRenderers ?? []),
    ...administratorsOf(features),
    routes: features.flatMap((feature) => feature.routes ?? []),
    streamingRoutes: features.flatMap((feature) => feature.streamingRoutes ?? []),
    ...(definition.bodyLimits ? { bodyLimits: definition.bodyLimits } : {}),
  });
  const http = await listen(app, config.HTTP_PORT);

  const rpcs = features.flatMap((feature) => feature.rpcs ?? []);
  let grpc: GrpcServer | undefined;
  if (rpcs.length > 0) {
    if (config.GRPC_PORT === undefined) throw new Error(`${name} serves gRPC but its configuration has no GRPC_PORT`);
    grpc = await startGrpcServer({
      ...(config.GRPC_HOST ? { host: config.GRPC_HOST } : {}),
      port: config.GRPC_PORT,
      internalSecret: config.INTERNAL_SECRET,
      services: rpcs,
      metrics,
    });
  }

  // Consumers start once HTTP listens: reads are served while the consumer joins its group.
  if (handlers.length > 0) {
    consumer = startConsumer({
      kafka,
      orm,
      groupId: config.KAFKA_GROUP_ID,
      topicPrefix: config.KAFKA_TOPIC_PREFIX,
      topics: [...new Set(handlers.map((handler) => handler.topic))],
      logger,
      metrics,
      // Events of types no feature handles are skipped (still recorded as processed).
      handle: async (event) => {
        for (const handler of handlers) if (handler.type === event.type) await handler.handle(event);
      },
    });
  }

  let jobs: JobRunner | undefined;
  if (jobHandlers.length > 0 || schedules.length > 0) {
    jobs = createJobRunner({ orm, logger, jobs: jobHandlers, schedules });
    jobs.start();
  }
  state = 'ready';
  logger.info({ httpPort: http.port, grpcPort: grpc?.port, publishes: topics }, `${name} started`);

  return {
    name,
    httpPort: http.port,
    ...(grpc ? { grpcPort: grpc.port } : {}),
    orm,
    ...(relay ? { relay } : {}),
    ...(jobs ? { jobs } : {}),
    async stop() {
      // Readiness off first, so that load balancers stop sending while requests in flight finish.
      state = 'stopping';
      grpc?.setServing(false);
      await http.close();
      await consumer?.stop();
      // The job under way may still record events and call other services: the relay and the clients stop after it.
      await jobs?.stop();
      await relay?.stop();
      await grpc?.stop();
      for (const feature of features) await feature.stop?.();
      await orm.close();
      logger.info(`${name} stopped`);
    },
  };
}

function administratorsOf(features: Feature[]): Pick<ServiceAppOptions, 'administrators'> {
  const providing = features.filter((feature) => feature.administrators);
  if (providing.length > 1) throw new Error('more than one feature confirms administrators');
  const administrators = providing[0]?.administrators;
  return administrators ? { administrators } : {};
}

/**
 * A service's entry point: starts it, gives memory back when it goes quiet after load (the process
 * is the service's own, unlike the tests' that run several), and stops it cleanly on SIGTERM or SIGINT.
 */
export async function runService<Config extends ServiceConfig>(definition: ServiceDefinition<Config>): Promise<RunningService> {
  const running = await startService(definition);
  const memoryRelease = startIdleMemoryRelease();
  const shutdown = () => {
    memoryRelease.stop();
    void running.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
  return running;
}
