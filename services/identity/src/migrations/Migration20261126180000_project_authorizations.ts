import { Migration } from '@platform/db';

/** The transition tables of a statement-level trigger; PostgreSQL allows them on one event per trigger. */
const TRANSITIONS = {
  INSERT: 'new table as new_rows',
  DELETE: 'old table as old_rows',
  UPDATE: 'old table as old_rows new table as new_rows',
} as const;

/**
 * `project_authorizations`: every user's effective access level on every project they reach
 * through a membership or a share, kept by the database in the transaction of every change that
 * moves access, so that project lists and checks join one indexed table instead of evaluating
 * the access rules (`docs/read-path.md`, section 9).
 *
 * The rows follow the rules of `access-sql.ts` (a project membership; a membership of the
 * project's group or an ancestor; a share of the project, or of its group or an ancestor, with a
 * group the user is a member of, or of whose ancestor they are a member, capped by the share's
 * level), `project-authorizations.int.test.ts` checks that they agree. A grant lapses on the
 * earlier expiry of its membership and its share, so a pair holds one row per expiry date
 * (`infinity`: never) with the highest level granted until then; a read takes the highest level
 * among the rows still current, which stays exact as days pass with nothing to refresh. Pending
 * access requests grant nothing. The user's state (blocked, external, administrator) is not
 * here: reads check it on `users`, as the rules do.
 */
export class Migration20261126180000_project_authorizations extends Migration {
  override name = 'Migration20261126180000_project_authorizations';

