/** The largest id a `serial` column holds; larger ids name nothing. */
export const MAX_ID = 2_147_483_647;

/** Escapes `%`, `_` and `\` so user input matches literally inside an ILIKE pattern. */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (character) => `\\${character}`);
}

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
