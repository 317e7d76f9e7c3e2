import type { EntityManager } from '@platform/db';
import { PushedProject } from './pushed-project.entity.ts';

/** The projects pushes brought commits to, by namespace; in the unit of work it is given. */
export class PgPushedProjectStore {
  readonly #em: EntityManager;

  constructor(em: EntityManager) {
    this.#em = em;
  }

  async save(project: PushedProject): Promise<void> {
    await this.#em.upsert(PushedProject, project);
  }

  /** A project moved to another namespace; nothing for one never pushed to. */
  async move(projectId: number, namespaceId: number): Promise<void> {
    await this.#em.nativeUpdate(PushedProject, { projectId }, { namespaceId });
  }

  async remove(projectId: number): Promise<void> {
    await this.#em.nativeDelete(PushedProject, { projectId });
  }

  /** The namespace's first project (by id) with commits; undefined when none has any. */
  async first(namespaceId: number): Promise<number | undefined> {
    return (await this.#em.findOne(PushedProject, { namespaceId }, { orderBy: { projectId: 'asc' } }))?.projectId;
  }
}
