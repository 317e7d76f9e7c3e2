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

export interface AuditEventOrder {
  by: 'created_at' | 'id';
  sort: 'asc' | 'desc';
}

/** Where a keyset page starts: after the event with `afterId` (none: from the start), ordered by id. */
export interface AuditEventKeyset {
  afterId?: number | undefined;
  sort: 'asc' | 'desc';
  limit: number;
}

export interface AuditEventStore {
  /** Records an event once: a second copy of the same domain event (a replay under another consumer group) changes nothing. */
  insert(event: NewAuditEvent): Promise<void>;
  findById(id: number): Promise<AuditEvent | null>;
  list(filter: AuditEventFilter, order: AuditEventOrder, page: PageWindow): Promise<Page<AuditEvent>>;
  /** One keyset page and whether another follows: page 10,000 costs what page 1 costs. */
  listAfter(filter: AuditEventFilter, keyset: AuditEventKeyset): Promise<{ items: AuditEvent[]; hasMore: boolean }>;
}

export class PgAuditEventStore implements AuditEventStore {
  readonly #em: EntityManager;

  constructor(em: EntityManager) {
    this.#em = em;
  }

  async insert(event: NewAuditEvent): Promise<void> {
    await this.#em.createQueryBuilder(AuditEvent).insert(event).onConflict('sourceEventId').ignore().execute();
  }

  findById(id: number): Promise<AuditEvent | null> {
    return this.#em.findOne(AuditEvent, { id });
  }

  async list(filter: AuditEventFilter, order: AuditEventOrder, page: PageWindow): Promise<Page<AuditEvent>> {
    const orderBy = order.by === 'id' ? { id: order.sort } : { createdAt: order.sort, id: order.sort };
    return findPage(this.#em, AuditEvent, whereOf(filter), { orderBy, window: page });
  }

  async listAfter(filter: AuditEventFilter, keyset: AuditEventKeyset): Promise<{ items: AuditEvent[]; hasMore: boolean }> {
    const where = whereOf(filter);
    if (keyset.afterId !== undefined) where.id = keyset.sort === 'desc' ? { $lt: keyset.afterId } : { $gt: keyset.afterId };
    // One row beyond the page says whether another follows.
    const rows = await this.#em.find(AuditEvent, where, { orderBy: { id: keyset.sort }, limit: keyset.limit + 1 });
    return { items: rows.slice(0, keyset.limit), hasMore: rows.length > keyset.limit };
  }
}

function whereOf(filter: AuditEventFilter): FilterQuery<AuditEvent> & { id?: { $lt: number } | { $gt: number } } {
  const where: FilterQuery<AuditEvent> & { id?: { $lt: number } | { $gt: number } } = {};
  if (filter.createdAfter || filter.createdBefore) {
    where.createdAt = {
      ...(filter.createdAfter ? { $gte: filter.createdAfter } : {}),
      ...(filter.createdBefore ? { $lte: filter.createdBefore } : {}),
    };
  }
  if (filter.entityType) where.entityType = filter.entityType;
  if (filter.entityId !== undefined) where.entityId = filter.entityId;
  return where;
}
