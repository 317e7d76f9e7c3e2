// What runs against a service's own database: the outbox written in the change's transaction,
// its relay to Kafka, and the consumer that records each handled event once.
export { OutboxEntry, ProcessedEvent, eventTablesSql } from './event-tables.ts';
export { eventMigrations } from './migrations/index.ts';
export { insertWithEvent, recordEvent } from './record-event.ts';
export type { RecordEventOptions } from './record-event.ts';
export { startOutboxRelay } from './outbox-relay.ts';
export type { OutboxRelay } from './outbox-relay.ts';
export { registerOutboxBacklog } from './outbox-metrics.ts';
export { startConsumer } from './consumer.ts';
export type { EventConsumer, ConsumerState } from './consumer.ts';
