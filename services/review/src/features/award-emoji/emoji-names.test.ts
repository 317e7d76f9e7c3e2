import { describe, expect, it } from '@jest/globals';
import { emojiName } from './emoji-names.ts';

describe('emoji names', () => {
  it('knows the emoji names GitLab awards, and stores the votes under their word names', () => {
    expect(emojiName('thumbsup')).toBe('thumbsup');
    expect(emojiName('+1')).toBe('thumbsup');
    expect(emojiName('-1')).toBe('thumbsdown');
    expect(emojiName('tada')).toBe('tada');
    expect(emojiName('rocket')).toBe('rocket');
  });

  it('refuses what names no emoji', () => {
    expect(emojiName('thumbs_sideways')).toBeUndefined();
    expect(emojiName('')).toBeUndefined();
    expect(emojiName(':tada:')).toBeUndefined();
  });
});
