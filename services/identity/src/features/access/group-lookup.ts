import type { EntityManager } from '@mikro-orm/postgresql';
import { Namespace, type Group } from './namespace.entity.ts';
import { MAX_ID } from './sql-helpers.ts';

/** What features other than groups read about groups; the groups store provides it. */
export interface GroupLookup {
  findById(id: number): Promise<Group | null>;
  /** The group and its descendants, deepest first. */
  subtreeOf(group: Group): Promise<Group[]>;
}

export function asGroups(namespaces: Namespace[]): Group[] {
  return namespaces.filter((namespace): namespace is Group => namespace.kind === 'group');
}

/** Group reads in PostgreSQL, for the features that read groups without owning them. `em` resolves to the current unit of work. */
export class PgGroupLookup implements GroupLookup {
  readonly #em: EntityManager;

  constructor(em: EntityManager) {
    this.#em = em;
  }

  async findById(id: number): Promise<Group | null> {
    if (id > MAX_ID) return null;
    return (await this.#em.findOne(Namespace, { id, kind: 'group' })) as Group | null;
  }

  async subtreeOf(group: Group): Promise<Group[]> {
    const groups = asGroups(await this.#em.find(Namespace, { kind: 'group', traversalIds: { $contains: [group.id] } }));
    return groups.sort((a, b) => b.traversalIds.length - a.traversalIds.length || b.id - a.id);
  }
}
