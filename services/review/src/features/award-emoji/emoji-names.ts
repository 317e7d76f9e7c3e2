let names: Promise<ReadonlySet<string>> | undefined;

/** GitLab stores the votes under their word names. */
const ALIASES: Readonly<Record<string, string>> = { '+1': 'thumbsup', '-1': 'thumbsdown' };

/** The name an award is stored under, or undefined when it names no emoji; the emoji table is loaded on the first call, not at start. */
export async function emojiName(name: string): Promise<string | undefined> {
  names ??= import('gemoji').then(({ gemoji }) => new Set(gemoji.flatMap((emoji) => emoji.names)));
  const normalized = ALIASES[name] ?? name;
  return (await names).has(normalized) ? normalized : undefined;
}
