import { Migration } from '@platform/db';

/** The transition tables of a statement-level trigger; PostgreSQL allows them on one event per trigger. */
const TRANSITIONS = {
  INSERT: 'new table as new_rows',
  DELETE: 'old table as old_rows',
  UPDATE: 'old table as old_rows new table as new_rows',
} as const;

/**
 * `list_counts`: how many rows each unfiltered list holds, kept by the database in the
 * transaction of every change, so that a list above GitLab's count cap (10,000) needs no count
 * of 10,001 index entries to know it (`docs/read-path.md`, section 17).
 *
 * A statement that adds or removes counted rows inserts one delta row per key it moved (a
 * statement-level trigger over its transition tables, so bulk writes and cascades count too):
 * inserts never wait for each other, where a single row per key would serialise every writer.
 * A key's count is the sum of its rows; `identity.fold_list_counts` folds them into one row per
 * key now and then, so a read sums a handful. Keys (`list-counts.ts` reads them):
 * - `users`: every row of `users`, as `GET /users` without filters lists them;
 * - `projects:<visibility>`: the projects of each visibility, from which `GET /projects` without
 *   filters counts what its viewer sees.
 */
export class Migration20261127030500_list_counts extends Migration {
  override name = 'Migration20261127030500_list_counts';

  override up(): void {
    this.addSql('create table list_counts (key text not null, delta bigint not null)');
    this.addSql('create index list_counts_key_idx on list_counts (key)');

    const counted: Array<{ table: string; key: string; keyPattern: string; events: Array<keyof typeof TRANSITIONS> }> = [
      // Every user counts under one key whatever changes: an update moves nothing.
      { table: 'users', key: "'users'", keyPattern: 'users', events: ['INSERT', 'DELETE'] },
      { table: 'projects', key: "'projects:' || visibility", keyPattern: 'projects:%', events: ['INSERT', 'UPDATE', 'DELETE'] },
    ];
    for (const { table, key, keyPattern, events } of counted) {
      const signed = {
        INSERT: `select ${key} as key, 1 as delta from new_rows`,
        DELETE: `select ${key} as key, -1 as delta from old_rows`,
      };
      const cases = events.map((event) => {
        const rows = event === 'UPDATE' ? `${signed.INSERT} union all ${signed.DELETE}` : signed[event];
        // An update that moves no row from one key to another writes nothing.
        return `when '${event}' then insert into list_counts (key, delta)
              select key, sum(delta) from (${rows}) moved group by key having sum(delta) <> 0;`;
      });
      this.addSql(`create function ${table}_count_list_rows() returns trigger language plpgsql as $$
        begin
          case tg_op
            ${cases.join('\n            ')}
            when 'TRUNCATE' then delete from list_counts where key like '${keyPattern}';
          end case;
          return null;
        end $$`);
      for (const event of events) {
        this.addSql(`create trigger ${table}_${event.toLowerCase()}_count_list_rows after ${event} on ${table}
          referencing ${TRANSITIONS[event]} for each statement execute function ${table}_count_list_rows()`);
      }
      this.addSql(`create trigger ${table}_truncate_count_list_rows after truncate on ${table}
        for each statement execute function ${table}_count_list_rows()`);
      // Creating the triggers locked out writers until this migration commits: the counts start exact.
      this.addSql(`insert into list_counts (key, delta) select ${key}, count(*) from ${table} group by 1`);
    }
  }
}
