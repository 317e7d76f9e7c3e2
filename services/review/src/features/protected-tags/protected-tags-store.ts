import type { EntityManager } from '@platform/db';
import { insertUnlessPresent } from '@platform/db';
import { ProtectedTag, ProtectedTagCreateAccessLevel } from './protected-tag.entity.ts';

/** Protected tags' writes, in the unit of work (and transaction) the service opened. */
export interface ProtectedTagStore {
  /** The new protected tag's id, or null when the project protects that name already. */
  insert(input: { projectId: number; name: string; createAccessLevels: number[] }): Promise<number | null>;
  /** False when the project protects no such name. */
  delete(projectId: number, name: string): Promise<boolean>;
}

export class PgProtectedTagStore implements ProtectedTagStore {
  readonly #em: EntityManager;

  constructor(em: EntityManager) {
    this.#em = em;
  }

  async insert(input: { projectId: number; name: string; createAccessLevels: number[] }): Promise<number | null> {
    const now = new Date();
    const tag = await insertUnlessPresent(this.#em, ProtectedTag, {
      projectId: input.projectId,
      name: input.name,
      createdAt: now,
      updatedAt: now,
    });
    if (!tag) return null;
    for (const accessLevel of input.createAccessLevels)
      this.#em.create(ProtectedTagCreateAccessLevel, { protectedTagId: tag.id, accessLevel });
    await this.#em.flush();
    return tag.id;
  }

  async delete(projectId: number, name: string): Promise<boolean> {
    return (await this.#em.nativeDelete(ProtectedTag, { projectId, name })) > 0;
  }
}
