/** An entity's `Date`, or the ISO 8601 string a read model selects (`isoTimestamp`): both serialise alike. */
export type Timestamp = Date | string;

/** The timestamp as views show it; a read model's string is already that, and is not parsed again. */
export function isoOf(timestamp: Timestamp): string {
  return typeof timestamp === 'string' ? timestamp : timestamp.toISOString();
}
