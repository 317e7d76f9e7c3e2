import type { EntityDictionary } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { sql, type RawBuilder } from 'kysely';
import { accessCtes, groupWithAccess, type Viewer } from './access-sql.ts';
import { Namespace } from './namespace.entity.ts';
import { MAX_ID } from './sql-helpers.ts';
import { likePattern, mapPage, readPage, type Page, type PageWindow } from '@platform/db';

export interface NamespaceStore {
  findById(id: number): Promise<Namespace | null>;
  findByIds(ids: number[]): Promise<Namespace[]>;
  /** Case-insensitive, as GitLab resolves paths. */
  findByFullPath(fullPath: string): Promise<Namespace | null>;
  personalNamespaceOf(userId: number): Promise<Namespace | null>;
  /** The namespaces and all their ancestors, by id: what full names and paths are built from. */
  withAncestors(namespaces: Namespace[]): Promise<Map<number, Namespace>>;
  /** The namespaces with these ids and all their ancestors, by id, in one statement. */
  lineageOf(ids: number[]): Promise<Map<number, Namespace>>;
  /**
   * The namespaces a user works in, as `GET /namespaces` lists them: their own and the groups they
   * have access to (with `ownedOnly`, Owner access); every namespace for administrators.
   */
  listFor(
    viewer: Viewer & { kind: 'user' },
    filter: { search?: string; ownedOnly?: boolean },
    window: PageWindow,
  ): Promise<Page<Namespace>>;
}

/** Namespaces in PostgreSQL. `em` resolves to the current unit of work. */
export class PgNamespaceStore implements NamespaceStore {
  readonly #em: EntityManager;

  constructor(em: EntityManager) {
    this.#em = em;
  }

  findById(id: number): Promise<Namespace | null> {
    if (id > MAX_ID) return Promise.resolve(null);
    return this.#em.findOne(Namespace, { id });
  }

  findByIds(ids: number[]): Promise<Namespace[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.#em.find(Namespace, { id: { $in: [...new Set(ids)] } });
  }

  async findByFullPath(fullPath: string): Promise<Namespace | null> {
    const rows = await this.#em.execute<Array<{ id: number }>>('select id from namespaces where lower(full_path) = lower(?)', [fullPath]);
    const id = rows[0]?.id;
    return id === undefined ? null : this.findById(id);
  }

  personalNamespaceOf(userId: number): Promise<Namespace | null> {
    return this.#em.findOne(Namespace, { ownerId: userId, kind: 'user' });
  }

  async listFor(
    viewer: Viewer & { kind: 'user' },
    filter: { search?: string; ownedOnly?: boolean },
    window: PageWindow,
  ): Promise<Page<Namespace>> {
    const minimum = filter.ownedOnly ? 50 : 10;
    const conditions: RawBuilder<unknown>[] = [];
    if (!viewer.isAdmin || filter.ownedOnly) {
      conditions.push(sql`(n.owner_id = ${viewer.userId} or ${groupWithAccess(viewer, minimum)})`);
    }
    if (filter.search) {
      const pattern = likePattern(filter.search);
      conditions.push(sql`(n.name ilike ${pattern} or n.path ilike ${pattern})`);
    }
    const where = conditions.length > 0 ? sql.join(conditions, sql` and `) : sql`true`;
    const page = await readPage<EntityDictionary<Namespace>>(this.#em.getKysely(), {
      ctes: accessCtes(viewer),
      matching: sql`select 1 from namespaces n where ${where}`,
      rows: sql`select n.* from namespaces n where ${where} order by n.id`,
      window,
    });
    return mapPage(page, (rows) => rows.map((row) => this.#em.map(Namespace, row)));
  }

  async lineageOf(ids: number[]): Promise<Map<number, Namespace>> {
    if (ids.length === 0) return new Map();
    const { rows } = await sql<EntityDictionary<Namespace>>`select n.* from namespaces n
      where n.id in (select unnest(o.traversal_ids) from namespaces o where o.id = any(${[...new Set(ids)]}::integer[]))`.execute(
      this.#em.getKysely(),
    );
    return new Map(rows.map((row) => [Number(row.id), this.#em.map(Namespace, row)]));
  }

  async withAncestors(namespaces: Namespace[]): Promise<Map<number, Namespace>> {
    const byId = new Map(namespaces.map((namespace) => [namespace.id, namespace]));
    const missing = [...new Set(namespaces.flatMap((namespace) => namespace.traversalIds))].filter((id) => !byId.has(id));
    for (const ancestor of await this.findByIds(missing)) byId.set(ancestor.id, ancestor);
    return byId;
  }
}

/** `Parent / Child`, GitLab's full name of a namespace. */
export function fullNameOf(namespace: Namespace, known: Map<number, Namespace>): string {
  return namespace.traversalIds.map((id) => known.get(id)?.name ?? '').join(' / ');
}
