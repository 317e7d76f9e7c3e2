import { sql } from 'kysely';
import type { EntityManager } from '@mikro-orm/postgresql';

/** The projects and groups being deleted, whose bots go with them. */
export interface DeletedResources {
  projectIds: number[];
  groupIds: number[];
}

export interface ResourceBotStore {
  /** The bots that are members of these projects or groups, or hold a token made for one of them. */
  botIdsOf(resources: DeletedResources): Promise<number[]>;
}

export class PgResourceBotStore implements ResourceBotStore {
  readonly #em: EntityManager;

  constructor(em: EntityManager) {
    this.#em = em;
  }

  async botIdsOf({ projectIds, groupIds }: DeletedResources): Promise<number[]> {
    if (projectIds.length === 0 && groupIds.length === 0) return [];
    // A bot whose token was revoked has left the members but still holds the token.
    const { rows } = await sql<{ id: number }>`select u.id from users u
      where u.user_type = 'project_bot' and (
        exists (select 1 from members m where m.user_id = u.id and (
          (m.source_type = 'Project' and m.source_id = any(${projectIds}::integer[]))
          or (m.source_type = 'Group' and m.source_id = any(${groupIds}::integer[]))))
        or exists (select 1 from personal_access_tokens t where t.user_id = u.id and (
          (t.resource_type = 'project' and t.resource_id = any(${projectIds}::integer[]))
          or (t.resource_type = 'group' and t.resource_id = any(${groupIds}::integer[])))))
      order by u.id`.execute(this.#em.getKysely());
    return rows.map((row) => row.id);
  }
}
