import { defineEntity, p } from '@mikro-orm/core';

/** Events waiting for the relay; written in the same transaction as the change they describe. */
export const OutboxEntry = defineEntity({
  name: 'OutboxEntry',
  tableName: 'outbox',
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    eventId: p.uuid(),
    topic: p.text(),
    key: p.text(),
    envelope: p.json<Record<string, unknown>>(),
    createdAt: p.datetime().onCreate(() => new Date()),
    publishedAt: p.datetime().nullable(),
  },
});

/** Event ids a consumer has applied, so a redelivered event is applied once. */
export const ProcessedEvent = defineEntity({
  name: 'ProcessedEvent',
  tableName: 'processed_events',
  properties: {
    eventId: p.uuid().primary(),
    consumer: p.text().primary(),
    processedAt: p.datetime().onCreate(() => new Date()),
  },
});

/**
 * The tables behind `OutboxEntry` and `ProcessedEvent`, for a service's first migration.
 * The trigger wakes the relay as soon as a transaction that wrote events commits.
 */
export const eventTablesSql = [
  `create table outbox (
     id bigserial primary key,
     event_id uuid not null unique,
     topic text not null,
     key text not null,
     envelope jsonb not null,
     created_at timestamptz not null default now(),
     published_at timestamptz null
   )`,
  `create index outbox_unpublished_idx on outbox (id) where published_at is null`,
  `create function outbox_notify() returns trigger language plpgsql as $$
   begin perform pg_notify('outbox', ''); return null; end $$`,
  `create trigger outbox_notify after insert on outbox for each statement execute function outbox_notify()`,
  `create table processed_events (
     event_id uuid not null,
     consumer text not null,
     processed_at timestamptz not null default now(),
     primary key (event_id, consumer)
   )`,
];
