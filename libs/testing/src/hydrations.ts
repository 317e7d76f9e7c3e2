import { EntityFactory } from '@mikro-orm/core';

/**
 * Counts the entities MikroORM builds (every find, `em.map` and reference goes through its entity
 * factory) while `work` runs in this process: a read path that hydrates nothing counts zero.
 */
export async function countHydrations(work: () => Promise<unknown>): Promise<number> {
  let count = 0;
  const create = EntityFactory.prototype.create;
  EntityFactory.prototype.create = function countedCreate(this: EntityFactory, ...args: Parameters<typeof create>) {
    count += 1;
    return create.apply(this, args);
  } as typeof create;
  try {
    await work();
  } finally {
    EntityFactory.prototype.create = create;
  }
  return count;
}
