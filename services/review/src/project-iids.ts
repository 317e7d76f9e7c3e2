import type { EntityManager } from '@platform/db';

/** The advisory lock space (the first of the two lock keys) of each table's iid allocation. */
const IID_LOCKS = { merge_requests: 7_302, milestones: 7_303, issues: 7_304 } as const;

/**
 * The next per-project iid of `table`. It takes a transaction-scoped lock on the project's iids
 * first, so creations racing in one project get consecutive iids: call it inside the
 * transaction that inserts the row.
 */
export async function nextIid(em: EntityManager, table: keyof typeof IID_LOCKS, projectId: number): Promise<number> {
  await em.execute('select pg_advisory_xact_lock(?, ?)', [IID_LOCKS[table], projectId]);
  const [row] = await em.execute<Array<{ next: number }>>(`select coalesce(max(iid), 0) + 1 as next from ${table} where project_id = ?`, [
    projectId,
  ]);
  return Number(row?.next ?? 1);
}
