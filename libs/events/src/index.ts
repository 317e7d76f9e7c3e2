// Messages on Kafka: what every event-aware process uses, the gateway included. The database's
// side (outbox, relay, idempotent consumer) is `@platform/events/database`, so that a process
// without a database does not load MikroORM, kysely and pg.
export { eventEnvelopeSchema } from './envelope.ts';
export type { EventEnvelope, EventActor } from './envelope.ts';
export { createKafka, ensureTopics } from './kafka-client.ts';
export { defineEvent, onEvent } from './event-catalogue.ts';
export type { EventDefinition, EventMessage, EventHandler, OutgoingEvent } from './event-catalogue.ts';
export { startEventFeed } from './event-feed.ts';
export type { EventFeed } from './event-feed.ts';
