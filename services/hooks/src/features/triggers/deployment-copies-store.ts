import type { EntityManager } from '@platform/db';
import { DeploymentCopy } from './deployment-copy.entity.ts';

/** Deployments as their events last described them; in the unit of work it is given. */
export class PgDeploymentCopyStore {
  readonly #em: EntityManager;

  constructor(em: EntityManager) {
    this.#em = em;
  }

  async save(options: { id: number; projectId: number; facts: object }): Promise<void> {
    await this.#em.upsert(DeploymentCopy, {
      id: options.id,
      projectId: options.projectId,
      facts: options.facts as Record<string, unknown>,
    });
  }

  /** The facts of the project's newest deployment; undefined when it has none. */
  async latest<Facts>(projectId: number): Promise<Facts | undefined> {
    const copy = await this.#em.findOne(DeploymentCopy, { projectId }, { orderBy: { id: 'desc' } });
    return copy ? (copy.facts as Facts) : undefined;
  }
}
