import { gemoji } from 'gemoji';

/** GitHub's emoji short names (`speech_balloon`, `coffee`, `+1`...), which GitLab's are based on. */
const EMOJI_NAMES: ReadonlySet<string> = new Set(gemoji.flatMap((emoji) => emoji.names));

export function isEmojiName(name: string): boolean {
  return EMOJI_NAMES.has(name);
}
