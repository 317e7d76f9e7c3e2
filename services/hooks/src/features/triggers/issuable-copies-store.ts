import type { EntityManager } from '@platform/db';
import { IssuableCopy, type IssuableType } from './issuable-copy.entity.ts';

/** The last state of merge requests and issues as their events described them; in the unit of work it is given. */
export class PgIssuableCopyStore {
  readonly #em: EntityManager;

  constructor(em: EntityManager) {
    this.#em = em;
  }

  /** The facts last recorded of the merge request or issue; undefined when none was. */
  async find<Facts>(type: IssuableType, id: number): Promise<Facts | undefined> {
    const copy = await this.#em.findOne(IssuableCopy, { type, id });
    return copy ? (copy.facts as Facts) : undefined;
  }

  /** The facts of the project's newest merge request or issue; undefined when it has none. */
  async latest<Facts>(type: IssuableType, projectId: number): Promise<Facts | undefined> {
    const copy = await this.#em.findOne(IssuableCopy, { type, projectId }, { orderBy: { id: 'desc' } });
    return copy ? (copy.facts as Facts) : undefined;
  }

  /** Records the merge request's or issue's facts as they are now. */
  async save(options: { type: IssuableType; id: number; projectId: number; facts: object }): Promise<void> {
    await this.#em.upsert(IssuableCopy, {
      type: options.type,
      id: options.id,
      projectId: options.projectId,
      facts: options.facts as Record<string, unknown>,
    });
  }
}
