import { sql, type Kysely } from 'kysely';

/** Whether paths are taken among the namespaces of one parent (top-level ones without a parent). */
export class NamespacePathsReadModel {
  readonly #db: Kysely<unknown>;

  constructor(db: Kysely<unknown>) {
    this.#db = db;
  }

  /** A namespace under `parentId` has this path, case-insensitively. */
  async pathTaken(parentId: number | null, path: string): Promise<boolean> {
    const { rows } = await sql`select 1 from namespaces
      where parent_id is not distinct from ${parentId}::integer and lower(path) = lower(${path}) limit 1`.execute(this.#db);
    return rows.length > 0;
  }

  /** Of `candidates`, those a namespace under `parentId` has as its path or its name, case-insensitively, in lower case. */
  async takenPathsOrNames(parentId: number | null, candidates: string[]): Promise<Set<string>> {
    const lowered = candidates.map((candidate) => candidate.toLowerCase());
    const { rows } = await sql<{ taken: string }>`select t.taken from unnest(${lowered}::text[]) as t(taken)
      where exists (select 1 from namespaces n where n.parent_id is not distinct from ${parentId}::integer
        and (lower(n.path) = t.taken or lower(n.name) = t.taken))`.execute(this.#db);
    return new Set(rows.map((row) => row.taken));
  }
}
