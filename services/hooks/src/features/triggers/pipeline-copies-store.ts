import type { EntityManager } from '@platform/db';
import { PipelineCopy } from './pipeline-copy.entity.ts';

/** External pipelines as their events last described them; in the unit of work it is given. */
export class PgPipelineCopyStore {
  readonly #em: EntityManager;

  constructor(em: EntityManager) {
    this.#em = em;
  }

  async save(options: { id: number; projectId: number; facts: object }): Promise<void> {
    await this.#em.upsert(PipelineCopy, { id: options.id, projectId: options.projectId, facts: options.facts as Record<string, unknown> });
  }

  /** The facts of the project's newest pipeline; undefined when it has none. */
  async latest<Facts>(projectId: number): Promise<Facts | undefined> {
    const copy = await this.#em.findOne(PipelineCopy, { projectId }, { orderBy: { id: 'desc' } });
    return copy ? (copy.facts as Facts) : undefined;
  }
}
