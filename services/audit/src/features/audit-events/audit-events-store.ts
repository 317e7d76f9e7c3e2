import type { EntityManager } from '@mikro-orm/postgresql';
import type { FilterQuery } from '@mikro-orm/core';
import { AuditEvent, type EntityType } from './audit-event.entity.ts';
import { findPage, type Page, type PageWindow } from '@platform/db';

export type NewAuditEvent = Omit<AuditEvent, 'id'>;

export interface AuditEventFilter {
  createdAfter?: Date | undefined;
  createdBefore?: Date | undefined;
  entityType?: EntityType | undefined;
  entityId?: number | undefined;
}

export interface AuditEventStore {
  insert(event: NewAuditEvent): Promise<void>;
  findById(id: number): Promise<AuditEvent | null>;
  list(filter: AuditEventFilter, page: PageWindow): Promise<Page<AuditEvent>>;
}

export class PgAuditEventStore implements AuditEventStore {
  readonly #em: EntityManager;

  constructor(em: EntityManager) {
    this.#em = em;
  }

  async insert(event: NewAuditEvent): Promise<void> {
    this.#em.create(AuditEvent, event);
    await this.#em.flush();
  }

  findById(id: number): Promise<AuditEvent | null> {
    return this.#em.findOne(AuditEvent, { id });
  }

  async list(filter: AuditEventFilter, page: PageWindow): Promise<Page<AuditEvent>> {
    const where: FilterQuery<AuditEvent> = {};
    if (filter.createdAfter || filter.createdBefore) {
      where.createdAt = {
        ...(filter.createdAfter ? { $gte: filter.createdAfter } : {}),
        ...(filter.createdBefore ? { $lte: filter.createdBefore } : {}),
      };
    }
    if (filter.entityType) where.entityType = filter.entityType;
    if (filter.entityId !== undefined) where.entityId = filter.entityId;
    return findPage(this.#em, AuditEvent, where, { orderBy: { createdAt: 'desc', id: 'desc' }, window: page });
  }
}
