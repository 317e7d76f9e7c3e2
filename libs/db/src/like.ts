/** Escapes `%`, `_` and `\` so user input matches literally inside a LIKE or ILIKE pattern. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

/** A LIKE or ILIKE pattern matching `text`, taken literally, anywhere in a value. */
export function likePattern(text: string): string {
  return `%${escapeLike(text)}%`;
}
