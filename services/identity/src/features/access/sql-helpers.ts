/** The largest id a `serial` column holds; larger ids name nothing. */
export const MAX_ID = 2_147_483_647;

/** Where a keyset page starts: after the row with `afterId` (none: from the start), ordered by id. */
export interface Keyset {
  afterId?: number | undefined;
  sort: 'asc' | 'desc';
  limit: number;
}

export interface KeysetPage<Item> {
  items: Item[];
  hasMore: boolean;
}

/** `Parent / Child`: the names of a namespace's (alias `alias`) ancestors and its own, as GitLab's `full_name`. */
export function namespaceFullName(alias: string): string {
  return `(select string_agg(coalesce(a.name, ''), ' / ' order by t.position)
  from unnest(${alias}.traversal_ids) with ordinality t(id, position) left join namespaces a on a.id = t.id)`;
}
