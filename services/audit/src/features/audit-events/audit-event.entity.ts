import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

export const ENTITY_TYPES = ['User', 'Group', 'Project'] as const;
export type EntityType = (typeof ENTITY_TYPES)[number];

/** GitLab's audit `details`: who did what to which target, plus one of add, change or custom_message. */
export interface AuditDetails {
  author_name: string;
  target_id: number | string;
  target_type: string;
  target_details: string;
  ip_address: string | null;
  entity_path: string;
  add?: string;
  /** With `add` of a membership: the access level granted, as GitLab names it (`Developer`). */
  as?: string;
  remove?: string;
  change?: string;
  from?: string;
  to?: string;
  custom_message?: string;
}

export const AuditEvent = defineEntity({
  name: 'AuditEvent',
  tableName: 'audit_events',
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    authorId: p.integer(),
    entityId: p.integer(),
    entityType: p.enum(ENTITY_TYPES),
    eventName: p.text(),
    details: p.json<AuditDetails>(),
    sourceEventId: p.uuid(),
    createdAt: p.datetime(),
  },
});
export type AuditEvent = InferEntity<typeof AuditEvent>;
