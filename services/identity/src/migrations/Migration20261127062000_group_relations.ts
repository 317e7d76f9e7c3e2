import { Migration } from '@platform/db';

/** The transition tables of a statement-level trigger; PostgreSQL allows them on one event per trigger. */
const TRANSITIONS = {
  INSERT: 'new table as new_rows',
  DELETE: 'old table as old_rows',
  UPDATE: 'old table as old_rows new table as new_rows',
} as const;

/** The users with a current row on any of the groups `groups` (an integer array expression). */
const relatedTo = (groups: string) => `select r.user_id from group_relations r where r.group_id = any(${groups})`;

/** The users with an active membership of any of the groups `groups` (an integer array expression), or of an ancestor of one. */
const membersWithin = (groups: string) => `select m.user_id from namespaces w
  join members m on m.source_type = 'Group' and m.source_id = any(w.traversal_ids) and m.requested_at is null
  where w.id = any(${groups})`;

/**
 * `group_relations`: the groups each user is related to (`groupRelatedTo` in access-sql.ts): the
 * groups they have access to (a membership of the group or an ancestor, or a share into one of
 * those with a group they have such a membership of), the ancestors of those, and the ancestors
 * of the namespaces of the projects they reach by a project membership or a project share. A
 * member's `GET /groups` lists exactly these, and every visibility check of a group reads them;
 * evaluating the rules per statement cost a member's list 0.67 ms of PostgreSQL CPU of 1.1
 * (`docs/read-path.md`, section 27). Kept, as `project_authorizations` is (section 9), by
 * statement-level triggers in the transaction of every change that moves it.
 *
 * One row per user and group, valid until `expires_at` (`infinity`: never): a relation through
 * an expiring membership or share lapses with the earliest of them, and a group reached along
 * several paths keeps the latest; a read takes the rows with `expires_at > current_date`, exact
 * as days pass with nothing to refresh. Pending access requests relate nothing. Visibility and
 * the user's state (blocked, external, administrator) are not here: reads add them, as before.
 */
export class Migration20261127062000_group_relations extends Migration {
  override name = 'Migration20261127062000_group_relations';

