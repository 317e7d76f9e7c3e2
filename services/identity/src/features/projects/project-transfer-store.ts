import type { EntityManager } from '@mikro-orm/postgresql';
import { sql } from 'kysely';
import { VISIBILITY_RANK, type Visibility } from '../access/namespace.entity.ts';

export interface ProjectTransferStore {
  /** Which of the project's path and name another project of `namespaceId` already has, case-insensitively. */
  clashIn(namespaceId: number, project: { path: string; name: string }): Promise<'path' | 'name' | null>;
}

/** Project transfers in PostgreSQL. `em` resolves to the current unit of work. */
export class PgProjectTransferStore implements ProjectTransferStore {
  readonly #em: EntityManager;

  constructor(em: EntityManager) {
    this.#em = em;
  }

  async clashIn(namespaceId: number, project: { path: string; name: string }): Promise<'path' | 'name' | null> {
    const { rows } = await sql<{ path_taken: boolean; name_taken: boolean }>`select
        exists (select 1 from projects where namespace_id = ${namespaceId} and lower(path) = lower(${project.path})) as path_taken,
        exists (select 1 from projects where namespace_id = ${namespaceId} and lower(name) = lower(${project.name})) as name_taken
      `.execute(this.#em.getKysely());
    if (rows[0]?.path_taken) return 'path';
    if (rows[0]?.name_taken) return 'name';
    return null;
  }
}

/** A project's visibility in a namespace of `namespaceVisibility`: never more visible than its group. */
export function visibilityWithin(projectVisibility: Visibility, namespaceVisibility: Visibility): Visibility {
  return VISIBILITY_RANK[projectVisibility] > VISIBILITY_RANK[namespaceVisibility] ? namespaceVisibility : projectVisibility;
}
