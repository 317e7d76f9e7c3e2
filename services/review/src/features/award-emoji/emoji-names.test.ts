import { describe, expect, it } from '@jest/globals';
import { emojiName } from './emoji-names.ts';

describe('emoji names', () => {
  it('knows the emoji names GitLab awards, and stores the votes under their word names', async () => {
    expect(await emojiName('thumbsup')).toBe('thumbsup');
    expect(await emojiName('+1')).toBe('thumbsup');
    expect(await emojiName('-1')).toBe('thumbsdown');
    expect(await emojiName('tada')).toBe('tada');
    expect(await emojiName('rocket')).toBe('rocket');
  });

  it('refuses what names no emoji', async () => {
    expect(await emojiName('thumbs_sideways')).toBeUndefined();
    expect(await emojiName('')).toBeUndefined();
    expect(await emojiName(':tada:')).toBeUndefined();
  });
});
