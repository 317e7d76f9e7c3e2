/** GitHub's emoji short names (`speech_balloon`, `coffee`, `+1`...), which GitLab's are based on. */
let emojiNames: Promise<ReadonlySet<string>> | undefined;

/** Loads the emoji table on the first status set, not at start: most processes never need it. */
export async function isEmojiName(name: string): Promise<boolean> {
  emojiNames ??= import('gemoji').then(({ gemoji }) => new Set(gemoji.flatMap((emoji) => emoji.names)));
  return (await emojiNames).has(name);
}
