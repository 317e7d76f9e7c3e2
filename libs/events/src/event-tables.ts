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
 * The first version of the tables behind `OutboxEntry` and `ProcessedEvent`, applied by
 * `eventMigrations`. Services that predate it inlined these statements into their own first
 * migration, so each one tolerates the tables existing already. Frozen: landed migrations run
 * it; the tables change only through a new migration appended to `eventMigrations`.
 */
export const eventTablesSql = [
  `create table if not exists outbox (
     id bigserial primary key,
     event_id uuid not null unique,
     topic text not null,
     key text not null,
     envelope jsonb not null,
     created_at timestamptz not null default now(),
     published_at timestamptz null
   )`,
  `create index if not exists outbox_unpublished_idx on outbox (id) where published_at is null`,
  // Wakes the relay as soon as a transaction that wrote events commits.
  `create or replace function outbox_notify() returns trigger language plpgsql as $$
   begin perform pg_notify('outbox', ''); return null; end $$`,
  `create or replace trigger outbox_notify after insert on outbox for each statement execute function outbox_notify()`,
  `create table if not exists processed_events (
     event_id uuid not null,
     consumer text not null,
     processed_at timestamptz not null default now(),
     primary key (event_id, consumer)
   )`,
];