  override up(): void {
    this.addSql(`create table group_relations (
      user_id integer not null references users (id) on delete cascade,
      group_id integer not null references namespaces (id) on delete cascade,
      expires_at date not null default 'infinity',
      primary key (user_id, group_id) include (expires_at)
    )`);
    // A group's related users: the triggers find who a change to a group can move.
    this.addSql('create index group_relations_group_id_idx on group_relations (group_id)');

    // Every relation of the users `for_users`, by the rules, from their memberships: each output
    // group is read from namespaces (a membership may outlive its group: members has no key to it).
    // The groups below a membership, and the shares into them, are read per membership through
    // `traversal_ids`' GIN index and the shares' group keys (lateral subqueries, kept from being
    // flattened by `offset 0`): as joins, a backfill of every user compared each membership with
    // every namespace and every share (36 s at the bench's 10,001 users).
    this.addSql(`create function group_relations_for_users(for_users integer[])
      returns table (user_id integer, group_id integer, expires_at date)
      language sql stable as $$
        with memberships as (
          select m.user_id, m.source_type, m.source_id, coalesce(m.expires_at, 'infinity') as expires_at
          from members m
          where m.user_id = any(for_users) and m.requested_at is null and (m.expires_at is null or m.expires_at > current_date)
        ),
        roots as (
          select m.user_id, m.source_id as group_id, m.expires_at from memberships m where m.source_type = 'Group'
          union all
          select m.user_id, l.shared_group_id, least(m.expires_at, l.expires_at)
          from memberships m
          cross join lateral (select l.shared_group_id, coalesce(l.expires_at, 'infinity') as expires_at
            from namespaces w join group_group_links l on l.shared_with_group_id = w.id
            where w.traversal_ids @> array[m.source_id] and (l.expires_at is null or l.expires_at > current_date) offset 0) l
          where m.source_type = 'Group'
        ),
        project_namespaces as (
          select m.user_id, p.namespace_id, m.expires_at
          from memberships m join projects p on p.id = m.source_id where m.source_type = 'Project'
          union all
          select m.user_id, p.namespace_id, least(m.expires_at, l.expires_at)
          from memberships m
          cross join lateral (select l.project_id, coalesce(l.expires_at, 'infinity') as expires_at
            from namespaces w join project_group_links l on l.group_id = w.id
            where w.traversal_ids @> array[m.source_id] and (l.expires_at is null or l.expires_at > current_date) offset 0) l
          join projects p on p.id = l.project_id
          where m.source_type = 'Group'
        )
        select r.user_id, d.id, r.expires_at
        from roots r cross join lateral (select d.id, d.kind from namespaces d where d.traversal_ids @> array[r.group_id] offset 0) d
        where d.kind = 'group'
        union all
        select r.user_id, a.id, r.expires_at
        from roots r join namespaces g on g.id = r.group_id and g.kind = 'group'
        join namespaces a on a.id = any(g.traversal_ids)
        union all
        select t.user_id, a.id, t.expires_at
        from project_namespaces t join namespaces n on n.id = t.namespace_id and n.kind = 'group'
        join namespaces a on a.id = any(n.traversal_ids)
      $$`);

    // Recomputes every row of the users `for_users`. It takes project_authorizations' lock: a
    // change moving both waits once, and two transactions never hold the two locks in opposite orders.
    this.addSql(`create function refresh_group_relations(for_users integer[])
      returns void language plpgsql as $$
      begin
        if coalesce(cardinality(for_users), 0) = 0 then
          return;
        end if;
        perform pg_advisory_xact_lock(hashtext('project_authorizations'));
        delete from group_relations r where r.user_id = any(for_users);
        insert into group_relations (user_id, group_id, expires_at)
        select g.user_id, g.group_id, max(g.expires_at) from group_relations_for_users(for_users) g group by g.user_id, g.group_id;
      end $$`);

    // Whose rows each change can move, decided per statement from the rows whose columns changed
    // (`changed`):
    // - a membership: its user;
    // - a group or project share: the members of the group it is shared with or of an ancestor
    //   (those whom it relates);
    // - a project moved or deleted: its project members, and the members of the groups it is
    //   shared with or of their ancestors (a deleted project's shares go by the foreign key, which
    //   fires the shares' trigger);
    // - a group created: the members of its ancestors and of the groups shared into them (whoever
    //   has access to its parent);
    // - a group moved or deleted: the users related to any group of its old or new ancestry
    //   (whoever reaches it, or something inside it, is related to it and its ancestors), and the
    //   members of those groups (a deleted group's own rows went by the foreign key, and the
    //   shares with it by theirs, when the group they named was already gone). A deleted group's
    //   subgroups and projects go by cascades, which fire these triggers again.
    // A new project has no members and no shares yet: its creation moves nothing.
    const refreshes: Array<{
      table: string;
      events: Array<keyof typeof TRANSITIONS>;
      columns: string;
      users: (changed: string, event: keyof typeof TRANSITIONS) => string;
    }> = [
      {
        table: 'members',
        events: ['INSERT', 'UPDATE', 'DELETE'],
        columns: 'id, user_id, source_type, source_id, expires_at, requested_at',
        users: (changed) => `select user_id from ${changed}`,
      },
      {
        table: 'group_group_links',
        events: ['INSERT', 'UPDATE', 'DELETE'],
        columns: 'id, shared_group_id, shared_with_group_id, expires_at',
        users: (changed) => membersWithin(`array(select shared_with_group_id from ${changed})`),
      },
      {
        table: 'project_group_links',
        events: ['INSERT', 'UPDATE', 'DELETE'],
        columns: 'id, project_id, group_id, expires_at',
        users: (changed) => membersWithin(`array(select group_id from ${changed})`),
      },
      {
        table: 'projects',
        events: ['UPDATE', 'DELETE'],
        columns: 'id, namespace_id',
        users: (changed) => `select m.user_id from members m where m.source_type = 'Project' and m.source_id in (select id from ${changed})
          union ${membersWithin(`array(select l.group_id from project_group_links l where l.project_id in (select id from ${changed}))`)}`,
      },
      {
        table: 'namespaces',
        events: ['INSERT', 'UPDATE', 'DELETE'],
        columns: 'id, kind, traversal_ids',
        users: (changed, event) => {
          const ancestry = `array(select unnest(traversal_ids) from ${changed} where kind = 'group')`;
          if (event === 'INSERT') {
            return `${membersWithin(ancestry)}
              union ${membersWithin(`array(select l.shared_with_group_id from group_group_links l where l.shared_group_id = any(${ancestry}))`)}`;
          }
          return `${relatedTo(ancestry)}
            union select m.user_id from members m where m.source_type = 'Group' and m.source_id = any(${ancestry})`;
        },
      },
    ];
    for (const { table, events, columns, users } of refreshes) {
      const cases = events.map((event) => {
        const rows =
          event === 'UPDATE'
            ? `select ${columns} from old_rows union all select ${columns} from new_rows`
            : `select ${columns} from ${event === 'INSERT' ? 'new_rows' : 'old_rows'}`;
        const changed = `(select ${columns} from (${rows}) c group by ${columns} having count(*) = 1) changed`;
        return `when '${event}' then perform refresh_group_relations(array(${users(changed, event)}));`;
      });
      this.addSql(`create function ${table}_refresh_group_relations() returns trigger language plpgsql as $$
        begin
          case tg_op
            ${cases.join('\n            ')}
          end case;
          return null;
        end $$`);
      for (const event of events) {
        this.addSql(`create trigger ${table}_${event.toLowerCase()}_refresh_group_relations after ${event} on ${table}
          referencing ${TRANSITIONS[event]} for each statement execute function ${table}_refresh_group_relations()`);
      }
    }

    // Every membership row's user, hence every relation the rules make today.
    this.addSql('select refresh_group_relations(array(select distinct user_id from members))');
  }
}
