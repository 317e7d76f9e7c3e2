import { IsolationLevel, type EntityName, type FilterQuery, type FindOptions } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * One page of a list and the total it belongs to, read from one snapshot. MikroORM's
 * findAndCount runs both queries at once on two connections, so a write between them can make
 * the page disagree with `X-Total`; one read-only repeatable-read transaction cannot.
 */
export function findPage<Entity extends object, Hint extends string = never>(
  em: EntityManager,
  entity: EntityName<Entity>,
  where: FilterQuery<Entity>,
  options: FindOptions<Entity, Hint> & { offset: number; limit: number },
): Promise<{ items: Entity[]; total: number }> {
  return em.transactional(
    async (tx) => {
      // The generic signature above is what callers check against; MikroORM's own overloads
      // cannot be satisfied by an unresolved generic entity.
      const items = await tx.find(entity, where as never, options);
      const total = await tx.count(entity, where as never);
      return { items: items as Entity[], total };
    },
    { isolationLevel: IsolationLevel.REPEATABLE_READ, readOnly: true },
  );
}
