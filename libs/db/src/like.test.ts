import { describe, expect, it } from '@jest/globals';
import { escapeLike, likePattern } from './like.ts';

describe('LIKE patterns', () => {
  it('escapes the wildcards and the escape character, so input matches literally', () => {
    expect(escapeLike('50%_off\\now')).toBe('50\\%\\_off\\\\now');
  });

  it('matches the escaped text anywhere', () => {
    expect(likePattern('a_b')).toBe('%a\\_b%');
  });
});
