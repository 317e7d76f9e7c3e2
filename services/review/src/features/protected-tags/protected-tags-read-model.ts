import { sql, type Kysely } from 'kysely';
import { bigintNumber } from '@platform/db';
import type { TagProtection } from '../protected-branches/branch-protection.ts';

/** A project's protected tags with their create levels, read in one statement without entities. */
export class ProtectedTagsReadModel {
  readonly #db: Kysely<unknown>;

  constructor(db: Kysely<unknown>) {
    this.#db = db;
  }

  /** The project's protected tags, oldest first; only the one of that exact name when `name` is given. */
  async list(projectId: number, name?: string): Promise<TagProtection[]> {
    const { rows } = await sql<TagProtection>`
      select ${sql.raw(bigintNumber('t.id'))} as id, t.name,
        coalesce((select json_agg(json_build_object('id', l.id, 'accessLevel', l.access_level) order by l.id)
          from protected_tag_create_access_levels l where l.protected_tag_id = t.id), '[]'::json) as "createAccessLevels"
      from protected_tags t
      where t.project_id = ${projectId} ${name === undefined ? sql`` : sql`and t.name = ${name}`}
      order by t.id`.execute(this.#db);
    return rows;
  }
}