  override up(): void {
    this.addSql(`create table project_authorizations (
      user_id integer not null references users (id) on delete cascade,
      project_id integer not null references projects (id) on delete cascade,
      expires_at date not null default 'infinity',
      access_level integer not null check (access_level in (10, 20, 30, 40, 50)),
      primary key (user_id, project_id, expires_at)
    )`);
    // A project's authorized users (member lists, refreshes by project); a user's projects at a
    // minimum level (lists filtered by min_access_level), answered from the index alone.
    this.addSql('create index project_authorizations_project_id_idx on project_authorizations (project_id)');
    this.addSql(`create index project_authorizations_user_id_access_level_idx on project_authorizations (user_id, access_level)
      include (project_id, expires_at)`);

    // Grants of the users `for_users` on every project: starts from their memberships, then the
    // groups below them (traversal_ids' GIN index) and the shares into those.
    this.addSql(`create function project_authorization_grants_for_users(for_users integer[])
      returns table (user_id integer, project_id integer, expires_at date, access_level integer)
      language sql stable as $$
        with memberships as (
          select m.user_id, m.source_type, m.source_id, m.access_level, coalesce(m.expires_at, 'infinity') as expires_at
          from members m
          where m.user_id = any(for_users) and m.requested_at is null and (m.expires_at is null or m.expires_at > current_date)
        ),
        group_memberships as (select * from memberships m where m.source_type = 'Group')
        select m.user_id, p.id, m.expires_at, m.access_level
        from memberships m join projects p on p.id = m.source_id where m.source_type = 'Project'
        union all
        select m.user_id, p.id, m.expires_at, m.access_level
        from group_memberships m
        join namespaces d on d.traversal_ids @> array[m.source_id]
        join projects p on p.namespace_id = d.id
        union all
        select m.user_id, p.id, least(m.expires_at, coalesce(l.expires_at, 'infinity')), least(m.access_level, l.group_access)
        from group_memberships m
        join namespaces w on w.traversal_ids @> array[m.source_id]
        join group_group_links l on l.shared_with_group_id = w.id and (l.expires_at is null or l.expires_at > current_date)
        join namespaces d on d.traversal_ids @> array[l.shared_group_id]
        join projects p on p.namespace_id = d.id
        union all
        select m.user_id, l.project_id, least(m.expires_at, coalesce(l.expires_at, 'infinity')), least(m.access_level, l.group_access)
        from group_memberships m
        join namespaces w on w.traversal_ids @> array[m.source_id]
        join project_group_links l on l.group_id = w.id and (l.expires_at is null or l.expires_at > current_date)
      $$`);

    // Grants on the projects `for_projects` to every user: starts from each project's ancestry,
    // as the rules' single-row forms do.
    this.addSql(`create function project_authorization_grants_for_projects(for_projects integer[])
      returns table (user_id integer, project_id integer, expires_at date, access_level integer)
      language sql stable as $$
        with targets as (
          select p.id, n.traversal_ids from projects p join namespaces n on n.id = p.namespace_id where p.id = any(for_projects)
        )
        select m.user_id, t.id, coalesce(m.expires_at, 'infinity'), m.access_level
        from targets t join members m on m.source_type = 'Project' and m.source_id = t.id
        where m.requested_at is null and (m.expires_at is null or m.expires_at > current_date)
        union all
        select m.user_id, t.id, coalesce(m.expires_at, 'infinity'), m.access_level
        from targets t join members m on m.source_type = 'Group' and m.source_id = any(t.traversal_ids)
        where m.requested_at is null and (m.expires_at is null or m.expires_at > current_date)
        union all
        select m.user_id, t.id, least(coalesce(m.expires_at, 'infinity'), coalesce(l.expires_at, 'infinity')),
          least(m.access_level, l.group_access)
        from targets t
        join group_group_links l on l.shared_group_id = any(t.traversal_ids) and (l.expires_at is null or l.expires_at > current_date)
        join namespaces w on w.id = l.shared_with_group_id
        join members m on m.source_type = 'Group' and m.source_id = any(w.traversal_ids)
        where m.requested_at is null and (m.expires_at is null or m.expires_at > current_date)
        union all
        select m.user_id, t.id, least(coalesce(m.expires_at, 'infinity'), coalesce(l.expires_at, 'infinity')),
          least(m.access_level, l.group_access)
        from targets t
        join project_group_links l on l.project_id = t.id and (l.expires_at is null or l.expires_at > current_date)
        join namespaces w on w.id = l.group_id
        join members m on m.source_type = 'Group' and m.source_id = any(w.traversal_ids)
        where m.requested_at is null and (m.expires_at is null or m.expires_at > current_date)
      $$`);

    // Recomputes every row of the users `for_users` and of the projects `for_projects`. One lock
    // serialises refreshes: two concurrent changes reaching the same pair would otherwise each
    // compute it without the other's change. Changes that move access are rare next to reads.
    this.addSql(`create function refresh_project_authorizations(for_users integer[], for_projects integer[])
      returns void language plpgsql as $$
      begin
        if coalesce(cardinality(for_users), 0) = 0 and coalesce(cardinality(for_projects), 0) = 0 then
          return;
        end if;
        perform pg_advisory_xact_lock(hashtext('project_authorizations'));
        delete from project_authorizations a where a.user_id = any(for_users);
        delete from project_authorizations a where a.project_id = any(for_projects);
        insert into project_authorizations (user_id, project_id, expires_at, access_level)
        select g.user_id, g.project_id, g.expires_at, max(g.access_level)
        from (
          select * from project_authorization_grants_for_users(for_users)
          union all
          select * from project_authorization_grants_for_projects(for_projects)
        ) g
        group by g.user_id, g.project_id, g.expires_at;
      end $$`);

    // What each change moves, decided per statement from the rows whose access columns changed
    // (`changed`: an updated row's old and new versions differ, so both count):
    // - a membership: its user's rows (members has no foreign key to its source, so no cascade
    //   reaches it unseen);
    // - a project created or moved: its rows; a project deleted: its rows, by the foreign key;
    // - a project share: its project's rows; a group share: the rows of the projects below the
    //   shared group;
    // - a group moved (traversal_ids changed): the projects below it, the projects shared with
    //   it, and the projects below the groups shared with it. A deleted group takes its projects,
    //   shares and subgroups with it by foreign keys, whose deletions refresh as above.
    const refreshes: Array<{
      table: string;
      events: Array<keyof typeof TRANSITIONS>;
      columns: string;
      refresh: (changed: string) => string;
    }> = [
      {
        table: 'members',
        events: ['INSERT', 'UPDATE', 'DELETE'],
        columns: 'id, user_id, source_type, source_id, access_level, expires_at, requested_at',
        refresh: (changed) => `array(select distinct user_id from ${changed}), null`,
      },
      {
        table: 'projects',
        events: ['INSERT', 'UPDATE'],
        columns: 'id, namespace_id',
        refresh: (changed) => `null, array(select distinct id from ${changed})`,
      },
      {
        table: 'project_group_links',
        events: ['INSERT', 'UPDATE', 'DELETE'],
        columns: 'id, project_id, group_id, group_access, expires_at',
        refresh: (changed) => `null, array(select distinct project_id from ${changed})`,
      },
      {
        table: 'group_group_links',
        events: ['INSERT', 'UPDATE', 'DELETE'],
        columns: 'id, shared_group_id, shared_with_group_id, group_access, expires_at',
        refresh: (changed) => `null, array(select p.id from projects p join namespaces d on d.id = p.namespace_id
          where d.traversal_ids && array(select shared_group_id from ${changed}))`,
      },
      {
        table: 'namespaces',
        events: ['UPDATE'],
        columns: 'id, traversal_ids',
        refresh: (changed) => `null, array(
          select p.id from projects p where p.namespace_id in (select id from ${changed})
          union
          select l.project_id from project_group_links l where l.group_id in (select id from ${changed})
          union
          select p.id from projects p join namespaces d on d.id = p.namespace_id
          where d.traversal_ids && array(select l.shared_group_id from group_group_links l
            where l.shared_with_group_id in (select id from ${changed})))`,
      },
    ];
    for (const { table, events, columns, refresh } of refreshes) {
      const cases = events.map((event) => {
        const rows =
          event === 'UPDATE'
            ? `select ${columns} from old_rows union all select ${columns} from new_rows`
            : `select ${columns} from ${event === 'INSERT' ? 'new_rows' : 'old_rows'}`;
        const changed = `(select ${columns} from (${rows}) c group by ${columns} having count(*) = 1) changed`;
        return `when '${event}' then perform refresh_project_authorizations(${refresh(changed)});`;
      });
      this.addSql(`create function ${table}_refresh_project_authorizations() returns trigger language plpgsql as $$
        begin
          case tg_op
            ${cases.join('\n            ')}
          end case;
          return null;
        end $$`);
      for (const event of events) {
        this.addSql(`create trigger ${table}_${event.toLowerCase()}_refresh_project_authorizations after ${event} on ${table}
          referencing ${TRANSITIONS[event]} for each statement execute function ${table}_refresh_project_authorizations()`);
      }
    }

    // Every membership row's user, hence every pair the rules grant today.
    this.addSql('select refresh_project_authorizations(array(select distinct user_id from members), null)');
  }
}
