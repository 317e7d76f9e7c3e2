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
