import type { EntityManager } from '@platform/db';
import { ProtectedBranchCopy } from './protected-branch-copy.entity.ts';

/** Protected branches as their events last described them; in the unit of work it is given. */
export class PgProtectedBranchCopyStore {
  readonly #em: EntityManager;

  constructor(em: EntityManager) {
    this.#em = em;
  }

  async save(branch: ProtectedBranchCopy): Promise<void> {
    await this.#em.upsert(ProtectedBranchCopy, branch);
  }

  async remove(id: number): Promise<void> {
    await this.#em.nativeDelete(ProtectedBranchCopy, { id });
  }

  /** The names and wildcards of the project's protected branches. */
  async names(projectId: number): Promise<string[]> {
    return (await this.#em.find(ProtectedBranchCopy, { projectId })).map((branch) => branch.name);
  }
}
