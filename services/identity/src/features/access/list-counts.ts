/**
 * The maintained counts of unfiltered lists (`list_counts`, kept by the triggers of migration
 * `Migration20261127030500_list_counts`): exact in every snapshot, since each change writes its
 * delta in its own transaction, so a list reads its total from them instead of counting up to
 * 10,001 index entries, and no cache can serve a stale one.
 */
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Visibility } from './namespace.entity.ts';

/** Every row of `users`. */
export const USERS_KEY = 'users';

/** The projects of one visibility. */
export function projectsKey(visibility: Visibility): string {
  return `projects:${visibility}`;
}

/** The groups (namespaces of kind `group`) of one visibility. */
export function groupsKey(visibility: Visibility): string {
  return `groups:${visibility}`;
}

/** How many rows the lists of `keys` hold together, as a scalar subquery of the statement that reads the page. */
export function maintainedCount(keys: string[]): RawBuilder<number> {
  return sql<number>`(select coalesce(sum(c.delta), 0) from list_counts c where c.key = any(${keys}::text[]))`;
}

/**
 * Folds every key's delta rows into one, in one statement: its delete and insert commit
 * together, so a read sees the rows before or after, never a part. A change committing meanwhile
 * adds rows the delete did not see, kept for the next fold.
 */
export async function foldListCounts(db: Kysely<unknown>): Promise<void> {
  await sql`with gone as (delete from list_counts returning key, delta)
    insert into list_counts (key, delta) select key, sum(delta) from gone group by key having sum(delta) <> 0`.execute(db);
}
