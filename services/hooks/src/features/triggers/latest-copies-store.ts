import type { EntityName } from '@mikro-orm/core';
import type { EntityManager } from '@platform/db';

/** A record of what an event last described, by its id in the project: a pipeline, a deployment, a comment. */
export interface FactsCopy {
  id: number;
  projectId: number;
  facts: Record<string, unknown>;
}

/**
 * The last state of each pipeline, deployment or comment that events described, kept in one table
 * each: what a hook test sends as the project's latest. In the unit of work it is given.
 */
export class PgLatestCopyStore<Facts extends object> {
  readonly #em: EntityManager;
  readonly #entity: EntityName<FactsCopy>;

  constructor(em: EntityManager, entity: EntityName<FactsCopy>) {
    this.#em = em;
    this.#entity = entity;
  }

  async save(options: { id: number; projectId: number; facts: Facts }): Promise<void> {
    await this.#em.upsert(this.#entity, { ...options, facts: options.facts as Record<string, unknown> });
  }

  async remove(id: number): Promise<void> {
    await this.#em.nativeDelete(this.#entity, { id });
  }

  /** The facts of the project's newest; undefined when it has none. */
  async latest(projectId: number): Promise<Facts | undefined> {
    const copy = await this.#em.findOne(this.#entity, { projectId }, { orderBy: { id: 'desc' } });
    return copy ? (copy.facts as Facts) : undefined;
  }
}
