/** A window of a list, as offset pagination asks for it. */
export interface Page {
  offset: number;
  limit: number;
}

/** The largest id a `serial` column holds; larger ids name nothing. */
export const MAX_ID = 2_147_483_647;

/** Escapes `%`, `_` and `\` so user input matches literally inside an ILIKE pattern. */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (character) => `\\${character}`);
}
