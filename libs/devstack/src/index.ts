export { ensureKafkaJars, startKafkaBroker, KAFKA_VERSION } from './kafka-broker.ts';
export type { KafkaBroker, StartKafkaBrokerOptions } from './kafka-broker.ts';
export { resolvePostgres, startEmbeddedPostgres, databaseUrlFor } from './postgres-server.ts';
export type { PostgresServer } from './postgres-server.ts';
export { startPlatform } from './platform.ts';
export type { PlatformOptions, RunningPlatform } from './platform.ts';
export { spawnRestarting, DEFAULT_RESTART_POLICY } from './restarting-process.ts';
export type { RestartingProcess, RestartPolicy } from './restarting-process.ts';
export { freePort, freePorts } from './free-port.ts';
