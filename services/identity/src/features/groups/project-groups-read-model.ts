import { sql, type Kysely, type RawBuilder } from 'kysely';
import { likePattern, readPage, selectList, type Page, type PageWindow } from '@platform/db';
import { groupVisibleTo, type Viewer } from '../access/access-sql.ts';
import { namespaceFullName } from '../access/sql-helpers.ts';
import type { PublicGroup } from './group-rows.ts';

/** Which of a project's groups `GET /projects/:id/groups` lists. */
export interface ProjectGroupsFilter {
  projectId: number;
  /** The project's group and its ancestors (empty for a project of a user's namespace). */
  ancestorIds: number[];
  /** The groups the project is shared with, as well. */
  shared?: {
    /** Only shares granting at least this access level. */
    minAccessLevel?: number;
    /** Only shared groups this viewer may see. */
    visibleTo?: Viewer;
  };
  skipIds?: number[];
  /** Name or path contains this, case-insensitively. */
  search?: string;
}

const COLUMNS: Record<keyof PublicGroup, string> = {
  id: 'n.id',
  name: 'n.name',
  avatarUrl: 'n.avatar_url',
  fullPath: 'n.full_path',
  fullName: namespaceFullName('n'),
};

/** A project's ancestor groups and the groups it is shared with, newest first, as `PublicGroupDetails` shows them. */
export class ProjectGroupsReadModel {
  readonly #db: Kysely<unknown>;

  constructor(db: Kysely<unknown>) {
    this.#db = db;
  }

  list(filter: ProjectGroupsFilter, window: PageWindow): Promise<Page<PublicGroup>> {
    const where = conditions(filter);
    return readPage<PublicGroup>(this.#db, {
      matching: sql`select 1 from namespaces n where ${where}`,
      rows: sql<PublicGroup>`select ${sql.raw(selectList(COLUMNS))} from namespaces n where ${where} order by n.id desc`,
      window,
    });
  }
}

function conditions(filter: ProjectGroupsFilter): RawBuilder<unknown> {
  const sources: RawBuilder<unknown>[] = [sql`n.id = any(${filter.ancestorIds}::integer[])`];
  if (filter.shared) {
    const minimum = filter.shared.minAccessLevel === undefined ? sql`true` : sql`l.group_access >= ${filter.shared.minAccessLevel}`;
    const visible = filter.shared.visibleTo ? groupVisibleTo(filter.shared.visibleTo, 'n') : sql`true`;
    sources.push(sql`(n.id in (select l.group_id from project_group_links l where l.project_id = ${filter.projectId} and ${minimum})
      and ${visible})`);
  }
  const where: RawBuilder<unknown>[] = [sql`n.kind = 'group'`, sql`(${sql.join(sources, sql` or `)})`];
  if (filter.skipIds?.length) where.push(sql`n.id <> all(${filter.skipIds}::integer[])`);
  if (filter.search) {
    const pattern = likePattern(filter.search);
    where.push(sql`(n.name ilike ${pattern} or n.path ilike ${pattern})`);
  }
  return sql.join(where, sql` and `);
}
