import { randomUUID } from 'node:crypto';
import { context, propagation } from '@opentelemetry/api';
import type { EntityManager, EntityName } from '@mikro-orm/core';
import { OutboxEntry } from './event-tables.ts';
import type { EventActor, EventEnvelope } from './envelope.ts';
import type { OutgoingEvent } from './event-catalogue.ts';

export interface RecordEventOptions {
  topic: string;
  type: string;
  aggregateId: string | number;
  actor: EventActor | null;
  data: Record<string, unknown>;
}

/**
 * Adds an event to the outbox through `em`, so it commits or rolls back with the change it
 * describes. Never call a Kafka producer from a request: the relay publishes.
 */
export function recordEvent(em: EntityManager, options: RecordEventOptions): EventEnvelope {
  const traceContext: Record<string, string> = {};
  propagation.inject(context.active(), traceContext);
  const envelope: EventEnvelope = {
    id: randomUUID(),
    type: options.type,
    occurredAt: new Date().toISOString(),
    aggregateId: String(options.aggregateId),
    actor: options.actor,
    data: options.data,
    traceContext,
  };
  em.create(OutboxEntry, {
    eventId: envelope.id,
    topic: options.topic,
    key: envelope.aggregateId,
    envelope,
  });
  return envelope;
}

/**
 * Inserts `data` as a new `entity`, then records the event made from the inserted row (its
 * generated columns known), both through `em`: call it inside the transaction of the change.
 */
export async function insertWithEvent<Entity extends object>(
  em: EntityManager,
  entity: EntityName<Entity>,
  data: Entity,
  options: { event: (created: Entity) => OutgoingEvent; actor: EventActor | null },
): Promise<Entity> {
  const created = em.create(entity, data as never);
  await em.flush();
  recordEvent(em, { ...options.event(created), actor: options.actor });
  await em.flush();
  return created;
}
