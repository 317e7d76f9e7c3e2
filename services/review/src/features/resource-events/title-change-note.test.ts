import { describe, expect, it } from '@jest/globals';
import { titleChangeNote } from './title-change-note.ts';

describe('titleChangeNote', () => {
  it('marks what was removed and added between the common prefix and suffix, as GitLab does', () => {
    expect(titleChangeNote('Ship it', 'Ship it now')).toBe('changed title from **Ship it** to **Ship it{+ now+}**');
    expect(titleChangeNote('Fix the bug', 'Fix the crash')).toBe('changed title from **Fix the {-bug-}** to **Fix the {+crash+}**');
    expect(titleChangeNote('Draft: Shout', 'Shout')).toBe('changed title from **{-Draft: -}Shout** to **Shout**');
    expect(titleChangeNote('aaa', 'aa')).toBe('changed title from **aa{-a-}** to **aa**');
  });
});
