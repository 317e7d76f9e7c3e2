import { Migration } from '@platform/db';

/**
 * `list_counts` keys `groups:<visibility>`: the groups (namespaces of kind `group`) of each
 * visibility, from which `GET /groups` without filters counts what an administrator or an
 * anonymous caller sees (`docs/read-path.md`, section 17, for the table and its fold).
 *
 * As for users and projects, each statement writes one delta row per key it moved, from its
 * transition tables: creating or deleting groups (a cascade too), and changing their visibility
 * (edited, or capped by a transfer under a less visible parent). Personal namespaces move nothing.
 * PostgreSQL allows no column list on a trigger with transition tables, so every update of
 * namespaces runs it; one that moves no group between keys writes nothing.
 */
export class Migration20261127035700_group_list_counts extends Migration {
  override name = 'Migration20261127035700_group_list_counts';

  override up(): void {
    const key = "'groups:' || visibility";
    const moved = (rows: string, delta: number) => `select ${key} as key, ${delta} as delta from ${rows} where kind = 'group'`;
    const insertMoved = (rows: string) => `insert into list_counts (key, delta)
              select key, sum(delta) from (${rows}) moved group by key having sum(delta) <> 0;`;
    this.addSql(`create function namespaces_count_list_rows() returns trigger language plpgsql as $$
        begin
          case tg_op
            when 'INSERT' then ${insertMoved(moved('new_rows', 1))}
            when 'UPDATE' then ${insertMoved(`${moved('new_rows', 1)} union all ${moved('old_rows', -1)}`)}
            when 'DELETE' then ${insertMoved(moved('old_rows', -1))}
            when 'TRUNCATE' then delete from list_counts where key like 'groups:%';
          end case;
          return null;
        end $$`);
    const transitions = {
      insert: 'new table as new_rows',
      update: 'old table as old_rows new table as new_rows',
      delete: 'old table as old_rows',
    };
    for (const [event, referencing] of Object.entries(transitions)) {
      this.addSql(`create trigger namespaces_${event}_count_list_rows after ${event} on namespaces
        referencing ${referencing} for each statement execute function namespaces_count_list_rows()`);
    }
    this.addSql(`create trigger namespaces_truncate_count_list_rows after truncate on namespaces
      for each statement execute function namespaces_count_list_rows()`);
    // Creating the triggers locked out writers until this migration commits: the counts start exact.
    this.addSql(`insert into list_counts (key, delta) select ${key}, count(*) from namespaces where kind = 'group' group by 1`);
  }
}
