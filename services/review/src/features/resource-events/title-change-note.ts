/**
 * GitLab's system note for a changed title (`SystemNotes::IssuablesService#change_title`): both
 * titles in bold, the part that differs marked as an inline diff (`{-removed-}`, `{+added+}`)
 * between their longest common prefix and suffix (`Gitlab::Diff::InlineDiff`).
 */
export function titleChangeNote(previous: string, current: string): string {
  let prefix = 0;
  while (prefix < previous.length && prefix < current.length && previous[prefix] === current[prefix]) prefix += 1;
  let suffix = 0;
  while (
    suffix < previous.length - prefix &&
    suffix < current.length - prefix &&
    previous[previous.length - 1 - suffix] === current[current.length - 1 - suffix]
  )
    suffix += 1;
  const mark = (title: string, symbol: '-' | '+') => {
    const changed = title.slice(prefix, title.length - suffix);
    if (changed === '') return title;
    return `${title.slice(0, prefix)}{${symbol}${changed}${symbol}}${title.slice(title.length - suffix)}`;
  };
  return `changed title from **${mark(previous, '-')}** to **${mark(current, '+')}**`;
}
