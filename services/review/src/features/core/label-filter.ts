/** `None` (nothing set), `Any` (something set), or particular values. */
export type Presence<Value> = { kind: 'none' } | { kind: 'any' } | { kind: 'is'; value: Value };

/** GitLab's `labels` list filter: a comma-separated list of names, or `None` (`No label`) or `Any`. */
export function labelsPresence(labels: string | undefined): Presence<string[]> | undefined {
  if (labels === undefined || labels.trim() === '') return undefined;
  const names = labels
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  if (names.length === 1 && /^(none|no\+label|no label)$/i.test(names[0] ?? '')) return { kind: 'none' };
  if (names.length === 1 && /^any$/i.test(names[0] ?? '')) return { kind: 'any' };
  return { kind: 'is', value: names };
}
