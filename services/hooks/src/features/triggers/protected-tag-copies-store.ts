import type { EntityManager } from '@platform/db';
import { ProtectedTagCopy } from './protected-tag-copy.entity.ts';

/** Protected tags as their events last described them; in the unit of work it is given. */
export class PgProtectedTagCopyStore {
  readonly #em: EntityManager;

  constructor(em: EntityManager) {
    this.#em = em;
  }

  async save(tag: ProtectedTagCopy): Promise<void> {
    await this.#em.upsert(ProtectedTagCopy, tag);
  }

  async remove(id: number): Promise<void> {
    await this.#em.nativeDelete(ProtectedTagCopy, { id });
  }

  /** The names and wildcards of the project's protected tags. */
  async names(projectId: number): Promise<string[]> {
    return (await this.#em.find(ProtectedTagCopy, { projectId })).map((tag) => tag.name);
  }
}
