import { gemoji } from 'gemoji';

const NAMES: ReadonlySet<string> = new Set(gemoji.flatMap((emoji) => emoji.names));

/** GitLab stores the votes under their word names. */
const ALIASES: Readonly<Record<string, string>> = { '+1': 'thumbsup', '-1': 'thumbsdown' };

/** The name an award is stored under, or undefined when it names no emoji. */
export function emojiName(name: string): string | undefined {
  const normalized = ALIASES[name] ?? name;
  return NAMES.has(normalized) ? normalized : undefined;
}
