import { sql, type Kysely } from 'kysely';
import { readPage, selectList, type Page, type PageWindow } from '@platform/db';

/** A user's membership of a group (`Namespace`) or a project, named by its source. */
export interface Membership {
  sourceId: number;
  sourceName: string;
  sourceType: 'Namespace' | 'Project';
  accessLevel: number;
}

/** A user whose last activity an administrator lists. */
export interface UserActivity {
  username: string;
  /** `YYYY-MM-DD`. */
  lastActivityOn: string;
}

const MEMBERSHIP_COLUMNS: Record<keyof Membership, string> = {
  sourceId: 'm.source_id',
  sourceName: `case when m.source_type = 'Project' then (select p.name from projects p where p.id = m.source_id)
    else (select n.name from namespaces n where n.id = m.source_id) end`,
  sourceType: `case when m.source_type = 'Project' then 'Project' else 'Namespace' end`,
  accessLevel: 'm.access_level',
};

/** Users' memberships and last activity, read without entities. */
export class UserMembershipsReadModel {
  readonly #db: Kysely<unknown>;

  constructor(db: Kysely<unknown>) {
    this.#db = db;
  }

  /** The user's memberships (access requests aside), oldest first; `sourceType` narrows them to groups or projects. */
  memberships(userId: number, sourceType: 'Group' | 'Project' | undefined, window: PageWindow): Promise<Page<Membership>> {
    const where = sql`m.user_id = ${userId} and m.requested_at is null
      and ${sourceType ? sql`m.source_type = ${sourceType}` : sql`true`}`;
    return readPage<Membership>(this.#db, {
      matching: sql`select 1 from members m where ${where}`,
      rows: sql<Membership>`select ${sql.raw(selectList(MEMBERSHIP_COLUMNS))} from members m where ${where} order by m.id`,
      window,
    });
  }

  /** Users active on `from`'s day or later, least recently active first; only public profiles unless `privateProfiles`. */
  activities(options: { from: Date; privateProfiles: boolean; window: PageWindow }): Promise<Page<UserActivity>> {
    const where = sql`u.last_activity_on >= ${options.from}::timestamptz::date
      and ${options.privateProfiles ? sql`true` : sql`not u.private_profile`}`;
    return readPage<UserActivity>(this.#db, {
      matching: sql`select 1 from users u where ${where}`,
      rows: sql<UserActivity>`select u.username, to_char(u.last_activity_on, 'YYYY-MM-DD') as "lastActivityOn"
        from users u where ${where} order by u.last_activity_on, u.id`,
      window: options.window,
    });
  }
}
